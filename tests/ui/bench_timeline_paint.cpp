// bench_timeline_paint [EVENTS [PNG]]: builds a synthetic torch.compile trace of EVENTS events
// (default 5,000,000; see synthetic_trace.h), then repaints the timeline into a 1600x900 QImage at
// several zoom levels and prints the milliseconds per repaint (PNG: the whole-trace repaint).
#include <QApplication>
#include <QImage>
#include <QPainter>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>

#include "state/viewed_trace.h"
#include "state/viewer_state.h"
#include "state/zoom_control.h"
#include "synthetic_trace.h"
#include "timeline/timeline_view.h"
#include "timeline/track_model.h"

using namespace stackline;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// CPU time of this thread: on a shared machine, wall time also counts the time others ran.
double threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const uint64_t events = argc > 1 ? std::stoull(argv[1]) : 5'000'000;

    auto t0 = Clock::now();
    std::shared_ptr<ViewedTrace> doc = syntheticDocument(events, 42, false);
    std::printf("synthesized %u events in %.0f ms\n", doc->events().size(), msSince(t0));
    t0 = Clock::now();
    doc->tracks = TrackIndex::build(doc->events(), {}, 0);
    std::printf("track index: %zu tracks, %llu slices in %.0f ms\n", doc->tracks.tracks().size(),
                (unsigned long long)doc->tracks.sliceCount(), msSince(t0));
    t0 = Clock::now();
    doc->flows = FlowIndex::build(doc->events(), doc->tracks);
    ViewerState state;
    ZoomControl& zoom = *state.zoom();
    TimelineView view(&state);
    view.resize(1600, 900);
    state.setDocument(doc);  // the view builds its track model
    std::printf("track model (styles, highlights): %.0f ms\n", msSince(t0));
    const QSize size(1600, 900);
    QImage image(size, QImage::Format_RGB32);

    const int64_t full = doc->tracks.endNs() - doc->tracks.startNs();
    const int64_t mid = doc->tracks.startNs() + full / 2;
    std::printf("\n%-12s %10s | %22s | %22s\n", "window", "slices/px", "wall ms: median   min",
                "CPU ms: median   min");
    double worst = 0;
    for (int64_t window :
         {full, full / 10, full / 100, full / 1000, full / 10000, int64_t(50'000)}) {
        if (window < ZoomControl::kMinWindowNs) continue;
        if (window == full)
            zoom.reset();
        else
            zoom.setWindow(mid - window / 2, mid + window / 2);
        std::vector<double> wall, cpu;
        for (int i = 0; i < 12; ++i) {
            QPainter p(&image);
            const auto s = Clock::now();
            const double c = threadCpuMs();
            view.renderTracks(p, size);
            cpu.push_back(threadCpuMs() - c);
            wall.push_back(msSince(s));
        }
        for (auto* v : {&wall, &cpu}) {
            v->erase(v->begin(), v->begin() + 2);  // warm-up
            std::sort(v->begin(), v->end());
        }
        worst = std::max(worst, cpu[cpu.size() / 2]);
        if (window == full && argc > 2) image.save(QString::fromLocal8Bit(argv[2]));
        const double perPx = double(events) * double(zoom.windowDuration()) / double(full) /
                             double(size.width() - TimelineGeometry::kGutterWidth);
        std::printf("%-12s %10.1f | %14.2f %7.2f | %14.2f %7.2f\n",
                    formatDuration(zoom.windowDuration()).toUtf8().constData(), perPx,
                    wall[wall.size() / 2], wall.front(), cpu[cpu.size() / 2], cpu.front());
    }
    std::printf("\nworst median repaint (CPU): %.2f ms (budget 16 ms)\n", worst);
    return 0;
}
