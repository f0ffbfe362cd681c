// stackline: the desktop viewer.
//   stackline [TRACE...|JOB] [--kernel-info KINFO] [--compare NEW_TRACE] [--select NAME_OR_UID]
//             [--tab TAB] [--hotspot N] [--range START_US:END_US] [--marker US]... [--show-flows]
//             [--screenshot PNG [--window-size WxH]] [--timings]
// Without TRACE it opens the bundled example (extracted to a temporary folder for the session,
// with its recorded source folder /home/alice/proj mapped there) with its TORCH_TRACE log as
// kernel information unless --kernel-info names other: the log holds the generated code too.
// Several traces, or a folder (its traces), open together in one window, one group per trace
// ordered by rank on one time axis (the ranks of a job); with --separate-windows, the first here
// and one more stackline per other trace. The options apply to the first trace by rank, the one
// the panels show. --compare opens NEW_TRACE beside the one TRACE as File → Compare With… does
// (TRACE the base run) before the other options apply. With --screenshot it loads the trace,
// selects and centres the event, renders the whole window (1600x1000 unless --window-size) to PNG
// and exits (0 on success, 2 when the trace cannot be loaded or the event is not found). With
// --timings it prints when the trace's first frame was painted and when every panel was filled,
// in seconds from the start of the process, then exits (tests/bench/bench_viewer reads them).
// A single steps result (stackline-cli steps or merge --json) opens the job view instead, with no
// trace loaded; --screenshot and --timings (job-shown=) work for it, the trace options do not.
#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <utility>

#include "analysis/range_option.h"
#include "analysis/step_results.h"
#include "annotate/diagnostic.h"
#include "import/trace_formats.h"
#include "io/memory_budget.h"
#include "io/trace_bytes.h"
#include "panels/diff_panel.h"
#include "panels/hotspots_panel.h"
#include "panels/panel_table.h"
#include "shell/job_window.h"
#include "shell/main_window.h"
#include "shell/search_controller.h"
#include "state/path_map.h"
#include "state/startup_request.h"
#include "state/viewer_state.h"
#include "timeline/timeline_view.h"

