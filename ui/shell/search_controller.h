// Search in the tool bar: finds slices by name (or uid) in the current document and steps through
// the matches by start time (Enter / Shift+Enter in the field, Find Next / Previous), selecting
// each through the viewer state. Opening another trace empties the field.
#pragma once

#include <QObject>
#include <QString>
#include <vector>

class QLineEdit;
class ViewerState;

class SearchController : public QObject {
    Q_OBJECT
public:
    explicit SearchController(ViewerState* state, QObject* parent = nullptr);

    // The search field (the caller puts it in a tool bar).
    QLineEdit* field() const { return field_; }
    // The event with this uid, else the first slice (by time) named exactly `text`, else the first
    // whose name contains it; kNoRow when none.
    uint32_t findEvent(const QString& text) const;

public slots:
    void findNext();
    void findPrevious();

signals:
    // "Match 2 of 7", "No match": for the status bar.
    void message(const QString& text);
    // Escape in the field: give the focus back.
    void escaped();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void updateHits();
    void step(int direction);

    ViewerState* state_;
    QLineEdit* field_;
    QString trace_;               // the trace searched
    QString text_;                // what hits_ were found for
    std::vector<uint32_t> hits_;  // by start time
};
