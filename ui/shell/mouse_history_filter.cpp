#include "shell/mouse_history_filter.h"

#include <QApplication>
#include <QMouseEvent>
#include <QWidget>

#include "state/viewer_state.h"

MouseHistoryFilter::MouseHistoryFilter(QWidget* window, ViewerState* state)
    : QObject(window), window_(window), state_(state) {
    qApp->installEventFilter(this);
}

bool MouseHistoryFilter::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() != QEvent::MouseButtonPress || !watched->isWidgetType()) return false;
    const auto button = static_cast<QMouseEvent*>(event)->button();
    if (button != Qt::BackButton && button != Qt::ForwardButton) return false;
    if (static_cast<QWidget*>(watched)->window() != window_) return false;
    if (button == Qt::BackButton)
        state_->back();
    else
        state_->forward();
    return true;
}
