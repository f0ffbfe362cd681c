#include "panels/steps_panel.h"

#include <QFont>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>

#include "state/viewer_state.h"
#include "state/zoom_control.h"
#include "widgets/palette.h"
#include "widgets/time_text.h"

using namespace stackline;

namespace {

QString figureName(StepsModel::Figure figure) {
    switch (figure) {
        case StepsModel::Duration:
            return QObject::tr("duration");
        case StepsModel::Compute:
            return QObject::tr("compute");
        default:
            return QObject::tr("collective");
    }
}

}  // namespace

void StepsModel::show(std::shared_ptr<const JobSteps> steps) {
    beginResetModel();
    steps_ = std::move(steps);
    endResetModel();
}

int StepsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !steps_ ? 0 : int(steps_->steps.size());
}

int StepsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() || !steps_ ? 0 : columnOf(int(steps_->ranks.size()), Duration);
}

QVariant StepsModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole || !steps_) return {};
    if (section == Step) return tr("Step");
    if (section == Straggler) return tr("Straggler");
    const int rank = rankOf(section);
    if (rank < 0 || size_t(rank) >= steps_->ranks.size()) return {};
    return QStringLiteral("%1\n%2").arg(QString::fromStdString(steps_->ranks[size_t(rank)].label),
                                        figureName(Figure((section - FirstRank) % FigureCount)));
}

QVariant StepsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !steps_ || index.row() >= rowCount()) return {};
    const JobStep& step = steps_->steps[size_t(index.row())];
    const int column = index.column();
    const int rank = rankOf(column);
    auto label = [&](int r) { return QString::fromStdString(steps_->ranks[size_t(r)].label); };
    if (rank < 0) {
        if (role == Qt::DisplayRole)
            return column == Step        ? QVariant(qlonglong(step.step))
                   : step.straggler >= 0 ? QVariant(label(step.straggler))
                                         : QVariant(QStringLiteral("—"));
        if (role == Qt::ToolTipRole && column == Straggler)
            return step.straggler >= 0
                       ? tr("%1's collectives start last: the other ranks wait for it")
                             .arg(label(step.straggler))
                       : tr("No two ranks have collectives in this step");
        if (role == Qt::FontRole && column == Straggler && step.straggler >= 0) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    }
    const RankStep& s = step.ranks[size_t(rank)];
    const Figure figure = Figure((column - FirstRank) % FigureCount);
    const bool straggler = rank == step.straggler;
    switch (role) {
        case Qt::DisplayRole:
            if (!s.present) return {};
            return formatDuration(figure == Duration  ? s.durationNs()
                                  : figure == Compute ? s.computeNs
                                                      : s.collectiveNs);
        case Qt::TextAlignmentRole:
            return int(Qt::AlignRight | Qt::AlignVCenter);
        case Qt::FontRole:
            if (straggler) {
                QFont bold;
                bold.setBold(true);
                return bold;
            }
            return {};
        case Qt::ForegroundRole:
            return straggler ? QVariant(uiColor(UiColor::Warning)) : QVariant();
        case Qt::BackgroundRole:
            return straggler ? QVariant(uiColor(UiColor::WarningBanner)) : QVariant();
        case Qt::ToolTipRole:
            if (!s.present) return tr("%1 has no step %2").arg(label(rank)).arg(step.step);
            return tr("%1, step %2: %3, GPU compute %4, in %5 collectives %6, GPU idle %7%8")
                .arg(label(rank))
                .arg(step.step)
                .arg(formatDuration(s.durationNs()), formatDuration(s.computeNs))
                .arg(s.collectives)
                .arg(formatDuration(s.collectiveNs), formatDuration(s.idleNs))
                .arg(straggler ? tr("\nThe straggler: its collectives start last, the others "
                                    "wait for it")
                               : QString());
    }
    return {};
}

StepsPanel::StepsPanel(ViewerState* state, QWidget* parent)
    : QWidget(parent), state_(state), model_(new StepsModel), view_(new QTableView) {
    model_->setParent(this);
    summary_ = new QLabel;
    summary_->setWordWrap(true);
    view_->setModel(model_);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->setSelectionBehavior(QAbstractItemView::SelectItems);
    view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view_->verticalHeader()->hide();
    view_->horizontalHeader()->setDefaultSectionSize(82);
    connect(view_, &QAbstractItemView::clicked, this,
            [this](const QModelIndex& index) { chooseCell(index.row(), index.column()); });
    connect(view_, &QAbstractItemView::activated, this,
            [this](const QModelIndex& index) { chooseCell(index.row(), index.column()); });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(summary_);
    layout->addWidget(view_, 1);
    connect(state_, &ViewerState::documentsChanged, this, &StepsPanel::recompute);
    recompute();
}

void StepsPanel::showSteps(std::shared_ptr<const JobSteps> job) {
    model_->show(job);
    const size_t ranks = job->ranks.size(), steps = job->steps.size();
    summary_->setText(
        steps == 0 ? tr("No ProfilerStep#N spans in these traces.")
                   : tr("%1 ranks, %2. Per rank: the step's duration, GPU compute time and "
                        "time in collective kernels; the straggler (marked) is the rank whose "
                        "collectives start last, the others wait for it. Click a cell to zoom "
                        "every rank to that step.")
                         .arg(ranks)
                         .arg(steps == 1 ? tr("1 step") : tr("%1 steps").arg(steps)));
    emit stepsChanged();
}

bool StepsPanel::hasSteps() const {
    return model_->rowCount() > 0;
}

void StepsPanel::recompute() {
    computed_.drop();  // a result for the previous documents
    model_->show(nullptr);
    const auto docs = state_->documents();
    if (docs.empty()) {
        summary_->clear();
        emit stepsChanged();
        return;
    }
    summary_->setText(tr("Computing…"));
    // A scan of every trace: off the GUI thread.
    computed_.start([docs] {
        std::vector<RankTrace> ranks;
        for (const auto& d : docs) ranks.push_back({d->trace.get(), &d->flows});
        return std::make_shared<const JobSteps>(computeJobSteps(ranks));
    });
    emit stepsChanged();
}

void StepsPanel::chooseCell(int row, int column) {
    const JobSteps* job = model_->steps();
    const auto& docs = state_->documents();
    if (!job || row < 0 || size_t(row) >= job->steps.size() || docs.size() != job->ranks.size())
        return;
    const JobStep& step = job->steps[size_t(row)];
    // On the window's one time axis: every rank's step, as its clock is lined up there.
    int64_t start = std::numeric_limits<int64_t>::max(), end = std::numeric_limits<int64_t>::min();
    for (size_t r = 0; r < step.ranks.size(); ++r) {
        const RankStep& s = step.ranks[r];
        if (!s.present) continue;
        const int64_t offset = state_->offsetNs(docs[r].get());
        start = std::min(start, s.startNs + offset);
        end = std::max(end, s.endNs + offset);
    }
    if (start > end) return;
    state_->zoom()->setWindow(start, end);
    const int rank = StepsModel::rankOf(column);
    if (rank >= 0 && size_t(rank) < step.ranks.size() && step.ranks[size_t(rank)].present)
        state_->select(EventRef{docs[size_t(rank)].get(), step.ranks[size_t(rank)].row});
}
