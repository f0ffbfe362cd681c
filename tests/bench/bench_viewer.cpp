// bench_viewer --viewer PATH --cli PATH [--sizes 40,200,1000] [--shapes kineto,deep] [--gzip]
//              [--runs 3] [--dir DIR] [--repeats 15] [--interact-mb 1000] [--paint-events N]
//              [--skip-open] [--skip-interact] [--skip-paint]
//              [--interact-trace PATH [--interact-kernel-info PATH]]
//
// The viewer against stackline-cli on the same generated traces, on this machine, in one run:
//  1. Open: for each shape and size (and the largest's `gzip -1` file with --gzip), `stackline-cli
//     annotate` and `stackline --timings` take turns --runs times; the medians of the CLI's wall
//     time, of the viewer's first frame of the whole timeline and of its panels all filled, each
//     stamped here from the fork.
//  2. Interactions: the real main window, offscreen in this process, on the kineto trace of
//     --interact-mb (or the trace given by --interact-trace: tests/bench/bench_memory.sh runs this
//     inside a memory cgroup): select a slice, scroll (along time and across tracks), switch to
//     every tab, sort a table, a filter keystroke, highlight a hotspot's kernels, search next,
//     and a zoom; each repeated with a different target, timed from the input event to the frame
//     that shows its final result; then one export of the annotated trace.
//  3. Repaint of a synthetic trace of --paint-events events (10M) at several zooms: the window
//     set, then the event loop paints.
// It prints the figures and the targets beside them; it asserts nothing.
#include <QAbstractItemView>
#include <QApplication>
#include <QHeaderView>
#include <QLineEdit>
#include <QScrollBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QThread>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_process.h"
#include "io/memory_budget.h"
#include "panels/hotspots_panel.h"
#include "panels/kernels_panel.h"
#include "panels/table_panel.h"
#include "panels/unresolved_panel.h"
#include "shell/main_window.h"
#include "shell/search_controller.h"
#include "state/viewed_trace.h"
#include "state/viewer_state.h"
#include "state/zoom_control.h"
#include "synthetic_trace.h"
#include "timeline/timeline_view.h"
#include "trace_generator.h"

namespace fs = std::filesystem;
using namespace stackline::bench;
using Clock = std::chrono::steady_clock;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr uint32_t kSeed = 1;

struct Options {
    std::string viewer, cli, dir;
    std::vector<double> sizesMb{40, 200, 1000};
    std::vector<TraceShape> shapes{TraceShape::kKineto, TraceShape::kDeepStacks};
    bool gzip = false, open = true, interact = true;
    int runs = 3, repeats = 15;
    double interactMb = 1000;
    std::string interactTrace, interactKernelInfo;  // instead of a generated trace
    bool paint = true;
    uint64_t paintEvents = 10'000'000;
};

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

const char* shapeName(TraceShape s) {
    return s == TraceShape::kKineto ? "kineto" : "deep";
}

const char* verdict(bool met) {
    return met ? "met" : "MISSED";
}

// ---- 1. Open ----

struct OpenResult {
    std::string shape, input;
    double mb = 0;
    uint64_t events = 0;
    double cli = 0, firstFrame = 0, panels = 0, viewerRssMb = 0, cliRssMb = 0;
};

OpenResult measureOpen(const Options& opt, const std::string& trace, const std::string& kinfo,
                       const std::string& out) {
    std::vector<double> cli, first, panels, cliRss, viewerRss;
    const std::vector<std::string> offscreen = {"QT_QPA_PLATFORM=offscreen"};
    for (int i = 0; i < opt.runs; ++i) {
        fs::remove(out);
        const Proc c = runChecked({opt.cli, "annotate", trace, "--kernel-info", kinfo, "-o", out},
                                  "/dev/null", out + ".err");
        cli.push_back(c.seconds);
        cliRss.push_back(c.peakRssMb);
        fs::remove(out);
        const StampedRun v =
            runStamped({opt.viewer, trace, "--kernel-info", kinfo, "--timings"}, offscreen);
        if (!v.stamps.count("first-frame") || !v.stamps.count("panels"))
            throw std::runtime_error("the viewer printed no timings:\n" + v.stderrText);
        first.push_back(v.stamps.at("first-frame"));
        panels.push_back(v.stamps.at("panels"));
        viewerRss.push_back(v.proc.peakRssMb);
    }
    fs::remove(out);
    fs::remove(out + ".err");
    OpenResult r;
    r.cli = median(cli);
    r.firstFrame = median(first);
    r.panels = median(panels);
    r.cliRssMb = median(cliRss);
    r.viewerRssMb = median(viewerRss);
    return r;
}

