#include "shell/job_window.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QStatusBar>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cstdlib>

#include "base/errors.h"
#include "panels/job_heat_map_view.h"
#include "shell/main_window.h"
#include "state/path_map.h"
#include "state/viewer_state.h"
#include "state/zoom_control.h"
#include "widgets/palette.h"
#include "widgets/time_text.h"

using namespace stackline;

namespace {

// Each column but the last at least as wide as its title ("Straggler / group" was cut at the
// default width); the last one stretches.
void fitColumnsToTitles(QTreeWidget* tree) {
    QHeaderView* header = tree->header();
    for (int c = 0; c + 1 < header->count(); ++c)
        header->resizeSection(c, std::max(header->sectionSize(c), header->sectionSizeHint(c)));
}

QString metricName(JobMetric metric) {
    const std::string_view name = nameOf(metric);
    QString text = QString::fromUtf8(name.data(), qsizetype(name.size()));
    text[0] = text[0].toUpper();
    return text;
}

QString signedDuration(int64_t ns) {
    return (ns < 0 ? QStringLiteral("−") : QStringLiteral("+")) + formatDuration(std::llabs(ns));
}

}  // namespace

JobWindow* JobWindow::open(const QString& path, QString* error) {
    try {
        auto result = std::make_shared<const StepsResult>(
            readStepsResult(QFile::encodeName(path).toStdString()));
        auto* window = new JobWindow(path, std::move(result));
        window->setAttribute(Qt::WA_DeleteOnClose);
        return window;
    } catch (const InputError& e) {
        if (error) *error = path + QStringLiteral(": ") + QString::fromStdString(e.what());
        return nullptr;
    }
}

JobWindow::Opened JobWindow::openIfJob(const QString& path, QWidget* parent) {
    if (!isStepsResultFile(QFile::encodeName(path).toStdString())) return Opened::NotAJob;
    QString error;
    JobWindow* window = open(path, &error);
    if (!window) {
        QMessageBox::warning(parent, tr("Cannot open the job"), error);
        return Opened::Failed;
    }
    window->resize(parent ? parent->size() : QSize(1400, 900));
    window->show();
    return Opened::Shown;
}

