// Owns the visible time window of the timeline, in trace nanoseconds. Views read it and ask it to
// change; it keeps the window inside the trace (with a small margin) and no narrower than 10 ns.
#pragma once

#include <QObject>
#include <cstdint>

class ZoomControl : public QObject {
    Q_OBJECT
public:
    static constexpr int64_t kMinWindowNs = 10;

    using QObject::QObject;

    // Sets the trace extent and shows all of it.
    void setTraceRange(int64_t start, int64_t end);
    int64_t traceStart() const { return traceStart_; }
    int64_t traceEnd() const { return traceEnd_; }
    int64_t windowStart() const { return start_; }
    int64_t windowEnd() const { return end_; }
    int64_t windowDuration() const { return end_ - start_; }

    void setWindow(int64_t start, int64_t end);
    // factor < 1 zooms in; the time under anchor stays where it is.
    void zoomAt(int64_t anchor, double factor);
    void panBy(int64_t deltaNs);
    // Centres t, keeping the window's width.
    void centreOn(int64_t t);
    void reset();

signals:
    void windowChanged();

private:
    int64_t margin() const { return (traceEnd_ - traceStart_) / 50 + 1; }
    int64_t traceStart_ = 0, traceEnd_ = 1;
    int64_t start_ = 0, end_ = 1;
};
