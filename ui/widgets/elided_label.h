// A one-line label that gives up width: it asks for little, elides its text to what it gets and
// shows the whole text in its tooltip unless given another. A name of thousands of characters in
// the details panel, or the status bar's file names at 800 px, cannot widen the window.
#pragma once

#include <QFrame>
#include <QString>

class ElidedLabel : public QFrame {
    Q_OBJECT
public:
    explicit ElidedLabel(Qt::TextElideMode mode = Qt::ElideMiddle, QWidget* parent = nullptr);

    void setText(const QString& text);
    QString text() const { return text_; }
    // The text as drawn at the current width.
    QString shownText() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent*) override;

private:
    Qt::TextElideMode mode_;
    QString text_;
};