void printOpenHeader() {
    std::printf("%-7s %-5s %8s %9s %7s %9s %7s %8s %7s %8s %9s\n", "shape", "input", "size MB",
                "events", "cli s", "frame s", "x cli", "panels s", "x cli", "cli MB", "viewer MB");
}

void printOpen(const OpenResult& r) {
    std::printf("%-7s %-5s %8.1f %9llu %7.3f %9.3f %7.2f %8.3f %7.2f %8.0f %9.0f\n",
                r.shape.c_str(), r.input.c_str(), r.mb, (unsigned long long)r.events, r.cli,
                r.firstFrame, r.firstFrame / r.cli, r.panels, r.panels / r.cli, r.cliRssMb,
                r.viewerRssMb);
    std::fflush(stdout);
}

std::vector<OpenResult> benchOpen(const Options& opt) {
    std::vector<OpenResult> results;
    const std::string out = opt.dir + "/annotated.json";
    std::printf("\n1. Open: medians of %d alternating runs; seconds from the fork\n", opt.runs);
    printOpenHeader();
    for (const TraceShape shape : opt.shapes) {
        for (const double sizeMb : opt.sizesMb) {
            const GeneratedTrace g =
                generateTrace(opt.dir, uint64_t(sizeMb * kMiB), kSeed, true, shape);
            OpenResult r = measureOpen(opt, g.tracePath, g.kernelInfoPath, out);
            r.shape = shapeName(shape);
            r.input = "json";
            r.mb = double(g.bytes) / kMiB;
            r.events = g.events;
            printOpen(results.emplace_back(r));
            if (opt.gzip && sizeMb == opt.sizesMb.back()) {
                const std::string gz = g.tracePath + ".gz";
                runChecked({"gzip", "-1", "-k", "-f", g.tracePath}, "/dev/null", out + ".err");
                OpenResult z = measureOpen(opt, gz, g.kernelInfoPath, out);
                z.shape = r.shape;
                z.input = "gz";
                z.mb = r.mb;
                z.events = r.events;
                printOpen(results.emplace_back(z));
                fs::remove(gz);
            }
            fs::remove(g.tracePath);  // bounded disk use
            fs::remove(g.kernelInfoPath);
        }
    }
    return results;
}

// ---- 2. Interactions ----

// Runs the event loop until nothing is left to do (finished() says when a result that comes later,
// a debounced filter or a background job, is in), then until the frame is painted: widgets post
// their update requests, which this processing paints.
double frame(const std::function<void()>& input, const std::function<bool()>& finished = {}) {
    const auto t0 = Clock::now();
    input();
    for (;;) {
        QCoreApplication::processEvents(QEventLoop::AllEvents);
        if (!finished || finished() || msSince(t0) > 10000) break;
        QThread::usleep(100);
    }
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents(QEventLoop::AllEvents);
    return msSince(t0);
}

struct Interaction {
    const char* name;
    std::vector<double> ms;
    int missed = 0;  // repeats whose input found no target
};

void printInteraction(const Interaction& i) {
    std::vector<double> v = i.ms;
    std::sort(v.begin(), v.end());
    const double p90 = v.empty() ? 0 : v[std::min(v.size() - 1, v.size() * 9 / 10)];
    const double worst = v.empty() ? 0 : v.back();
    std::printf("%-32s %6zu %9.1f %9.1f %9.1f   %s%s\n", i.name, v.size(), median(v), p90, worst,
                verdict(!v.empty() && p90 <= 50),
                i.missed ? (" (" + std::to_string(i.missed) + " missed)").c_str() : "");
    std::fflush(stdout);
}

