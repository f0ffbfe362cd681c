#include "panels/lazy_result.h"

#include <QEvent>
#include <QWidget>

ShowGate::ShowGate(QWidget* widget, std::function<void()> update)
    : widget_(widget), update_(std::move(update)) {
    widget_->installEventFilter(this);
}

void ShowGate::invalidate() {
    stale_ = true;
    if (widget_->isVisible()) run();
}

void ShowGate::run() {
    stale_ = false;
    update_();
}

void ShowGate::catchUp() {
    if (stale_) run();
}

bool ShowGate::eventFilter(QObject* watched, QEvent* event) {
    if (watched == widget_ && event->type() == QEvent::Show) catchUp();
    return false;
}
