// bench_job_view MERGED.json: the job view's figures on a merged steps result (the 1,024-rank job
// of tests/bench/bench_job_steps.sh): the time to open it (read, check, model, window shown and
// painted), then the slowest of each interaction: a metric switch, a rank filter, a tooltip, a
// repaint of the heat map, each with its repaint (grab(): a paint whatever the platform exposes).
// Targets: open <= 5 s, every interaction <= 50 ms.
#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QHelpEvent>
#include <QToolTip>
#include <algorithm>
#include <cstdio>
#include <functional>

#include "panels/job_heat_map_view.h"
#include "shell/job_window.h"

using namespace stackline;

namespace {

// The slowest of `runs` runs of what, in ms.
double slowest(int runs, const std::function<void(int)>& what) {
    double worst = 0;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer t;
        t.start();
        what(i);
        worst = std::max(worst, double(t.nsecsElapsed()) / 1e6);
    }
    return worst;
}

bool report(const char* what, double ms, double targetMs) {
    std::printf("%-34s %9.1f ms  (target %g ms)%s\n", what, ms, targetMs,
                ms <= targetMs ? "" : "  OVER TARGET");
    return ms <= targetMs;
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    if (argc != 2) {
        std::fprintf(stderr, "usage: bench_job_view MERGED.json\n");
        return 2;
    }
    QElapsedTimer opening;
    opening.start();
    QString error;
    JobWindow* window = JobWindow::open(QString::fromLocal8Bit(argv[1]), &error);
    if (!window) {
        std::fprintf(stderr, "bench_job_view: %s\n", qPrintable(error));
        return 2;
    }
    window->resize(1600, 1000);
    window->show();
    window->grab();
    const double openMs = double(opening.nsecsElapsed()) / 1e6;
    JobHeatMapView* map = window->heatMap();
    std::printf("%zu ranks, %zu steps; %zu ranks in %zu rows of pixels\n",
                window->map().rankCount(), window->map().stepCount(), map->rows().size(),
                map->bandCount());

    const double metric = slowest(2 * int(kJobMetricCount), [&](int i) {
        window->metricBox()->setCurrentIndex((i + 1) % int(kJobMetricCount));
        map->grab();
    });
    const QString filters[] = {QStringLiteral("0-7, 512"), QStringLiteral("100-900"),
                               QStringLiteral("5"), QString()};
    const double filter = slowest(8, [&](int i) {
        window->setRankFilter(filters[i % 4]);
        map->grab();
    });
    const QRect area = map->rect();
    const double tooltip = slowest(200, [&](int i) {
        const QPoint pos(area.width() * (i % 20) / 20 + 80, area.height() * (i / 20) / 10 + 22);
        QHelpEvent help(QEvent::ToolTip, pos, map->mapToGlobal(pos));
        QApplication::sendEvent(map, &help);
    });
    QToolTip::hideText();
    const double repaint = slowest(20, [&](int) { map->grab(); });

    bool ok = report("open (read, model, window painted)", openMs, 5000);
    ok &= report("metric switch + repaint", metric, 50);
    ok &= report("rank filter + repaint", filter, 50);
    ok &= report("hover tooltip", tooltip, 50);
    ok &= report("heat map repaint", repaint, 50);
    std::printf("%s\n", ok ? "every figure within its target" : "some figure over its target");
    delete window;
    return 0;
}