void settle() {
    for (int i = 0; i < 3; ++i) {
        QCoreApplication::processEvents(QEventLoop::AllEvents);
        QCoreApplication::sendPostedEvents();
    }
}

void clickTab(MainWindow& w, int index) {
    QTabBar* bar = w.tabs()->tabBar();
    QTest::mouseClick(bar, Qt::LeftButton, {}, bar->tabRect(index).center());
}

std::vector<Interaction> benchInteractions(const Options& opt, const std::string& trace,
                                           const std::string& kinfo) {
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    bool loaded = false;
    QString failure;
    QObject::connect(&w, &MainWindow::documentLoaded, [&] { loaded = true; });
    QObject::connect(&w, &MainWindow::loadFailed, [&](const QString& message) {
        failure = message.isEmpty() ? QStringLiteral("failed") : message;
    });
    w.openTrace(QString::fromStdString(trace), QString::fromStdString(kinfo));
    while (!loaded && failure.isEmpty()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        QThread::msleep(5);
    }
    if (!failure.isEmpty())
        throw std::runtime_error("cannot open " + trace + ": " + failure.toStdString());
    settle();
    const ViewedTrace& doc = *w.document();
    std::mt19937 rng(kSeed);
    std::vector<Interaction> out;
    const int n = opt.repeats;

    // Select a slice: a different kernel each time, scrolled into view (not timed), then clicked.
    {
        std::vector<uint32_t> kernels;
        for (uint32_t row = 0; row < doc.events().size(); ++row)
            if (doc.isKernel(row)) kernels.push_back(row);
        Interaction& i = out.emplace_back(Interaction{"select a slice", {}, 0});
        TimelineView* tl = w.timeline();
        for (int k = 0; k < n && !kernels.empty(); ++k) {
            const uint32_t row = kernels[rng() % kernels.size()];
            const int64_t ts = doc.events().tsNs(row);
            w.state()->zoom()->setWindow(ts - 20'000, ts + 20'000);
            tl->revealEvent(row);
            settle();
            const QRect r = tl->eventRect(row);
            if (!r.isValid()) {
                ++i.missed;
                continue;
            }
            i.ms.push_back(
                frame([&] { QTest::mouseClick(tl->viewport(), Qt::LeftButton, {}, r.center()); }));
            if (w.state()->selectedRow(&doc) != row) ++i.missed;
        }
        printInteraction(i);
    }
    // Scroll: along time (a horizontal wheel or drag pans a tenth of a millisecond window by a
    // third of it), then the tracks up or down when they do not fit.
    {
        Interaction& i = out.emplace_back(Interaction{"scroll", {}, 0});
        ZoomControl* zoom = w.state()->zoom();
        const int64_t start = zoom->traceStart(), length = zoom->traceEnd() - start;
        zoom->setWindow(start + length / 3, start + length / 3 + 100'000);
        settle();
        QScrollBar* bar = w.timeline()->verticalScrollBar();
        for (int k = 0; k < n; ++k) {
            if (k % 2 == 1 && bar->maximum() > 0) {
                const int to = int(rng() % uint32_t(bar->maximum() + 1));
                i.ms.push_back(frame([&] { bar->setValue(to == bar->value() ? 0 : to); }));
            } else {
                i.ms.push_back(frame([&] { zoom->panBy(zoom->windowDuration() / 3); }));
            }
        }
        printInteraction(i);
    }
    // Switch a tab: each visible tab in turn, every one at least once.
    {
        Interaction& i = out.emplace_back(Interaction{"switch a tab", {}, 0});
        std::vector<int> visible;
        for (int t = 0; t < w.tabs()->count(); ++t)
            if (w.tabs()->isTabVisible(t)) visible.push_back(t);
        for (int k = 0; k < std::max(n, int(visible.size())); ++k) {
            const int t = visible[size_t(k + 1) % visible.size()];
            i.ms.push_back(frame([&] { clickTab(w, t); }));
        }
        printInteraction(i);
    }
    // Sort a table: the Kernels table by each column in turn, both ways.
    {
        Interaction& i = out.emplace_back(Interaction{"sort a table (Kernels)", {}, 0});
        w.showTab(QStringLiteral("kernels"));
        settle();
        QHeaderView* header = w.panel<KernelsPanel>()->view()->horizontalHeader();
        for (int k = 0; k < n; ++k) {
            const int column = k % header->count();
            const QPoint at(
                header->sectionViewportPosition(column) + header->sectionSize(column) / 2,
                header->height() / 2);
            i.ms.push_back(
                frame([&] { QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, at); }));
        }
        printInteraction(i);
    }
    // A filter keystroke in the Unresolved table (its longest), until the table shows the result.
    {
        Interaction& i = out.emplace_back(Interaction{"filter keystroke (Unresolved)", {}, 0});
        w.showTab(QStringLiteral("unresolved"));
        settle();
        TablePanel* table = w.panel<UnresolvedPanel>();
        int applied = 0;
        const QMetaObject::Connection c =
            QObject::connect(table, &TablePanel::filterApplied, [&] { ++applied; });
        // Into the field first, as a user clicks (not timed).
        QTest::mouseClick(table->filter(), Qt::LeftButton);
        settle();
        const std::string typed = "triton_poi_fused";
        for (int k = 0; k < n; ++k) {
            if (k % int(typed.size()) == 0) {
                table->filter()->clear();
                table->applyFilter();
                settle();
            }
            const int before = applied;
            const char key = typed[size_t(k) % typed.size()];
            i.ms.push_back(frame([&] { QTest::keyClick(table->filter(), key); },
                                 [&] { return applied > before; }));
        }
        QObject::disconnect(c);
        table->filter()->clear();
        table->applyFilter();
        printInteraction(i);
    }
    // Highlight a hotspot's kernels: a different line each time.
    {
        Interaction& i = out.emplace_back(Interaction{"highlight a hotspot's kernels", {}, 0});
        w.showTab(QStringLiteral("hotspots"));
        settle();
        QTableView* view = w.panel<HotspotsPanel>()->table()->view();
        const int rows = view->model()->rowCount();
        std::printf("  (%d lines in the Hotspots table)\n", rows);
        for (int k = 0; k < n && rows > 1; ++k) {
            const QModelIndex index = view->model()->index(k % rows, 0);
            view->scrollTo(index);
            settle();
            const QPoint at = view->visualRect(index).center();
            i.ms.push_back(
                frame([&] { QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at); }));
            const int shown = view->currentIndex().row();
            if (w.state()->highlighted().empty() || shown != k % rows) ++i.missed;
        }
        printInteraction(i);
    }
    // Search next: Enter in the search field goes to the next match each time.
    {
        Interaction& i = out.emplace_back(Interaction{"search next", {}, 0});
        QLineEdit* field = w.search()->field();
        field->setText(QStringLiteral("triton_poi"));
        settle();
        for (int k = 0; k < n; ++k) {
            const EventRef before = w.state()->selected();
            i.ms.push_back(frame([&] { QTest::keyClick(field, Qt::Key_Return); }));
            if (w.state()->selected() == before) ++i.missed;
        }
        printInteraction(i);
    }
    // Zoom: from the whole trace down to 10 us, at random places; the window changes (as a wheel
    // or a key does) and the event loop paints.
    {
        Interaction& i = out.emplace_back(Interaction{"zoom, repainted", {}, 0});
        ZoomControl* zoom = w.state()->zoom();
        const int64_t start = zoom->traceStart(), length = zoom->traceEnd() - start;
        for (int k = 0; k < n; ++k) {
            const int64_t span = std::max<int64_t>(10'000, length >> (k % 16));
            const int64_t at =
                start + k + int64_t(rng() % uint64_t(std::max<int64_t>(1, length - span)));
            i.ms.push_back(frame([&] { zoom->setWindow(at, at + span); }));
        }
        printInteraction(i);
    }
    // Export the annotated trace (File > Export), until the job reports.
    {
        const QString path = QString::fromStdString(opt.dir + "/bench_viewer_export.json");
        bool done = false, ok = false;
        QString message;
        const QMetaObject::Connection c = QObject::connect(&w, &MainWindow::exportFinished,
                                                           [&](bool success, const QString& text) {
                                                               done = true;
                                                               ok = success;
                                                               message = text;
                                                           });
        const auto t0 = Clock::now();
        w.exportTo(path);
        while (!done) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
            QThread::msleep(2);
        }
        QObject::disconnect(c);
        std::printf("%-32s %6d %9.1f   %s\n", "export (annotated .json)", 1, msSince(t0),
                    ok ? "written" : ("FAILED: " + message.toStdString()).c_str());
        fs::remove(path.toStdString());
        if (!ok) throw std::runtime_error("export failed: " + message.toStdString());
    }
    return out;
}

