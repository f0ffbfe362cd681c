// The timeline's track layout on a real with_stack=True trace (TraceLens' H100 BERT profile, 43
// levels of Python stack on its CPU thread): the first view shows a GPU stream; pinning, hiding and
// reordering from the header's menu and by dragging it change the rows and carry over to another
// trace of the same folder; the depth limit folds deep levels and expanding restores them;
// selecting a folded event works and revealing it expands; a collapsed process paints a summary;
// the dragged range's label leaves the ruler alone.
#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include "state/load_job.h"
#include "state/viewer_state.h"
#include "state/zoom_control.h"
#include "timeline/timeline_view.h"
#include "timeline/track_model.h"
#include "viewer_test_support.h"

using namespace stackline;
using namespace ui_test;
using G = TimelineGeometry;
using Kind = TrackModel::RowKind;

namespace {

const QString kTrace = QStringLiteral(STACKLINE_CORPUS_DIR
                                      "/h100_gaunernst_bert-small-uncased__1016001/trace.json.gz");

std::shared_ptr<ViewedTrace> load(const QString& path) {
    BackgroundJob::Context context;
    return loadDocument({path, {}, nullptr}, context);
}

// The rows as text, to compare arrangements across models.
QStringList rowNames(const TrackModel& m) {
    QStringList out;
    for (const TrackModel::Row& r : m.rows()) {
        if (r.kind == Kind::PinnedHeader)
            out << QStringLiteral("pinned");
        else if (r.kind == Kind::ProcessHeader)
            out << m.processLabel(r.process);
        else if (r.kind == Kind::Counter)
            out << QString::fromStdString(m.counter(r).name);
        else
            out << m.qualifiedLabel(r.track) + QStringLiteral(" %1").arg(r.level);
    }
    return out;
}

int firstRowOf(const TrackModel& m, uint32_t track) {
    for (size_t r = 0; r < m.rows().size(); ++r)
        if (m.rows()[r].track == track) return int(r);
    return -1;
}

int headerRowOf(const TrackModel& m, uint32_t process) {
    for (size_t r = 0; r < m.rows().size(); ++r)
        if (m.rows()[r].kind == Kind::ProcessHeader && m.rows()[r].process == process)
            return int(r);
    return -1;
}

// Triggers the action of the header menu at pos whose text starts with `text`.
bool triggerMenu(TimelineView& view, QPoint pos, const QString& text) {
    std::unique_ptr<QMenu> menu(view.headerMenu(pos));
    if (!menu) return false;
    for (QAction* a : menu->actions()) {
        if (!a->text().startsWith(text)) continue;
        a->trigger();
        return true;
    }
    return false;
}

}  // namespace

