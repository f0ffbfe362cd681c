// The mouse's back and forward buttons (buttons 4 and 5) anywhere in a window step through the
// viewer state's selection history, as Alt+Left / Alt+Right do. An application-wide filter,
// because the widget under the mouse (a table, the timeline) accepts its presses itself.
#pragma once

#include <QObject>

class QWidget;
class ViewerState;

class MouseHistoryFilter : public QObject {
    Q_OBJECT
public:
    // Installs itself on the application; window is its parent.
    MouseHistoryFilter(QWidget* window, ViewerState* state);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* window_;
    ViewerState* state_;
};