// ---- 3. Repaint at 10M events ----

void benchPaint(const Options& opt) {
    const auto t0 = Clock::now();
    std::shared_ptr<ViewedTrace> doc = syntheticDocument(opt.paintEvents, 42, true);
    std::printf("\n3. Repaint of a synthetic trace of %u events (built in %.0f ms), 1600x900\n",
                doc->events().size(), msSince(t0));
    ViewerState state;
    TimelineView view(&state);
    view.resize(1600, 900);
    view.show();
    state.setDocument(doc);
    settle();
    ZoomControl& zoom = *state.zoom();
    const int64_t start = zoom.traceStart(), length = zoom.traceEnd() - start;
    // The first frame and the first zoom after it (~30 ms once: caches made on first use) are not
    // what a repaint costs.
    view.viewport()->repaint();
    frame([&] { zoom.setWindow(start, start + length / 2); });
    std::printf("%-12s %9s %9s\n", "window", "median ms", "max ms");
    bool met = true;
    for (int64_t span = length; span >= 1000; span /= 10) {
        std::vector<double> ms;
        for (int k = 0; k < 5; ++k) {
            // Another window each time (k ns narrower), so that no repaint reuses the last.
            const int64_t width = span - k, at = start + (length - width) / 5 * k;
            ms.push_back(frame([&] { zoom.setWindow(at, at + width); }));
        }
        const double worst = *std::max_element(ms.begin(), ms.end());
        met = met && worst <= 16;
        std::printf("%9.3f ms %9.1f %9.1f\n", double(span) / 1e6, median(ms), worst);
    }
    std::printf("target: every repaint <= 16 ms at %u events: %s\n", doc->events().size(),
                verdict(met));
}