JobWindow::JobWindow(const QString& path, std::shared_ptr<const StepsResult> result)
    : path_(QFileInfo(path).absoluteFilePath()),
      map_(std::make_shared<const JobHeatMap>(std::move(result))) {
    setWindowTitle(tr("%1 — Stackline job").arg(QFileInfo(path).fileName()));
    auto* central = new QWidget;
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(6, 6, 6, 6);

    auto* bar = new QHBoxLayout;
    metricBox_ = new QComboBox;
    for (size_t m = 0; m < kJobMetricCount; ++m) metricBox_->addItem(metricName(JobMetric(m)));
    metricBox_->setToolTip(
        tr("What the cells show. Collective skew: how late the rank starts the step's matched "
           "collectives, the largest of its start minus the first rank's"));
    filterEdit_ = new QLineEdit;
    filterEdit_->setPlaceholderText(tr("all ranks, or e.g. 0-7, 512"));
    filterEdit_->setClearButtonEnabled(true);
    filterEdit_->setToolTip(tr("Show these ranks only: numbers and ranges, separated by commas"));
    filterError_ = new QLabel;
    filterError_->setStyleSheet(QStringLiteral("color: %1").arg(uiColor(UiColor::Error).name()));
    bar->addWidget(new QLabel(tr("Metric:")));
    bar->addWidget(metricBox_);
    bar->addSpacing(12);
    bar->addWidget(new QLabel(tr("Ranks:")));
    bar->addWidget(filterEdit_, 1);
    bar->addWidget(filterError_, 1);
    layout->addLayout(bar);

    banner_ = new QFrame;
    banner_->setAutoFillBackground(true);
    QPalette warning = banner_->palette();
    warning.setColor(QPalette::Window, uiColor(UiColor::WarningBanner));
    banner_->setPalette(warning);
    bannerLabel_ = new QLabel;
    bannerLabel_->setWordWrap(true);
    bannerLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    bannerLabel_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    mapButton_ = new QPushButton(tr("Map Folder…"));
    mapButton_->setToolTip(
        tr("Choose the local folder that holds the traces recorded in that "
           "folder (remembered for results in this folder)"));
    auto* close = new QPushButton(tr("Close"));
    auto* bannerLayout = new QHBoxLayout(banner_);
    bannerLayout->setContentsMargins(8, 4, 8, 4);
    bannerLayout->addWidget(bannerLabel_, 1);
    bannerLayout->addWidget(mapButton_);
    bannerLayout->addWidget(close);
    banner_->hide();
    layout->addWidget(banner_);
    connect(mapButton_, &QPushButton::clicked, this, &JobWindow::chooseMapping);
    connect(close, &QPushButton::clicked, banner_, &QWidget::hide);

    heatMap_ = new JobHeatMapView;
    heatMap_->setMap(map_);
    stepsTree_ = new QTreeWidget;
    stepsTree_->setHeaderLabels({tr("Step / collective"), tr("Straggler / group"), tr("Skew")});
    stepsTree_->setRootIsDecorated(true);
    stepsTree_->setToolTip(
        tr("Per step its straggler (the rank whose collectives start last; the "
           "others wait for it) and its 5 collectives of largest skew (the last "
           "rank's start minus the first's)"));
    spreadTree_ = new QTreeWidget;
    spreadTree_->setHeaderLabels({tr("Rank"), tr("Mean vs median"), tr("Relative"), tr("Worst")});
    spreadTree_->setRootIsDecorated(false);
    spreadTree_->setUniformRowHeights(true);
    spreadTree_->setToolTip(
        tr("Per rank, over its steps, its value minus the step's median over "
           "the ranks; the farthest first"));
    auto* side = new QSplitter(Qt::Vertical);
    side->addWidget(stepsTree_);
    side->addWidget(spreadTree_);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(heatMap_);
    split->addWidget(side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({600, 400});
    for (QTreeWidget* tree : {stepsTree_, spreadTree_}) tree->setTextElideMode(Qt::ElideMiddle);
    fitColumnsToTitles(stepsTree_);  // the spreads' titles change with the metric: fillSpreads
    layout->addWidget(split, 1);
    setCentralWidget(central);

    const JobSteps& job = map_->job();
    statusBar()->showMessage(
        tr("%1 · %2 ranks%3 · %4 · click a cell to open that rank's trace at that step")
            .arg(QFileInfo(path_).fileName())
            .arg(job.ranks.size())
            .arg(job.worldSize ? (job.partial() ? tr(" of a job of %1 (a partial job)")
                                                : tr(" of a job of %1"))
                                     .arg(job.worldSize)
                               : QString())
            .arg(job.steps.size() == 1 ? tr("1 step") : tr("%1 steps").arg(job.steps.size())));
    statusBar()->setToolTip(QDir::toNativeSeparators(path_));  // the name above, as the main window

    connect(metricBox_, &QComboBox::currentIndexChanged, this,
            [this](int i) { setMetric(JobMetric(i)); });
    connect(filterEdit_, &QLineEdit::textChanged, this, &JobWindow::setRankFilter);
    connect(heatMap_, &JobHeatMapView::cellClicked, this,
            [this](size_t rank, size_t step) { openRankTrace(rank, step); });
    fillSteps();
    fillSpreads();
}

QString JobWindow::filterError() const {
    return filterError_->text();
}

QString JobWindow::bannerText() const {
    return banner_->isVisible() || !banner_->isHidden() ? bannerLabel_->text() : QString();
}

void JobWindow::setMetric(JobMetric metric) {
    if (metricBox_->currentIndex() != int(metric)) {
        metricBox_->setCurrentIndex(int(metric));  // comes back here
        return;
    }
    heatMap_->setMetric(metric);
    fillSpreads();
}

bool JobWindow::setRankFilter(const QString& text) {
    if (filterEdit_->text() != text) filterEdit_->setText(text);  // comes back here
    std::string error;
    const auto filter = RankFilter::parse(text.toStdString(), &error);
    filterError_->setText(filter ? QString() : QString::fromStdString(error));
    if (!filter) return false;
    heatMap_->setRows(map_->rows(*filter));
    fillSpreads();
    return true;
}

void JobWindow::fillSteps() {
    const JobSteps& job = map_->job();
    stepsTree_->clear();
    QList<QTreeWidgetItem*> items;
    for (size_t s = 0; s < job.steps.size(); ++s) {
        const JobStep& step = job.steps[s];
        const auto slowest = map_->slowestCollectives(s);
        auto* item = new QTreeWidgetItem(
            {tr("step %1").arg(step.step),
             step.straggler >= 0 ? QString::fromStdString(job.ranks[size_t(step.straggler)].label)
                                 : tr("none"),
             slowest.empty() ? QString() : formatDuration(slowest.front()->skewNs)});
        if (step.straggler < 0)
            item->setToolTip(1, tr("No two ranks have collectives in this step"));
        QFont bold = item->font(1);
        bold.setBold(true);
        item->setFont(1, bold);
        for (const MatchedCollective* m : slowest) {
            QString size = QString::fromStdString(m->dtype);
            if (m->inElements) size = tr("%1 elements %2").arg(*m->inElements).arg(size);
            auto* child = new QTreeWidgetItem(
                item, {QString::fromStdString(m->name),
                       QString::fromStdString(m->processGroup.empty() ? "-" : m->processGroup),
                       formatDuration(m->skewNs)});
            child->setToolTip(0, tr("%1 in process group %2, %3; over %4 ranks")
                                     .arg(child->text(0), child->text(1), size.trimmed())
                                     .arg(m->ranks.size()));
        }
        items << item;
    }
    stepsTree_->addTopLevelItems(items);
    stepsTree_->expandAll();
    stepsTree_->setColumnWidth(0, 260);
}

void JobWindow::fillSpreads() {
    const std::vector<RankSpread> spreads = map_->spreads(heatMap_->shownMetric());
    std::vector<bool> shown(map_->rankCount(), false);
    for (size_t r : heatMap_->rows()) shown[r] = true;
    QList<QTreeWidgetItem*> items;
    for (const RankSpread& s : spreads) {
        if (!shown[s.rank]) continue;
        auto* item = new QTreeWidgetItem(
            {QString::fromStdString(map_->job().ranks[s.rank].label), signedDuration(s.meanDeltaNs),
             QStringLiteral("%1%2 %")
                 .arg(s.relative < 0 ? "−" : "+")
                 .arg(std::abs(s.relative) * 100, 0, 'f', 1),
             tr("%1 in step %2").arg(signedDuration(s.worstDeltaNs)).arg(s.worstStep)});
        items << item;
    }
    spreadTree_->setUpdatesEnabled(false);
    spreadTree_->clear();
    spreadTree_->addTopLevelItems(items);
    spreadTree_->setUpdatesEnabled(true);
    spreadTree_->headerItem()->setText(1,
                                       tr("%1 vs median").arg(metricName(heatMap_->shownMetric())));
    fitColumnsToTitles(spreadTree_);
}

QString JobWindow::recordedTrace(size_t rank) const {
    const QString recorded = QString::fromStdString(map_->result().ranks[rank].trace);
    return QFileInfo(recorded).isAbsolute() ? recorded
                                            : QFileInfo(path_).dir().absoluteFilePath(recorded);
}

MainWindow* JobWindow::openRankTrace(size_t rank, size_t step) {
    if (rank >= map_->rankCount()) return nullptr;
    const QString recorded = recordedTrace(rank);
    const QList<PathMapping> maps = pathMappings(QFileInfo(path_).absolutePath());
    const QString local = resolveSourcePath(recorded, maps);
    const QString label = QString::fromStdString(map_->job().ranks[rank].label);
    if (local.isEmpty()) {
        missingRank_ = rank;
        missingStep_ = step;
        QStringList looked = candidatePaths(recorded, maps);
        looked.prepend(recorded);
        bannerLabel_->setText(
            tr("The trace of %1 was recorded at %2, which is not on this machine (looked for: "
               "%3). Click \"Map Folder…\" and choose the local folder that holds it: %4 is then "
               "mapped to it for every rank.")
                .arg(label, recorded, looked.join(QStringLiteral(", ")),
                     QFileInfo(recorded).path()));
        banner_->show();
        return nullptr;
    }
    banner_->hide();
    auto* window = new MainWindow;
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->resize(size());
    window->show();
    const RankStep* figures =
        step < map_->stepCount() ? &map_->job().steps[step].ranks[rank] : nullptr;
    if (figures && figures->present)
        connect(
            window, &MainWindow::documentLoaded, window,
            [window, start = figures->startNs, end = figures->endNs] {
                const int64_t offset = window->state()->offsetNs(window->document());
                window->state()->zoom()->setWindow(start + offset, end + offset);
            },
            Qt::SingleShotConnection);
    window->openTrace(local);
    emit traceOpened(window);
    return window;
}

MainWindow* JobWindow::mapFolder(const QString& recorded, const QString& local) {
    addPathMapping(QFileInfo(path_).absolutePath(), {recorded, local});
    return openRankTrace(missingRank_, missingStep_);
}

void JobWindow::chooseMapping() {
    const QString recorded = QFileInfo(recordedTrace(missingRank_)).path();
    const QString local = QFileDialog::getExistingDirectory(
        this, tr("The Local Folder of %1").arg(recorded), QFileInfo(path_).absolutePath());
    if (!local.isEmpty()) mapFolder(recorded, local);
}
