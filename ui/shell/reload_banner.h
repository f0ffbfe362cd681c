// The bar over the timeline that says the open trace's file changed on disk and offers to reload
// it. What is shown stays until the user chooses: a half-written file should not replace it.
#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

class ReloadBanner : public QFrame {
    Q_OBJECT
public:
    explicit ReloadBanner(QWidget* parent = nullptr);

    // Shows the banner with this message (the file and how it changed).
    void showChange(const QString& message);
    QString text() const;
    QPushButton* reloadButton() const { return reload_; }

signals:
    void reloadRequested();

private:
    QLabel* label_;
    QPushButton* reload_;
};
