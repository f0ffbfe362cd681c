#include "state/zoom_control.h"

#include <algorithm>
#include <cmath>

void ZoomControl::setTraceRange(int64_t start, int64_t end) {
    traceStart_ = start;
    traceEnd_ = std::max(end, start + kMinWindowNs);
    reset();
}

void ZoomControl::reset() {
    setWindow(traceStart_ - margin(), traceEnd_ + margin());
}

void ZoomControl::setWindow(int64_t start, int64_t end) {
    const int64_t lo = traceStart_ - margin(), hi = traceEnd_ + margin();
    int64_t width = std::clamp<int64_t>(end - start, kMinWindowNs, hi - lo);
    start = std::clamp<int64_t>(start, lo, hi - width);
    if (start == start_ && start + width == end_) return;
    start_ = start;
    end_ = start + width;
    emit windowChanged();
}

void ZoomControl::zoomAt(int64_t anchor, double factor) {
    anchor = std::clamp(anchor, start_, end_);
    const double left = double(anchor - start_) * factor;
    const double right = double(end_ - anchor) * factor;
    // Keep at least the minimum width even when both sides round down.
    int64_t s = anchor - int64_t(std::llround(left));
    int64_t e = anchor + int64_t(std::llround(right));
    if (e - s < kMinWindowNs) {
        const double share = (left + right) > 0 ? left / (left + right) : 0.5;
        s = anchor - int64_t(std::llround(share * kMinWindowNs));
        e = s + kMinWindowNs;
    }
    setWindow(s, e);
}

void ZoomControl::panBy(int64_t deltaNs) {
    setWindow(start_ + deltaNs, end_ + deltaNs);
}

void ZoomControl::centreOn(int64_t t) {
    const int64_t w = windowDuration();
    setWindow(t - w / 2, t - w / 2 + w);
}