namespace {

// The folder the example's stacks name (resources/example/README.md).
const QString kExampleRecordedFolder = QStringLiteral("/home/alice/proj");

// Copies the bundled example into dir; the trace's path, or empty on failure.
QString extractExample(const QString& dir) {
    const char* files[] = {"example.pt.trace.json", "example.pt.trace.kernel_info.json",
                           "example.torch_trace.log", "model.py"};
    for (const char* name : files) {
        const QString from = QStringLiteral(":/example/") + QLatin1String(name);
        const QString to = QDir(dir).filePath(QLatin1String(name));
        if (!QFile::copy(from, to)) return {};
        QFile::setPermissions(
            to, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
    }
    return QDir(dir).filePath(QStringLiteral("example.pt.trace.json"));
}

}  // namespace

int main(int argc, char** argv) {
    const auto started = std::chrono::steady_clock::now();
    stackline::returnFreedBlocksPromptly();
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Stackline"));
    QApplication::setApplicationName(QStringLiteral("stackline"));
    QApplication::setApplicationVersion(QStringLiteral(STACKLINE_VERSION));
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.stackline.Stackline"));

    QCommandLineParser cli;
    cli.setApplicationDescription(
        QStringLiteral("See which line of your PyTorch model launched each GPU kernel.\n"
                       "Without TRACE, opens the bundled example."));
    cli.addHelpOption();
    cli.addVersionOption();
    cli.addPositionalArgument(
        QStringLiteral("TRACE"),
        QStringLiteral("Traces, or folders of them, to open together in one window; or one JOB, "
                       "a stackline-cli steps or merge --json result, for the job view. "
                       "Formats:\n") +
            QString::fromStdString(stackline::traceFormatsHelp("  ")).trimmed(),
        QStringLiteral("[TRACE...|JOB]"));
    const QCommandLineOption kernelInfo(
        QStringLiteral("kernel-info"),
        QStringLiteral("Kernel information (JSON); default: the one beside the trace."),
        QStringLiteral("KINFO"));
    const QCommandLineOption compare(
        QStringLiteral("compare"),
        QStringLiteral("Compare TRACE (the base run) with this trace (the new run), as File → "
                       "Compare With… does; its kernel information is the one beside it."),
        QStringLiteral("NEW_TRACE"));
    const QCommandLineOption select(QStringLiteral("select"),
                                    QStringLiteral("Select the first slice named NAME, or uid."),
                                    QStringLiteral("NAME_OR_UID"));
    const QCommandLineOption tab(QStringLiteral("tab"),
                                 QStringLiteral("Show this tab: %1.").arg(panelIdsText()),
                                 QStringLiteral("TAB"));
    const QCommandLineOption hotspot(
        QStringLiteral("hotspot"),
        QStringLiteral("Select the N-th source line (1: the top one) of the Hotspots tab."),
        QStringLiteral("N"));
    const QCommandLineOption range(
        QStringLiteral("range"),
        QStringLiteral("Select this time range over every track and zoom to it: microseconds "
                       "(up to 3 decimals) from the trace's origin, the zero of the ruler and of "
                       "stackline-cli summary --range."),
        QStringLiteral("START_US:END_US"));
    const QCommandLineOption marker(
        QStringLiteral("marker"),
        QStringLiteral("Drop a marker at this time (microseconds from the origin); repeatable."),
        QStringLiteral("US"));
    const QCommandLineOption separate(
        QStringLiteral("separate-windows"),
        QStringLiteral("Open each TRACE in a window of its own (no other option then)."));
    const QCommandLineOption showFlows(QStringLiteral("show-flows"),
                                       QStringLiteral("Turn on View → Show All Flows in View."));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Render the window to PNG once loaded, then exit."), QStringLiteral("PNG"));
    const QCommandLineOption windowSize(
        QStringLiteral("window-size"),
        QStringLiteral("The window's size for --screenshot (default 1600x1000)."),
        QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    const QCommandLineOption timings(
        QStringLiteral("timings"),
        QStringLiteral("Print the seconds from start to the trace's first frame and to every "
                       "panel filled (for a JOB: to the job view shown, job-shown=), then "
                       "quit."));
    cli.addOptions({kernelInfo, compare, select, tab, hotspot, range, marker, showFlows, screenshot,
                    windowSize, separate, timings});
    cli.process(app);

    // Paths made absolute, but "-": standard input, read (copied to a scratch file) as the window
    // loads it.
    const auto absolute = [](const QString& path) {
        return path.toStdString() == stackline::kStandardInput ? path
                                                               : QFileInfo(path).absoluteFilePath();
    };
    QStringList args;
    for (const QString& arg : cli.positionalArguments()) {
        if (arg.toStdString() == stackline::kStandardInput)
            args << arg;
        else if (QFileInfo(arg).isDir())
            args << MainWindow::tracesInFolder(arg);
        else
            args << QFileInfo(arg).absoluteFilePath();
    }
    if (args.isEmpty() && !cli.positionalArguments().isEmpty()) {
        std::fprintf(stderr, "stackline: no trace (%s) in %s\n",
                     stackline::traceFilePatternsText().c_str(),
                     qPrintable(cli.positionalArguments().join(QLatin1Char(' '))));
        return 2;
    }
    const QString png = cli.value(screenshot);
    if (cli.isSet(compare) && args.size() != 1) {
        std::fprintf(stderr, "stackline: --compare compares one TRACE with NEW_TRACE\n");
        return 2;
    }
    if (cli.isSet(separate) && args.size() > 1) {
        for (const QCommandLineOption* o : {&kernelInfo, &compare, &select, &tab, &hotspot, &range,
                                            &marker, &showFlows, &screenshot, &windowSize})
            if (cli.isSet(*o)) {
                std::fprintf(stderr, "stackline: --%s does not work with --separate-windows\n",
                             qPrintable(o->names().constFirst()));
                return 2;
            }
        for (qsizetype i = 1; i < args.size(); ++i)
            if (!QProcess::startDetached(QCoreApplication::applicationFilePath(), {args[i]}))
                std::fprintf(stderr, "stackline: cannot start a window for %s\n",
                             qPrintable(args[i]));
    }
    const QStringList size = cli.value(windowSize).split(QLatin1Char('x'));
    const int width = size.value(0).toInt(), height = size.value(1).toInt();
    if (size.size() != 2 || width <= 0 || height <= 0) {
        std::fprintf(stderr, "stackline: --window-size wants WIDTHxHEIGHT, e.g. 800x1000\n");
        return 2;
    }
    // A steps result (stackline-cli steps or merge --json): the job view alone, no trace loaded.
    if (args.size() == 1 &&
        stackline::isStepsResultFile(QFile::encodeName(args[0]).toStdString())) {
        for (const QCommandLineOption* o : {&kernelInfo, &compare, &select, &tab, &hotspot, &range,
                                            &marker, &showFlows, &separate})
            if (cli.isSet(*o)) {
                std::fprintf(stderr, "stackline: --%s does not apply to a job (%s)\n",
                             qPrintable(o->names().constFirst()), qPrintable(args[0]));
                return 2;
            }
        QString error;
        JobWindow* job = JobWindow::open(args[0], &error);
        if (!job) {
            std::fprintf(stderr, "stackline: %s\n", qPrintable(error));
            return 2;
        }
        job->resize(width, height);
        job->show();
        if (cli.isSet(timings)) {
            job->repaint();
            std::fprintf(
                stderr, "timings: job-shown=%.3f\n",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
            return 0;
        }
        if (!png.isEmpty()) {
            QTimer::singleShot(50, job, [job, png] {
                const bool ok = job->grab().save(png);
                if (ok)
                    std::printf("%s: window %dx%d\n", qPrintable(png), job->width(), job->height());
                else
                    std::fprintf(stderr, "stackline: cannot write %s\n", qPrintable(png));
                std::fflush(stdout);
                std::_Exit(ok ? 0 : 1);
            });
        }
        return app.exec();
    }
    StartupRequest startupView;
    if (cli.isSet(range)) {
        std::string error;
        startupView.range = stackline::parseRangeOption(cli.value(range).toStdString(), &error);
        if (!startupView.range) {
            std::fprintf(stderr, "stackline: %s\n", error.c_str());
            return 2;
        }
    }
    for (const QString& text : cli.values(marker)) {
        const std::optional<int64_t> ns = stackline::parseMicroseconds(text.toStdString());
        if (!ns) {
            std::fprintf(stderr,
                         "stackline: --marker needs microseconds (up to 3 decimals), not '%s'\n",
                         qPrintable(text));
            return 2;
        }
        startupView.markers.push_back(*ns);
    }
    QString trace = args.value(0);
    // Without a trace: the bundled example, from a folder that lives as long as this session.
    std::unique_ptr<QTemporaryDir> exampleDir;
    if (trace.isEmpty()) {
        exampleDir = std::make_unique<QTemporaryDir>(QDir::tempPath() +
                                                     QStringLiteral("/stackline-example-XXXXXX"));
        if (exampleDir->isValid()) trace = extractExample(exampleDir->path());
        if (trace.isEmpty()) {
            std::fprintf(stderr, "stackline: cannot extract the bundled example\n");
            if (!png.isEmpty()) return 2;
        } else {
            addSessionPathMapping({kExampleRecordedFolder, exampleDir->path()});
        }
    }

    MainWindow window;
    if (exampleDir) window.setTransientFolder(exampleDir->path());
    // Leaves at once, as stackline-cli does: the system frees the trace's tables faster than their
    // destructors would (a second on a GB trace). Only the bundled example's copy is removed.
    auto quit = [&exampleDir](int status) {
        std::fflush(stdout);
        std::fflush(stderr);
        exampleDir.reset();
        std::_Exit(status);
    };
    if (!png.isEmpty()) window.resize(width, height);
    const QString newTrace = cli.value(compare);
    // Once the trace is shown (and the new run beside it with --compare).
    auto shown = [&] {
        uint32_t row = stackline::kNoRow;
        if (cli.isSet(select)) {
            row = window.search()->findEvent(cli.value(select));
            if (row == stackline::kNoRow) {
                std::fprintf(stderr, "stackline: no event matches \"%s\"\n",
                             qPrintable(cli.value(select)));
                if (!png.isEmpty()) {
                    QCoreApplication::exit(2);
                    return;
                }
            }
            window.state()->focus(row);
        }
        // After --select, so that the range's zoom is the one shown.
        applyStartupView(*window.state(), startupView);
        if (cli.isSet(showFlows) && !window.showAllFlowsAction()->isChecked())
            window.showAllFlowsAction()->trigger();
        if (cli.isSet(hotspot)) {
            window.showTab(QStringLiteral("hotspots"));
            window.panel<HotspotsPanel>()->selectVisualRow(cli.value(hotspot).toInt() - 1);
        }
        if (cli.isSet(tab) && !window.showTab(cli.value(tab)))
            std::fprintf(stderr, "stackline: no tab named \"%s\"\n", qPrintable(cli.value(tab)));
        if (png.isEmpty()) return;
        // Let the layout settle (the events posted with the documents are handled before the first
        // tick), and the diff be computed, before grabbing.
        auto* settle = new QTimer(&window);
        settle->setInterval(20);
        QObject::connect(settle, &QTimer::timeout, &window, [&window, settle, png, quit] {
            if (window.panel<DiffPanel>()->isComputing()) return;
            settle->stop();
            const bool ok = window.grab().save(png);
            if (!ok) std::fprintf(stderr, "stackline: cannot write %s\n", qPrintable(png));
            // What a script checks: no selection may change these sizes.
            const QSize w = window.size(), t = window.timeline()->size();
            if (ok)
                std::printf("%s: window %dx%d, timeline %dx%d\n", qPrintable(png), w.width(),
                            w.height(), t.width(), t.height());
            quit(ok ? 0 : 1);
        });
        settle->start();
    };
    QObject::connect(&window, &MainWindow::documentLoaded, &window, [&] {
        if (newTrace.isEmpty())
            shown();
        else
            window.compareWith(absolute(newTrace));
    });
    QObject::connect(&window, &MainWindow::comparisonLoaded, &window, shown);
    if (cli.isSet(timings)) {
        auto print = [started](const char* what) {
            std::fprintf(
                stderr, "timings: %s=%.3f\n", what,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
            std::fflush(stderr);
        };
        QObject::connect(window.timeline(), &TimelineView::framePainted, &window,
                         [print, printed = false]() mutable {
                             if (!std::exchange(printed, true)) print("first-frame");
                         });
        // Filled once the load's last results are in and the window has painted them.
        QObject::connect(&window, &MainWindow::documentLoaded, &window, [&window, print, quit] {
            window.repaint();
            print("panels");
            quit(0);
        });
    }
    QObject::connect(&window, &MainWindow::loadFailed, &window, [&](const QString& message) {
        std::fprintf(stderr, "stackline: %s\n", qPrintable(message));
        if (!png.isEmpty()) QCoreApplication::exit(2);
    });
    window.show();
    QString kinfo = cli.value(kernelInfo);
    if (exampleDir && kinfo.isEmpty() && !trace.isEmpty())
        kinfo = QDir(exampleDir->path()).filePath(QStringLiteral("example.torch_trace.log"));
    if (args.size() > 1 && !cli.isSet(separate)) {
        if (!kinfo.isEmpty())
            std::fprintf(stderr, "stackline: --kernel-info is ignored with several traces\n");
        window.openTraces(args);
    } else if (!trace.isEmpty()) {
        window.openTrace(absolute(trace), kinfo);
    }
    return app.exec();
}
