// Long kernel names and where stacks come from, offscreen: selecting a kernel whose name is
// thousands of characters (without a space, or a template with spaces) leaves the window and the
// timeline at their size at 1600 and 800 px; a mangled name is shown demangled and copied as
// recorded; the details panel says whether a stack came from a kernel-information entry, the
// single-stack guess, Stackline's match by name (a trace without compiled regions), the trace, or
// nowhere (and then shows no kernel-information block); Hotspots, the status bar and the slice
// tooltip's frame follow the same facts.
#include <QApplication>
#include <QClipboard>
#include <QListWidget>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "panels/details_panel.h"
#include "panels/hotspots_panel.h"
#include "shell/main_window.h"
#include "state/viewer_state.h"
#include "timeline/timeline_view.h"
#include "timeline/track_model.h"
#include "viewer_test_support.h"
#include "widgets/elided_label.h"

using namespace stackline;
using namespace ui_test;

namespace {

const QString kRegion = QStringLiteral("Torch-Compiled Region: 0/0");
const QString kGraphKey = QStringLiteral("('Torch-Compiled Region: 0/0', False)");
const QString kMangled = QStringLiteral("_ZN2ck10gemm_smallIiEEvv");
const QString kDemangled = QStringLiteral("void ck::gemm_small<int>()");

// 2,100 characters without a space, as Tensile and CK names are.
QString unbreakableName() {
    QString s = QStringLiteral("Cijk_Alik_Bljk_HHS_BH_MT128x128x32_MI32x32x8x1");
    while (s.size() < 2100) s += QStringLiteral("_SN_1LDSB1_APM1_ABV0_ACED0_AF0EM1_AF1EM1");
    return s;
}

// 5,000 characters of a CUDA template, with the spaces that let it wrap.
QString templatedName() {
    QString s = QStringLiteral("void cutlass::Kernel<cutlass::gemm::kernel::GemmUniversal<");
    for (int i = 0; s.size() < 4990; ++i)
        s += QStringLiteral("cutlass::gemm::GemmShape<%1, 128, 32>, ").arg(i);
    return s + QStringLiteral("int> >");
}

// A runtime call at ts on the CPU thread launching a kernel (ac2g flow) 100 µs later.
void addLaunch(nlohmann::json& events, int ts, const QString& kernel, int flow,
               const nlohmann::json& kernelArgs = nullptr) {
    const std::string name = kernel.toStdString();
    events.push_back({{"ph", "X"},
                      {"cat", "cuda_runtime"},
                      {"name", "cudaLaunchKernel"},
                      {"pid", 1},
                      {"tid", 1},
                      {"ts", ts},
                      {"dur", 5}});
    events.push_back({{"ph", "s"},
                      {"id", flow},
                      {"pid", 1},
                      {"tid", 1},
                      {"ts", ts},
                      {"cat", "ac2g"},
                      {"name", "ac2g"}});
    nlohmann::json k = {{"ph", "X"}, {"cat", "kernel"}, {"name", name}, {"pid", 0},
                        {"tid", 7},  {"ts", ts + 100},  {"dur", 8}};
    if (!kernelArgs.is_null()) k["args"] = kernelArgs;
    events.push_back(k);
    events.push_back({{"ph", "f"},
                      {"id", flow},
                      {"pid", 0},
                      {"tid", 7},
                      {"ts", ts + 100},
                      {"cat", "ac2g"},
                      {"name", "ac2g"},
                      {"bp", "e"}});
}

}  // namespace