void usage() {
    std::fprintf(stderr,
                 "usage: bench_viewer --viewer PATH --cli PATH [--sizes 40,200,1000] "
                 "[--shapes kineto,deep] [--gzip] [--runs 3] [--dir DIR] [--repeats 15] "
                 "[--interact-mb 1000] [--paint-events N] [--skip-open] [--skip-interact] "
                 "[--skip-paint] [--interact-trace PATH [--interact-kernel-info PATH]]\n");
    std::exit(2);
}

std::vector<std::string> split(const std::string& list) {
    std::vector<std::string> items;
    std::stringstream in(list);
    for (std::string item; std::getline(in, item, ',');) items.push_back(item);
    return items;
}

Options parseOptions(const QStringList& arguments) {
    Options opt;
    std::vector<std::string> args;
    for (const QString& a : arguments) args.push_back(a.toStdString());
    for (size_t i = 1; i < args.size(); ++i) {
        const std::string& arg = args[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= args.size()) usage();
            return args[++i];
        };
        auto number = [&] {
            char* end = nullptr;
            const std::string v = value();
            const double d = std::strtod(v.c_str(), &end);
            if (*end != '\0' || !(d > 0)) usage();
            return d;
        };
        if (arg == "--viewer") {
            opt.viewer = fs::absolute(value());
        } else if (arg == "--cli") {
            opt.cli = fs::absolute(value());
        } else if (arg == "--dir") {
            opt.dir = value();
        } else if (arg == "--sizes") {
            opt.sizesMb.clear();
            std::vector<std::string> items = split(value());
            for (const std::string& s : items) {
                char* end = nullptr;
                const double mb = std::strtod(s.c_str(), &end);
                if (*end != '\0' || !(mb > 0)) usage();
                opt.sizesMb.push_back(mb);
            }
        } else if (arg == "--shapes") {
            opt.shapes.clear();
            for (const std::string& s : split(value())) {
                const auto shape = traceShapeNamed(s);
                if (!shape) usage();
                opt.shapes.push_back(*shape);
            }
        } else if (arg == "--gzip") {
            opt.gzip = true;
        } else if (arg == "--runs") {
            opt.runs = int(number());
        } else if (arg == "--repeats") {
            opt.repeats = int(number());
        } else if (arg == "--interact-mb") {
            opt.interactMb = number();
        } else if (arg == "--paint-events") {
            opt.paintEvents = uint64_t(number());
        } else if (arg == "--skip-open") {
            opt.open = false;
        } else if (arg == "--skip-interact") {
            opt.interact = false;
        } else if (arg == "--skip-paint") {
            opt.paint = false;
        } else if (arg == "--interact-trace") {
            opt.interactTrace = fs::absolute(value());
        } else if (arg == "--interact-kernel-info") {
            opt.interactKernelInfo = fs::absolute(value());
        } else {
            usage();
        }
    }
    if ((opt.open && (opt.viewer.empty() || opt.cli.empty())) || opt.sizesMb.empty() ||
        opt.shapes.empty())
        usage();
    return opt;
}

