#include "panels/diff_model.h"

#include <QFileInfo>
#include <QFont>
#include <algorithm>
#include <cstdlib>
#include <limits>

#include "widgets/palette.h"
#include "widgets/time_text.h"

using namespace stackline;

namespace {

QString countText(uint64_t base, uint64_t next) {
    return base == next ? QString::number(base) : QStringLiteral("%1→%2").arg(base).arg(next);
}

// A side's time, or a dash when the run does not have the line or kernel.
QString timeText(const RunSide& side, int64_t shownNs) {
    return side.count ? formatDuration(shownNs) : QStringLiteral("—");
}

QString deltaText(int64_t ns) {
    return ns > 0 ? QLatin1Char('+') + formatDuration(ns) : formatDuration(ns);
}

constexpr auto kRight = Qt::AlignRight | Qt::AlignVCenter;

}  // namespace

void DiffTableModel::show(std::shared_ptr<const ViewedTrace> base,
                          std::shared_ptr<const RunDiff> diff) {
    diff_ = base ? std::move(diff) : nullptr;
    setDocument(std::move(base));
}

int DiffTableModel::rebuild() {
    largestDelta_ = 0;
    if (!doc_ || !diff_) return 0;
    const int n = size();
    for (int r = 0; r < n; ++r)
        largestDelta_ = std::max<int64_t>(largestDelta_, std::llabs(deltaOf(r)));
    return n;
}

QVariant DiffTableModel::tint(int row) const {
    const QColor c = deltaColor(deltaOf(row), largestDelta_);
    return c.isValid() ? QVariant(c) : QVariant();
}

QString DiffTableModel::ratioText(int64_t baseNs, int64_t nextNs) {
    const std::optional<double> ratio = ratioOf(baseNs, nextNs);
    if (!ratio) return nextNs ? tr("new") : QString();
    return nextNs ? QStringLiteral("×%1").arg(*ratio, 0, 'f', 2) : tr("gone");
}

double DiffTableModel::ratioKey(int64_t baseNs, int64_t nextNs) {
    return ratioOf(baseNs, nextNs).value_or(nextNs ? std::numeric_limits<double>::max() : 1.0);
}

DiffLinesModel::DiffLinesModel()
    : DiffTableModel({tr("Line (base→new)"), tr("Function"), tr("Code"), tr("Base"), tr("New"),
                      tr("Delta"), tr("Ratio"), tr("Launches")}) {}

int DiffLinesModel::size() const {
    return int(diff_->lines.size());
}

int64_t DiffLinesModel::baseNs(int row) const {
    return diff_->compared(line(row).base.selfNs, false);
}

int64_t DiffLinesModel::nextNs(int row) const {
    return diff_->compared(line(row).next.selfNs, true);
}

QVariant DiffLinesModel::text(int row, int column) const {
    const DiffLine& l = line(row);
    switch (column) {
        case Where: {
            auto number = [](const RunSide& s) {
                return s.count && s.line > 0 ? QString::number(s.line) : QStringLiteral("—");
            };
            const QString file = QFileInfo(QString::fromStdString(l.file)).fileName();
            // A frame without a line (a built-in function) is named by its "file" alone.
            if (l.base.line <= 0 && l.next.line <= 0) return file;
            const QString base = number(l.base), next = number(l.next);
            return file + QLatin1Char(':') +
                   (base == next ? base : base + QStringLiteral("→") + next);
        }
        case Function:
            return QString::fromStdString(l.function);
        case Code:
            return QString::fromStdString(l.code).trimmed();
        case Base:
            return timeText(l.base, baseNs(row));
        case New:
            return timeText(l.next, nextNs(row));
        case Delta:
            return deltaText(deltaOf(row));
        case Ratio:
            return ratioText(baseNs(row), nextNs(row));
        case Launches:
            return countText(l.base.count, l.next.count);
    }
    return {};
}