class TstLongNames : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        isolateSettings();
        QVERIFY(dir_.isValid());
        // In the region: a Triton kernel the kernel information names (matched) and three it
        // does not (the graph's only stack: guesses); outside: the same Triton kernel (no
        // stack) and a kernel whose stack is in the trace.
        nlohmann::json events = nlohmann::json::array();
        events.push_back({{"ph", "X"},
                          {"cat", "cpu_op"},
                          {"name", kRegion.toStdString()},
                          {"pid", 1},
                          {"tid", 1},
                          {"ts", 0},
                          {"dur", 1000}});
        addLaunch(events, 10, QStringLiteral("triton_a"), 1);
        addLaunch(events, 30, unbreakableName(), 2);
        addLaunch(events, 50, templatedName(), 3);
        addLaunch(events, 70, kMangled, 4);
        addLaunch(events, 2000, QStringLiteral("triton_a"), 5);
        addLaunch(events, 3000, QStringLiteral("eager_kernel"), 6,
                  {{"stack", {"  File \"/home/u/eager.py\", line 3, in f\n"}}});
        QVERIFY(write(QStringLiteral("names.pt.trace.json"), {{"traceEvents", events}}));
        nlohmann::json entry = {
            {"stack_traces", {"  File \"/home/u/model.py\", line 7, in forward\n    y = x + 1\n"}},
            {"post_grad_nodes", {"add"}}};
        QVERIFY(write(QStringLiteral("names.pt.trace.kernel_info.json"),
                      {{kGraphKey.toStdString(), {{"triton_a:1", entry}}}}));
        // No compiled region: triton_a twice (named by one graph), triton_b (by none).
        nlohmann::json plain = nlohmann::json::array();
        addLaunch(plain, 10, QStringLiteral("triton_a"), 1);
        addLaunch(plain, 30, QStringLiteral("triton_a"), 2);
        addLaunch(plain, 50, QStringLiteral("triton_b"), 3);
        QVERIFY(write(QStringLiteral("plain.pt.trace.json"), {{"traceEvents", plain}}));
        QVERIFY(write(QStringLiteral("plain.pt.trace.kernel_info.json"),
                      {{kGraphKey.toStdString(), {{"triton_a:1", entry}}}}));
    }

    void selectingALongNameKeepsTheWindowAndTimeline_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<QString>("name");
        for (int width : {1600, 800}) {
            QTest::addRow("unbreakable at %d", width) << width << unbreakableName();
            QTest::addRow("templated at %d", width) << width << templatedName();
        }
    }
    void selectingALongNameKeepsTheWindowAndTimeline() {
        QFETCH(int, width);
        QFETCH(QString, name);
        MainWindow w;
        w.resize(width, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openTrace(w, trace()));
        const QSize window = w.size();
        const int timeline = w.timeline()->width();
        QVERIFY2(timeline * 2 >= width, qPrintable(QString::number(timeline)));
        w.state()->focus(kernelNamed(w, name));
        QTest::qWait(50);  // let the layout settle
        QCOMPARE(w.size(), window);
        QCOMPARE(w.timeline()->width(), timeline);
        // The name is on one line; the stack below it stays in view.
        DetailsPanel* d = w.details();
        QCOMPARE(d->titleLabel()->text(), name);
        QVERIFY(d->titleLabel()->width() <= d->width());
        QVERIFY(d->stackList()->isVisible());
        QVERIFY2(d->stackList()->height() >= 60,
                 qPrintable(QString::number(d->stackList()->height())));
        QVERIFY(d->stackList()->geometry().bottom() < d->height());
        // Back to a short name: still the same sizes.
        w.state()->focus(kernelNamed(w, QStringLiteral("eager_kernel"), false));
        QTest::qWait(50);
        QCOMPARE(w.size(), window);
        QCOMPARE(w.timeline()->width(), timeline);
    }

    void mangledNamesAreShownDemangledAndCopiedAsRecorded() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openTrace(w, trace()));
        const uint32_t row = kernelNamed(w, kMangled);
        w.state()->focus(row);
        DetailsPanel* d = w.details();
        QCOMPARE(d->titleLabel()->text(), kDemangled);
        QVERIFY(d->titleLabel()->text().contains(QStringLiteral("gemm_small")));
        QVERIFY(d->titleLabel()->toolTip().remove(QChar(0x200B)).contains(kMangled));  // wrappable
        d->copyNameAction()->trigger();
        QCOMPARE(QApplication::clipboard()->text(), kMangled);
        QCOMPARE(w.timeline()->model()->name(row), kDemangled);
    }

    void detailsSayWhereAStackCameFrom_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("inRegion");
        QTest::addColumn<QString>("expected");
        QTest::addRow("matched")
            << "triton_a" << true
            << "Stack from kernel information</b>: entry <code>triton_a</code>";
        QTest::addRow("single-stack guess")
            << kMangled << true << "Stack guessed</b>: the only stack";
        QTest::addRow("in the trace") << "eager_kernel" << false << "recorded in the trace";
        QTest::addRow("none") << "triton_a" << false << "launched outside compiled regions";
    }
    void detailsSayWhereAStackCameFrom() {
        QFETCH(QString, name);
        QFETCH(bool, inRegion);
        QFETCH(QString, expected);
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openTrace(w, trace()));
        w.state()->focus(kernelNamed(w, name, inRegion));
        const QString text = w.details()->provenanceText();
        QVERIFY2(text.contains(expected), qPrintable(text));
        const bool fromEntry = expected.contains(QStringLiteral("entry"));
        const bool fromGraph = fromEntry || expected.contains(QStringLiteral("guessed"));
        QCOMPARE(text.contains(kGraphKey.toHtmlEscaped()), fromGraph);
        // The entry's nodes only for the entry that gave the stack (none for another graph's).
        QCOMPARE(text.contains(QStringLiteral("post_grad_nodes")), fromEntry);
    }

    void hotspotsMarkGuessedStacks() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openTrace(w, trace()));
        HotspotsModel* model = w.panel<HotspotsPanel>()->model();
        QVERIFY(model->rowCount() > 0);
        const SourceLine& line = model->line(0);
        QCOMPARE(line.file, std::string("/home/u/model.py"));
        QCOMPARE(line.guessedLaunches, uint64_t(3));  // of 4: triton_a's is matched
        const QString tip =
            model->data(model->index(0, HotspotsModel::Launches), Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("3 of these launches have a guessed stack")),
                 qPrintable(tip));
        w.panel<HotspotsPanel>()->selectVisualRow(0);
        QListWidget* kernels = w.panel<HotspotsPanel>()->kernelList();
        int guesses = 0;
        for (int i = 0; i < kernels->count(); ++i)
            guesses += kernels->item(i)->text().startsWith(QStringLiteral("(guess)"));
        QCOMPARE(guesses, 3);
    }

    // Without compiled regions, Stackline's rule by name: said in the details, Hotspots and the
    // status bar; the rest's warning in a box titled so.
    void stacksMatchedByNameSaySo() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openTrace(w, dir_.filePath(QStringLiteral("plain.pt.trace.json"))));
        w.state()->focus(kernelNamed(w, QStringLiteral("triton_a"), false));
        const QString text = w.details()->provenanceText();
        QVERIFY2(
            text.contains(QStringLiteral("Stack matched by name</b>: entry <code>triton_a</code>")),
            qPrintable(text));
        QVERIFY(text.contains(kGraphKey.toHtmlEscaped()));
        QVERIFY(text.contains(QStringLiteral("not the reference's rule")));
        QVERIFY(text.contains(QStringLiteral("post_grad_nodes")));
        QVERIFY(w.details()->stackList()->isVisible());
        QVERIFY2(w.countsText().contains(QStringLiteral("2 (2 matched by name) annotated")),
                 qPrintable(w.countsText()));
        auto* box = w.findChild<QMessageBox*>(QStringLiteral("warningBox"));
        QVERIFY(box);
        QCOMPARE(box->windowTitle(), QStringLiteral("Kernel information applies by name only"));
        // triton_b's (its launch is a flow only, without correlation id: "no launch").
        QVERIFY2(box->text().startsWith(QStringLiteral("1 Triton kernel has no launch")),
                 qPrintable(box->text()));
        box->close();

        HotspotsModel* model = w.panel<HotspotsPanel>()->model();
        QCOMPARE(model->rowCount(), 1);
        QCOMPARE(model->line(0).byNameLaunches, uint64_t(2));
        const QString tip =
            model->data(model->index(0, HotspotsModel::Launches), Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("2 of these launches have a stack matched by name")),
                 qPrintable(tip));
        QVERIFY(model->data(model->index(0, HotspotsModel::Launches), Qt::FontRole)
                    .value<QFont>()
                    .italic());
        w.panel<HotspotsPanel>()->selectVisualRow(0);
        QListWidget* kernels = w.panel<HotspotsPanel>()->kernelList();
        QCOMPARE(kernels->count(), 1);
        QVERIFY2(kernels->item(0)->text().startsWith(QStringLiteral("(by name) triton_a")),
                 qPrintable(kernels->item(0)->text()));
    }

    void sliceTooltipsNameTheLaunchingLine() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openTrace(w, trace()));
        QCOMPARE(w.timeline()->model()->launchedAt(kernelNamed(w, QStringLiteral("triton_a"))),
                 QStringLiteral("model.py:7 in forward"));
        QVERIFY(w.timeline()
                    ->model()
                    ->launchedAt(kernelNamed(w, QStringLiteral("triton_a"), false))
                    .isEmpty());
    }

private:
    QString trace() const { return dir_.filePath(QStringLiteral("names.pt.trace.json")); }

    bool write(const QString& name, const nlohmann::json& j) {
        QFile f(dir_.filePath(name));
        return f.open(QIODevice::WriteOnly) && f.write(QByteArray::fromStdString(j.dump())) > 0;
    }

    // The kernel of this name launched inside (or outside) the compiled region.
    static uint32_t kernelNamed(const MainWindow& w, const QString& name, bool inRegion = true) {
        const ViewedTrace& doc = *w.document();
        const std::string n = name.toStdString();
        for (uint32_t r = 0; r < doc.events().size(); ++r)
            if (doc.events().nameOf(r) == n && doc.isKernel(r) &&
                (doc.compiledRegionFor(r) != kNoRow) == inRegion)
                return r;
        qFatal("no kernel %s", qPrintable(name.left(40)));
    }

    QTemporaryDir dir_;
};

QTEST_MAIN(TstLongNames)
#include "tst_long_names.moc"