int run(Options opt) {
    bool ownDir = false;
    if (opt.dir.empty()) {
        const char* tmp = std::getenv("TMPDIR");
        std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/stackline-bench-XXXXXX";
        if (!mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed");
        opt.dir = templ;
        ownDir = true;
    }
    fs::create_directories(opt.dir);
    std::printf("Stackline viewer benchmark: %s against %s, files in %s, %u cores\n",
                opt.viewer.c_str(), opt.cli.c_str(), opt.dir.c_str(), QThread::idealThreadCount());
    std::vector<OpenResult> opened;
    if (opt.open) opened = benchOpen(opt);
    if (opt.interact) {
        GeneratedTrace g;
        if (opt.interactTrace.empty()) {
            g = generateTrace(opt.dir, uint64_t(opt.interactMb * kMiB), kSeed, true,
                              TraceShape::kKineto);
        } else {
            g.tracePath = opt.interactTrace;
            g.kernelInfoPath = opt.interactKernelInfo;
            g.bytes = fs::file_size(g.tracePath);
        }
        std::printf(
            "\n2. Interactions in the main window on %s (%.0f MB): ms from the input "
            "event to its frame, %d targets each\n",
            g.tracePath.c_str(), double(g.bytes) / kMiB, opt.repeats);
        std::printf("%-32s %6s %9s %9s %9s   %s\n", "interaction", "runs", "median", "p90", "max",
                    "p90 <= 50 ms");
        benchInteractions(opt, g.tracePath, g.kernelInfoPath);
        if (opt.interactTrace.empty()) {
            fs::remove(g.tracePath);
            fs::remove(g.kernelInfoPath);
        }
    }
    if (opt.paint) benchPaint(opt);
    if (!opened.empty()) {
        std::printf("\ntargets (open)\n");
        for (const OpenResult& r : opened) {
            if (r.mb < 900) continue;
            std::printf(
                "  %s %s %.0f MB: first frame <= 1.2x cli: %.2fx %s; panels <= 1.5x cli: "
                "%.2fx %s\n",
                r.shape.c_str(), r.input.c_str(), r.mb, r.firstFrame / r.cli,
                verdict(r.firstFrame <= 1.2 * r.cli), r.panels / r.cli,
                verdict(r.panels <= 1.5 * r.cli));
        }
        std::printf("  growth (first frame, seconds per GB):");
        for (const OpenResult& r : opened)
            if (r.input == "json")
                std::printf(" %s %.0f MB: %.2f;", r.shape.c_str(), r.mb,
                            r.firstFrame / r.mb * 1024);
        std::printf("\n");
    }
    if (ownDir) fs::remove_all(opt.dir);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    stackline::returnFreedBlocksPromptly();  // as the viewer does
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const Options opt = parseOptions(QCoreApplication::arguments());
    try {
        return run(opt);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_viewer: %s\n", e.what());
        return 1;
    }
}