QVariant DiffLinesModel::extra(int row, int column, int role) const {
    const DiffLine& l = line(row);
    if (role == Qt::BackgroundRole) return tint(row);
    if (role == kSortRole) {
        switch (column) {
            case Where:
                return QString::fromStdString(l.file) +
                       QStringLiteral(":%1").arg(l.base.line, 8, 10, QLatin1Char('0'));
            case Base:
                return qlonglong(baseNs(row));
            case New:
                return qlonglong(nextNs(row));
            case Delta:
                return qlonglong(deltaOf(row));
            case Ratio:
                return ratioKey(baseNs(row), nextNs(row));
            case Launches:
                return qulonglong(l.next.count);
        }
    }
    if (role == Qt::TextAlignmentRole && column >= Base) return int(kRight);
    if (role == Qt::ToolTipRole && column <= Code)
        return tr("%1\nin %2\nbase: line %3, new: line %4")
            .arg(QString::fromStdString(l.file), QString::fromStdString(l.function))
            .arg(l.base.count ? QString::number(l.base.line) : tr("absent"))
            .arg(l.next.count ? QString::number(l.next.line) : tr("absent"));
    if (role == Qt::ToolTipRole && (column == Base || column == New)) {
        const bool base = column == Base;
        const RunSide& s = base ? l.base : l.next;
        const int64_t total = diff_->compared(s.totalNs, !base);
        return tr("self %1, total %2 (with the lines it calls)")
            .arg(formatDuration(base ? baseNs(row) : nextNs(row)), formatDuration(total));
    }
    return {};
}

DiffKernelsModel::DiffKernelsModel()
    : DiffTableModel({tr("Kernel"), tr("Base count"), tr("New count"), tr("Base"), tr("New"),
                      tr("Delta"), tr("Ratio")}) {}

int DiffKernelsModel::size() const {
    return int(diff_->kernels.size());
}

int64_t DiffKernelsModel::baseNs(int row) const {
    return diff_->compared(kernel(row).base.totalNs, false);
}

int64_t DiffKernelsModel::nextNs(int row) const {
    return diff_->compared(kernel(row).next.totalNs, true);
}

QVariant DiffKernelsModel::text(int row, int column) const {
    const DiffKernel& k = kernel(row);
    switch (column) {
        case Kernel: {
            // Inductor renamed it between compiles: both names, marked.
            if (k.renamed)
                return tr("%1 → %2 (renamed)")
                    .arg(QString::fromStdString(k.baseName), QString::fromStdString(k.nextName));
            return QString::fromStdString(k.base.count ? k.baseName : k.nextName);
        }
        case BaseCount:
            return qulonglong(k.base.count);
        case NewCount:
            return qulonglong(k.next.count);
        case Base:
            return timeText(k.base, baseNs(row));
        case New:
            return timeText(k.next, nextNs(row));
        case Delta:
            return deltaText(deltaOf(row));
        case Ratio:
            return ratioText(baseNs(row), nextNs(row));
    }
    return {};
}

QVariant DiffKernelsModel::extra(int row, int column, int role) const {
    const DiffKernel& k = kernel(row);
    if (role == Qt::BackgroundRole) return tint(row);
    if (role == kSortRole) {
        switch (column) {
            case Base:
                return qlonglong(baseNs(row));
            case New:
                return qlonglong(nextNs(row));
            case Delta:
                return qlonglong(deltaOf(row));
            case Ratio:
                return ratioKey(baseNs(row), nextNs(row));
        }
    }
    if (role == Qt::TextAlignmentRole && column >= BaseCount) return int(kRight);
    if (role == Qt::ToolTipRole && column == Kernel && k.renamed)
        return tr("base: %1\nnew: %2\nInductor renamed this kernel between the runs: the names "
                  "differ only in their trailing index, and its source line and fused ops agree.")
            .arg(QString::fromStdString(k.baseName), QString::fromStdString(k.nextName));
    if (role == Qt::FontRole && column == Kernel && k.renamed) {
        QFont italic;
        italic.setItalic(true);
        return italic;
    }
    return {};
}