class TstTrackLayout : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        isolateSettings();
        QSettings().remove(QStringLiteral("trackLayouts"));
        QVERIFY(dir_.isValid());
        for (const char* name : {"a.json.gz", "b.json.gz"})
            QVERIFY(QFile::copy(kTrace, dir_.filePath(QLatin1String(name))));
        doc_ = load(dir_.filePath(QStringLiteral("a.json.gz")));
        launch_ = rowNamed(*doc_, "cudaLaunchKernel", "cuda_runtime");
        for (uint32_t r = 0; r < doc_->events().size() && kernel_ == kNoRow; ++r)
            if (doc_->isKernel(r)) kernel_ = r;
        QVERIFY(launch_ != kNoRow && kernel_ != kNoRow);
        cpuThread_ = doc_->tracks.trackOf(launch_);
        QVERIFY(doc_->tracks.levelOf(launch_) > TrackLayout::kDefaultDepth);
    }

    void init() {
        view_ = std::make_unique<TimelineView>(&state_);
        view_->resize(1000, 400);  // smaller than the window's timeline
        state_.setDocument(doc_);
        view_->show();
        QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
    }

    void cleanup() {
        view_->model()->resetLayout();
        view_.reset();
        QSettings().remove(QStringLiteral("trackLayouts"));
    }

    void firstViewShowsAGpuStream() {
        const QRect r = view_->eventRect(kernel_);
        QVERIFY(!r.isEmpty());
        QVERIFY2(view_->viewport()->rect().contains(r), qPrintable(QString::number(r.y())));
        // The CPU thread's top levels are in view too, its deeper ones folded.
        QVERIFY(view_->model()->isFolded(cpuThread_));
        QVERIFY(view_->geometry().rowY(firstRowOf(*view_->model(), cpuThread_)) < 400);
    }

    void pinHideAndReorderCarryOverToTheFolder() {
        TrackModel& m = *view_->model();
        const uint32_t gpuStream = doc_->tracks.trackOf(kernel_);
        const uint32_t cpu = uint32_t(m.processOf(launch_));
        // Pin the CPU thread: it moves above every process, under the pinned header.
        QVERIFY(triggerMenu(*view_, gutterAt(cpuThread_), QStringLiteral("Pin to Top")));
        QVERIFY(m.isPinned(cpuThread_));
        QCOMPARE(m.rows()[0].kind, Kind::PinnedHeader);
        QCOMPARE(m.rows()[1].track, cpuThread_);
        // Hide the GPU process's Python thread (the trace records one there).
        const uint32_t gpu = uint32_t(m.processOf(kernel_));
        uint32_t gpuPython = kNoTrack;
        for (uint32_t t : doc_->tracks.processes()[gpu].tracks)
            if (t != gpuStream) gpuPython = t;
        QVERIFY(gpuPython != kNoTrack);
        QVERIFY(triggerMenu(*view_, gutterAt(gpuPython), QStringLiteral("Hide")));
        QCOMPARE(firstRowOf(m, gpuPython), -1);
        QCOMPARE(m.hiddenTracks(), std::vector<uint32_t>{gpuPython});
        // Move the CPU process above the GPU's by dragging its header.
        const G& g = view_->geometry();
        const QPoint from(40, g.rowY(headerRowOf(m, cpu)) + 5);
        const QPoint to(40, g.rowY(headerRowOf(m, gpu)) + 5);
        QTest::mousePress(view_->viewport(), Qt::LeftButton, Qt::NoModifier, from);
        QTest::mouseMove(view_->viewport(), from - QPoint(0, 6));
        QTest::mouseMove(view_->viewport(), to);
        QTest::mouseRelease(view_->viewport(), Qt::LeftButton, Qt::NoModifier, to);
        QVERIFY(headerRowOf(m, cpu) < headerRowOf(m, gpu));
        QVERIFY(!m.isCollapsed(cpu) && !m.isCollapsed(gpu));  // a drag is no click
        const QStringList arranged = rowNames(m);

        // Another trace of the folder opens so; one of another folder does not.
        auto other = load(dir_.filePath(QStringLiteral("b.json.gz")));
        state_.setDocument(other);
        QCOMPARE(rowNames(*view_->model()), arranged);
        QTemporaryDir elsewhere;
        QVERIFY(QFile::copy(kTrace, elsewhere.filePath(QStringLiteral("c.json.gz"))));
        state_.setDocument(load(elsewhere.filePath(QStringLiteral("c.json.gz"))));
        QVERIFY(rowNames(*view_->model()) != arranged);
        QCOMPARE(view_->model()->rows()[0].kind, Kind::ProcessHeader);
        // Reset forgets it for the folder.
        state_.setDocument(other);
        QVERIFY(triggerMenu(*view_, gutterAt(cpuThread_), QStringLiteral("Reset Track Layout")));
        state_.setDocument(doc_);
        QVERIFY(!view_->model()->isPinned(cpuThread_));
        QVERIFY(view_->model()->hiddenTracks().empty());
    }

    void moveUpAndDownWithinAProcess() {
        TrackModel& m = *view_->model();
        const uint32_t gpuStream = doc_->tracks.trackOf(kernel_);
        const uint32_t gpu = uint32_t(m.processOf(kernel_));
        const std::vector<uint32_t>& tracks = doc_->tracks.processes()[gpu].tracks;
        QCOMPARE(tracks.size(), size_t(2));
        QVERIFY(tracks.back() == gpuStream);  // Kineto's order: the Python thread, then stream 7
        QVERIFY(triggerMenu(*view_, gutterAt(gpuStream), QStringLiteral("Move Up")));
        QVERIFY(firstRowOf(m, gpuStream) < firstRowOf(m, tracks.front()));
        QVERIFY(!m.moveTrackBy(gpuStream, -1));               // already first
        QVERIFY(!m.moveTrack(gpuStream, cpuThread_, false));  // another process
        QVERIFY(triggerMenu(*view_, gutterAt(gpuStream), QStringLiteral("Move Down")));
        QVERIFY(firstRowOf(m, gpuStream) > firstRowOf(m, tracks.front()));
    }

    void depthLimitFoldsAndExpands() {
        TrackModel& m = *view_->model();
        const int levels = m.levelCount(cpuThread_);
        auto rowsOfThread = [&] {
            return std::count_if(m.rows().begin(), m.rows().end(), [&](const auto& r) {
                return r.track == cpuThread_ && r.kind != Kind::Instants;
            });
        };
        QCOMPARE(m.shownLevels(cpuThread_), TrackLayout::kDefaultDepth);
        QCOMPARE(rowsOfThread(), TrackLayout::kDefaultDepth + 1);
        QVERIFY(triggerMenu(*view_, gutterAt(cpuThread_), QStringLiteral("Show All")));
        QCOMPARE(rowsOfThread(), levels);
        QVERIFY(!m.isFolded(cpuThread_));
        QVERIFY(triggerMenu(*view_, gutterAt(cpuThread_), QStringLiteral("Limit to")));
        QCOMPARE(rowsOfThread(), TrackLayout::kDefaultDepth + 1);
        // A click on the folded row's label expands it too.
        const int folded = firstRowOf(m, cpuThread_) + TrackLayout::kDefaultDepth;
        QCOMPARE(m.rows()[size_t(folded)].kind, Kind::Folded);
        QTest::mouseClick(view_->viewport(), Qt::LeftButton, Qt::NoModifier,
                          QPoint(40, view_->geometry().rowY(folded) + 5));
        QCOMPARE(rowsOfThread(), levels);
    }

    void selectingAFoldedEventWorksAndRevealingExpands() {
        TrackModel& m = *view_->model();
        const int folded = firstRowOf(m, cpuThread_) + TrackLayout::kDefaultDepth;
        // Selected without reveal: outlined in the folded row, which also hits it.
        state_.select(launch_);
        const QRect inFold = view_->eventRect(launch_);
        QCOMPARE(inFold.top(), view_->geometry().rowY(folded) + 1);
        zoomTo(launch_);
        const QRect r = view_->eventRect(launch_);
        QCOMPARE(view_->eventAt(r.center()), launch_);
        // Revealed (as the panels and search do): its level gets a row of its own, in view.
        state_.select(launch_, true);
        QVERIFY(m.shownLevels(cpuThread_) > doc_->tracks.levelOf(launch_));
        const QRect own = view_->eventRect(launch_);
        QCOMPARE(m.rows()[size_t(m.rowOf(launch_))].kind, Kind::Slices);
        QVERIFY(view_->viewport()->rect().contains(own.center()));
        QCOMPARE(view_->eventAt(own.center()), launch_);
    }

    void collapsedProcessPaintsItsBusiestTracks() {
        TrackModel& m = *view_->model();
        const uint32_t cpu = uint32_t(m.processOf(launch_));
        const int header = headerRowOf(m, cpu);
        const QRect plot(view_->geometry().left, view_->geometry().rowY(header),
                         view_->geometry().right - view_->geometry().left, G::kHeaderHeight);
        const QColor python = sliceColor(SliceStyle::PythonFunction);
        QCOMPARE(countColor(view_->viewport()->grab().toImage(), plot, python), 0);
        QTest::mouseClick(view_->viewport(), Qt::LeftButton, Qt::NoModifier, plot.center());
        QVERIFY(m.isCollapsed(cpu));
        const QImage image = view_->viewport()->grab().toImage();
        // Where the process has slices, its header is painted; after its last slice, it is not.
        const int end = int(view_->geometry().xOf(doc_->tracks.endNs()));
        const QRect busy(plot.left(), plot.top(), end - plot.left() - 40, plot.height());
        QVERIFY(countColor(image, busy, python) > busy.width() * 2);
        QVERIFY(countColor(image, busy, sliceColor(SliceStyle::CpuOp)) > 0);
        const QColor headerColor = uiColor(UiColor::ProcessHeader);
        QCOMPARE(countColor(image, plot.adjusted(end + 4 - plot.left(), 0, 0, 0), headerColor),
                 (plot.right() - end - 3) * plot.height());
    }

    void rangeLabelLeavesTheRuler() {
        const QPoint a(400, 10), b(700, 10);
        QTest::mousePress(view_->viewport(), Qt::LeftButton, Qt::NoModifier, a);
        QTest::mouseMove(view_->viewport(), b);
        QTest::mouseRelease(view_->viewport(), Qt::LeftButton, Qt::NoModifier, b);
        const QImage image = view_->viewport()->grab().toImage();
        const QColor plate = uiColor(UiColor::RangePlate);
        const QRect ruler(0, 0, image.width(), G::kRulerHeight);
        QCOMPARE(countColor(image, ruler, plate), 0);
        QVERIFY(countColor(image, QRect(a.x(), G::kRulerHeight, b.x() - a.x(), 30), plate) > 50);
    }

private:
    // A point on a track's label in the gutter.
    QPoint gutterAt(uint32_t track) const {
        return QPoint(40, view_->geometry().rowY(firstRowOf(*view_->model(), track)) + 5);
    }

    void zoomTo(uint32_t event) {
        const int64_t s = doc_->events().tsNs(event);
        state_.zoom()->setWindow(s - 20'000, s + 20'000);
    }

    QTemporaryDir dir_;
    std::shared_ptr<ViewedTrace> doc_;
    ViewerState state_;
    std::unique_ptr<TimelineView> view_;
    uint32_t launch_ = kNoRow, kernel_ = kNoRow, cpuThread_ = kNoTrack;
};

QTEST_MAIN(TstTrackLayout)
#include "tst_track_layout.moc"
