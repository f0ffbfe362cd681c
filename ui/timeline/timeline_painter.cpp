#include "timeline/timeline_painter.h"

#include <QFontMetrics>
#include <algorithm>
#include <tuple>

#include "widgets/palette.h"
#include "widgets/time_text.h"

using G = TimelineGeometry;

namespace {

// Slices at least this wide are drawn one by one, with a 1-px gap so neighbours stay apart;
// thinner ones merge into runs.
constexpr int kWide = 4;
constexpr int kLabelMinWidth = 36;
constexpr int kUnresolvedBand = 6;
// A collapsed process shows this many of its busiest tracks.
constexpr size_t kCollapsedLanes = 3;
constexpr uint8_t kNoStyle = 0xff;

// Pixel columns [start, end) painted as one piece, and what decides how (a style, or a band
// height). A span of the same kind that touches the run widens it; any other span hands the run
// to `paint` and starts the next.
template <typename Kind>
struct ColumnRun {
    int start = 0, end = 0;
    Kind kind{};
    bool open = false;

    template <typename Paint>
    void add(int a, int b, Kind k, Paint&& paint) {
        if (open && k == kind && a <= end) {
            end = std::max(end, b);
            return;
        }
        close(paint);
        open = true;
        start = a;
        end = b;
        kind = k;
    }
    template <typename Paint>
    void close(Paint&& paint) {
        if (open) paint(start, end, kind);
        open = false;
    }
};

}  // namespace

void TimelineGeometry::layoutRows(const TrackModel& model) {
    const auto& rows = model.rows();
    rowTop.resize(rows.size());
    int y = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
        // A gap after each track's last row.
        if (i > 0 && rows[i].track != rows[i - 1].track &&
            rows[i - 1].kind != TrackModel::RowKind::ProcessHeader)
            y += kTrackGap;
        rowTop[i] = y;
        y += rowHeight(rows[i].kind);
    }
    contentHeight = y + kTrackGap;
}

int TimelineGeometry::rowHeight(TrackModel::RowKind kind) {
    switch (kind) {
        case TrackModel::RowKind::PinnedHeader:
        case TrackModel::RowKind::ProcessHeader:
            return kHeaderHeight;
        case TrackModel::RowKind::Instants:
            return kInstantHeight;
        case TrackModel::RowKind::Counter:
            return kCounterHeight;
        case TrackModel::RowKind::Slices:
        case TrackModel::RowKind::Folded:
            break;
    }
    return kSliceHeight;
}

int TimelineGeometry::rowAt(const TrackModel& model, int y) const {
    if (y < kRulerHeight) return -1;
    const int cy = y - kRulerHeight + scrollY;
    auto it = std::upper_bound(rowTop.begin(), rowTop.end(), cy);
    if (it == rowTop.begin()) return -1;
    const int row = int(it - rowTop.begin()) - 1;
    return cy < rowTop[size_t(row)] + rowHeight(model.rows()[size_t(row)].kind) ? row : -1;
}

std::pair<int, int> TimelineGeometry::columns(int64_t start, int64_t end, int minWidth) const {
    const double xs = std::max(xOf(start), double(left - 2));
    const double xe = std::min(xOf(end), double(right + 2));
    const int a = int(std::floor(xs));
    return {a, std::max(a + minWidth, int(std::ceil(xe)))};
}

TimelinePainter::TimelinePainter(const TrackModel& model)
    : model_(model),
      batches_(size_t(SliceStyle::Count)),
      gutter_(uiColor(UiColor::Gutter)),
      header_(uiColor(UiColor::ProcessHeader)),
      rowEven_(uiColor(UiColor::RowEven)),
      rowOdd_(uiColor(UiColor::RowOdd)),
      text_(uiColor(UiColor::Text)),
      line_(uiColor(UiColor::Line)),
      remark_(uiColor(UiColor::Remark)) {
    font_.setPointSizeF(8.5);
    boldFont_ = font_;
    boldFont_.setBold(true);
}

const QString& TimelinePainter::nameText(uint32_t id) {
    if (names_.size() < model_.nameIdCount()) {
        names_.resize(model_.nameIdCount());
        nameWidths_.resize(model_.nameIdCount(), -1);
    }
    if (nameWidths_[id] < 0) {
        names_[id] = model_.nameText(id);
        nameWidths_[id] = QFontMetrics(font_).horizontalAdvance(names_[id]);
    }
    return names_[id];
}

void TimelinePainter::paintTracks(QPainter& p, const TimelineGeometry& g, int width, int height) {
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    p.fillRect(QRect(0, 0, width, height), rowEven_);
    const auto& rows = model_.rows();
    // The first row reaching below the ruler.
    const int first = std::max(
        0,
        int(std::upper_bound(g.rowTop.begin(), g.rowTop.end(), g.scrollY) - g.rowTop.begin()) - 1);
    for (auto& b : batches_) b.clear();
    labels_.clear();

    // Backgrounds and gutter first, then all slices batched by colour, then what goes on top.
    int last = first;
    for (size_t r = size_t(first); r < rows.size(); ++r) {
        const int y = g.rowY(int(r));
        if (y >= height) break;
        last = int(r);
        const TrackModel::Row& row = rows[r];
        const int h = G::rowHeight(row.kind);
        if (row.kind == TrackModel::RowKind::Counter) {
            p.fillRect(QRect(g.left, y, width - g.left, h), rowOdd_);
            paintCounter(p, row, g, y);
            continue;
        }
        if (row.isHeader()) {
            p.fillRect(QRect(0, y, width, h), header_);
            if (row.kind == TrackModel::RowKind::ProcessHeader && model_.isCollapsed(row.process))
                paintCollapsedProcess(row.process, g, y);
            continue;
        }
        // Tracks alternate backgrounds; the gap above a track shows the header colour.
        p.fillRect(QRect(g.left, y, width - g.left, h), row.track % 2 ? rowOdd_ : rowEven_);
        if (row.kind == TrackModel::RowKind::Slices) paintSlices(row, g, y);
        if (row.kind == TrackModel::RowKind::Folded)
            paintSummary(row.track, row.level, g, y + 1, G::kSliceHeight - 2);
    }
    p.setPen(Qt::NoPen);
    for (size_t s = 0; s < batches_.size(); ++s) {
        if (batches_[s].empty()) continue;
        p.setBrush(sliceColor(SliceStyle(s)));
        p.drawRects(batches_[s].data(), int(batches_[s].size()));
    }
    paintLabels(p);
    for (int r = first; r <= last && r < int(rows.size()); ++r) {
        const TrackModel::Row& row = rows[size_t(r)];
        if (row.kind == TrackModel::RowKind::Slices) paintHighlights(p, row, g, g.rowY(r));
        if (row.kind == TrackModel::RowKind::Instants) paintInstants(p, row, g, g.rowY(r));
        // No summary may hide an unresolved kernel either.
        if (row.kind == TrackModel::RowKind::Folded)
            for (int l = row.level; l < model_.levelCount(row.track); ++l)
                paintHighlights(p, {row.kind, row.process, row.track, uint16_t(l)}, g, g.rowY(r));
    }
    paintScopedInstants(p, g, first, last);

    // Gutter and headers over the plot, so labels are never covered.
    p.fillRect(QRect(0, 0, g.left, height), gutter_);
    p.setPen(line_);
    p.drawLine(g.left - 1, 0, g.left - 1, height);
    for (int r = first; r <= last && r < int(rows.size()); ++r) {
        const TrackModel::Row& row = rows[size_t(r)];
        // Which of its track's rows this is (0, 1, or 2 for any later one).
        int nth = 0;
        while (nth < 2 && r - nth > 0 && rows[size_t(r - nth - 1)].track == row.track) ++nth;
        paintGutterLabel(p, row, g, g.rowY(r), nth);
    }
}

void TimelinePainter::paintGutterLabel(QPainter& p, const TrackModel::Row& row,
                                       const TimelineGeometry& g, int y, int nth) {
    const int h = G::rowHeight(row.kind);
    const QFontMetrics fm(font_), bfm(boldFont_);
    if (row.kind == TrackModel::RowKind::Counter) {
        const stackline::CounterSeries& s = model_.counter(row);
        p.setFont(font_);
        p.setPen(text_);
        const int w = g.left - 24;
        p.drawText(QRect(16, y, w, h / 2), Qt::AlignBottom | Qt::AlignLeft,
                   fm.elidedText(QString::fromStdString(s.name), Qt::ElideRight, w));
        p.setPen(remark_);
        const QString range = TrackModel::counterValueText(s, s.min) + QStringLiteral(" – ") +
                              TrackModel::counterValueText(s, s.max);
        p.drawText(QRect(16, y + h / 2, w, h / 2), Qt::AlignTop | Qt::AlignLeft,
                   fm.elidedText(range, Qt::ElideRight, w));
        return;
    }
    if (row.isHeader()) {
        // A collapsed process's plot area holds its summary: the label stays in the gutter.
        const bool pinned = row.kind == TrackModel::RowKind::PinnedHeader;
        const bool collapsed = !pinned && model_.isCollapsed(row.process);
        const int right = collapsed ? g.left : g.right;
        p.fillRect(QRect(0, y, right, h), header_);
        QString text = pinned ? QStringLiteral("Pinned tracks")
                              : (collapsed ? QStringLiteral("▸ ") : QStringLiteral("▾ ")) +
                                    model_.processLabel(row.process);
        if (const int hidden = pinned ? 0 : model_.hiddenCount(row.process))
            text += QStringLiteral(" · %1 hidden").arg(hidden);
        p.setFont(boldFont_);
        p.setPen(text_);
        p.drawText(QRect(6, y, right - 12, h), Qt::AlignVCenter | Qt::AlignLeft,
                   bfm.elidedText(text, Qt::ElideRight, right - 12));
        return;
    }
    p.setFont(font_);
    if (row.kind == TrackModel::RowKind::Folded) {
        p.setPen(remark_);
        const int deeper = model_.levelCount(row.track) - row.level;
        p.drawText(QRect(16, y, g.left - 20, G::kSliceHeight), Qt::AlignVCenter | Qt::AlignLeft,
                   QStringLiteral("▸ %1 deeper levels").arg(deeper));
        return;
    }
    // A pinned track, away from its process, names it: on its second slice row, or with its name
    // when it has no second one.
    const bool pinned = model_.isPinned(row.track);
    const bool alone = model_.shownLevels(row.track) <= 1;
    QString name;
    if (nth == 0)
        name = pinned && alone ? model_.qualifiedLabel(row.track) : model_.trackLabel(row.track);
    else if (nth == 1 && pinned)
        name = model_.processLabel(row.process);
    if (name.isEmpty()) return;
    p.setPen(nth == 0 ? text_ : remark_);
    p.drawText(QRect(16, y, g.left - 20, G::kSliceHeight), Qt::AlignVCenter | Qt::AlignLeft,
               fm.elidedText(name, Qt::ElideRight, g.left - 24));
}

void TimelinePainter::paintSummary(uint32_t track, int from, const TimelineGeometry& g, int top,
                                   int h) {
    const int width = g.right - g.left;
    if (width <= 0) return;
    columnStyles_.assign(size_t(width), kNoStyle);
    // Deeper levels overwrite shallower ones, as on the expanded track the deepest slice is the
    // most specific. Per level the same skipping as paintSlices: one search per filled column.
    for (int l = from; l < model_.levelCount(track); ++l) {
        const auto& lv = model_.level(track, l);
        const std::vector<uint8_t>& styles = model_.levelStyles(track, l);
        for (size_t i = lv.firstEndingAtOrAfter(g.t0); i < lv.size() && lv.start[i] <= g.t1;) {
            auto [a, b] = g.columns(lv.start[i], lv.end[i]);
            a = std::max(a, g.left);
            b = std::min(b, g.right);
            if (a < b)
                std::fill(columnStyles_.begin() + (a - g.left),
                          columnStyles_.begin() + (b - g.left), styles[i]);
            i = lv.firstEndingAtOrAfter(g.timeAt(b), i + 1);
        }
    }
    for (int x = 0; x < width;) {
        const uint8_t style = columnStyles_[size_t(x)];
        int end = x + 1;
        while (end < width && columnStyles_[size_t(end)] == style) ++end;
        if (style != kNoStyle) batches_[style].emplace_back(g.left + x, top, end - x, h);
        x = end;
    }
}

void TimelinePainter::paintCollapsedProcess(uint32_t process, const TimelineGeometry& g, int y) {
    const std::vector<uint32_t> lanes = model_.busiestTracks(process, kCollapsedLanes);
    if (lanes.empty()) return;
    const int n = int(lanes.size());
    const int inner = G::kHeaderHeight - 4;
    const int h = (inner - (n - 1)) / n;
    for (int i = 0; i < n; ++i) paintSummary(lanes[size_t(i)], 0, g, y + 2 + i * (h + 1), h);
}

void TimelinePainter::paintSlices(const TrackModel::Row& row, const TimelineGeometry& g, int y) {
    const auto& lv = model_.level(row);
    const std::vector<uint8_t>& styles = model_.levelStyles(row);
    const int top = y + 1, h = G::kSliceHeight - 2;
    const size_t n = lv.size();
    ColumnRun<int> run;
    auto paint = [&](int a, int b, int style) {
        batches_[size_t(style)].emplace_back(a, top, b - a, h);
    };
    for (size_t i = lv.firstEndingAtOrAfter(g.t0); i < n && lv.start[i] <= g.t1;) {
        auto [a, b] = g.columns(lv.start[i], lv.end[i]);
        const int style = styles[i];
        if (b - a >= kWide) {
            run.close(paint);
            batches_[size_t(style)].emplace_back(a, top, b - a - 1, h);
            if (b - a >= kLabelMinWidth)
                labels_.push_back({QRect(a, top, b - a - 1, h), lv.row[i]});
        } else {
            run.add(a, b, style, paint);
        }
        // Every further slice ending before the last filled column would land on filled pixels
        // (a wide slice leaves its last column empty as a gap).
        i = lv.firstEndingAtOrAfter(g.timeAt(b - (b - a >= kWide ? 1 : 0)), i + 1);
    }
    run.close(paint);
}

void TimelinePainter::paintLabels(QPainter& p) {
    if (labels_.empty()) return;
    p.setFont(font_);
    p.setPen(text_);
    const QFontMetrics fm(font_);
    for (const Label& l : labels_) {
        const QRect text = l.rect.adjusted(3, 0, -2, 0);
        const uint32_t id = model_.nameId(l.event);
        const QString& name = nameText(id);
        if (nameWidths_[id] <= text.width())
            p.drawText(text, Qt::AlignVCenter | Qt::AlignLeft, name);
        else
            p.drawText(text, Qt::AlignVCenter | Qt::AlignLeft,
                       fm.elidedText(name, Qt::ElideRight, text.width()));
    }
}

void TimelinePainter::paintOutlined(QPainter& p, std::vector<QRect> boxes, const QColor& fill,
                                    const QColor& outline, int border) {
    std::sort(boxes.begin(), boxes.end(), [](const QRect& a, const QRect& b) {
        return std::tuple(a.top(), a.left(), -a.right(), a.bottom()) <
               std::tuple(b.top(), b.left(), -b.right(), b.bottom());
    });
    const QRect* last = nullptr;
    for (const QRect& r : boxes) {
        // Inside the box just painted (thin kernels at a wide zoom share their pixels).
        if (last && r.top() == last->top() && r.bottom() == last->bottom() &&
            r.right() <= last->right())
            continue;
        last = &r;
        const QRect inner = r.adjusted(border, border, -border, -border);
        if (inner.isValid()) p.fillRect(inner, fill);
        if (!inner.isValid()) {
            p.fillRect(r, outline);
            continue;
        }
        p.fillRect(QRect(r.left(), r.top(), r.width(), border), outline);
        p.fillRect(QRect(r.left(), inner.bottom() + 1, r.width(), border), outline);
        p.fillRect(QRect(r.left(), inner.top(), border, inner.height()), outline);
        p.fillRect(QRect(inner.right() + 1, inner.top(), border, inner.height()), outline);
    }
}

void TimelinePainter::paintUnresolved(QPainter& p, const QRect& r) {
    p.fillRect(r, sliceColor(SliceStyle::KernelUnresolved));
    if (r.width() > 6) p.fillRect(r, unresolvedHatch());
    p.setPen(unresolvedOutline());
    p.setBrush(Qt::NoBrush);
    p.drawRect(r.adjusted(0, 0, -1, -1));
}

void TimelinePainter::paintHighlights(QPainter& p, const TrackModel::Row& row,
                                      const TimelineGeometry& g, int y) {
    const TrackModel::Highlights& hl = model_.highlights(row);
    const size_t n = hl.index.size();
    if (n == 0) return;
    auto cols = [&](size_t k) { return g.columns(hl.start[k], hl.end[k], G::kUnresolvedMinWidth); };
    const QRect clip(g.left, y, g.right - g.left, G::kSliceHeight);
    // Touching highlights merge into one run, so a dense stretch reads as one bar. Those ending
    // inside the run are skipped with one search; the last of them can only widen it. Kernels too
    // thin to see get a band across the top of the row instead of the full height, so a stretch
    // full of them still shows what else runs there.
    const double minNs = g.nsPerPixel() * G::kUnresolvedMinWidth;
    ColumnRun<bool> run;  // kind: too thin to see
    auto paint = [&](int a, int b, bool thin) {
        if (b <= a) return;
        const int h = thin ? kUnresolvedBand : G::kSliceHeight - 2;
        paintUnresolved(p, QRect(a, y + 1, b - a, h).intersected(clip));
    };
    for (size_t k = hl.firstEndingAtOrAfter(g.t0); k < n && hl.start[k] <= g.t1;) {
        auto [a, b] = cols(k);
        run.add(a, b, double(hl.end[k] - hl.start[k]) < minNs, paint);
        const size_t next = hl.firstEndingAtOrAfter(g.timeAt(run.end), k + 1);
        if (next - k > 1) run.end = std::max(run.end, cols(next - 1).second);
        k = next;
    }
    run.close(paint);
}

void TimelinePainter::paintCounter(QPainter& p, const TrackModel::Row& row,
                                   const TimelineGeometry& g, int y) {
    const stackline::CounterSeries& s = model_.counter(row);
    if (s.ts.empty()) return;
    // From the series' minimum to its maximum (the header names both), so that a few MiB of
    // change on 90 MiB stay visible; a constant series fills its row.
    const double lo = s.min < s.max ? s.min : std::min(0.0, s.min);
    const double span = std::max(s.max - lo, 1e-12);
    const int top = y + 2, h = G::kCounterHeight - 4;
    auto yOf = [&](double v) { return top + h - int(std::lround((v - lo) / span * h)); };
    const int zero = yOf(std::max(lo, 0.0));
    QColor fill = sliceColor(SliceStyle(0));
    QColor edge = fill.darker(160);
    fill.setAlpha(150);
    std::vector<QRect> bars;
    std::vector<QLine> edges;
    const int from = std::max(g.left, int(std::floor(g.xOf(s.ts.front()))));
    size_t i = 0;
    for (int x = from; x < g.right; ++x) {
        const int64_t a = g.timeAt(x), b = g.timeAt(x + 1);
        // The value in force at the column's start, then every point within it.
        i = s.firstAtOrAfter(a);
        double vmin, vmax;
        if (i < s.ts.size() && s.ts[i] == a) {
            vmin = vmax = s.value[i];
        } else if (i > 0) {
            vmin = vmax = s.value[i - 1];
        } else if (i < s.ts.size() && s.ts[i] < b) {
            vmin = vmax = s.value[i];
        } else {
            continue;
        }
        for (; i < s.ts.size() && s.ts[i] < b; ++i) {
            vmin = std::min(vmin, s.value[i]);
            vmax = std::max(vmax, s.value[i]);
        }
        const int y1 = yOf(vmax), y0 = yOf(vmin);
        bars.emplace_back(QPoint(x, std::min(y1, zero)), QPoint(x, std::max(y1, zero) - 1));
        edges.emplace_back(x, y1, x, y0);
    }
    p.setPen(Qt::NoPen);
    p.setBrush(fill);
    p.drawRects(bars.data(), int(bars.size()));
    p.setPen(edge);
    p.drawLines(edges.data(), int(edges.size()));
}

void TimelinePainter::paintInstants(QPainter& p, const TrackModel::Row& row,
                                    const TimelineGeometry& g, int y) {
    const auto& ts = model_.instantTimes(row);
    p.setPen(Qt::NoPen);
    p.setBrush(sliceColor(SliceStyle::Instant));
    auto it = std::lower_bound(ts.begin(), ts.end(), g.t0);
    while (it != ts.end() && *it <= g.t1) {
        const int x = int(std::floor(g.xOf(*it)));
        p.drawRect(QRect(x - 1, y + 2, 3, G::kInstantHeight - 4));
        it = std::lower_bound(it + 1, ts.end(), g.timeAt(x + 2));
    }
}

void TimelinePainter::paintScopedInstants(QPainter& p, const TimelineGeometry& g, int first,
                                          int last) {
    const auto& instants = model_.document()->tracks.scopedInstants();
    auto it =
        std::lower_bound(instants.begin(), instants.end(), g.t0,
                         [](const stackline::ScopedInstant& s, int64_t t) { return s.ts < t; });
    if (it == instants.end() || it->ts > g.t1) return;
    const auto& rows = model_.rows();
    QColor colour = sliceColor(SliceStyle::Instant);
    colour.setAlpha(170);
    p.setPen(QPen(colour, 1, Qt::DashLine));
    for (; it != instants.end() && it->ts <= g.t1; ++it) {
        const int x = int(std::floor(g.xOf(it->ts)));
        // Global: every row; process scope: its header and its tracks.
        int top = -1, bottom = -1;
        for (int r = first; r <= last && r < int(rows.size()); ++r) {
            const TrackModel::Row& row = rows[size_t(r)];
            const bool covered =
                it->process == stackline::kNoProcess ||
                (row.kind != TrackModel::RowKind::PinnedHeader && row.process == it->process);
            if (covered && top < 0) top = g.rowY(r);
            if (covered) bottom = g.rowY(r) + G::rowHeight(row.kind);
            if ((!covered || r == last) && top >= 0) {
                p.drawLine(x, std::max(top, G::kRulerHeight), x, bottom - 1);
                top = -1;
            }
        }
    }
}

void TimelinePainter::paintRuler(QPainter& p, const TimelineGeometry& g, int width,
                                 int64_t origin) const {
    const int h = G::kRulerHeight;
    p.fillRect(QRect(0, 0, width, h), uiColor(UiColor::Ruler));
    p.setPen(line_);
    p.drawLine(0, h - 1, width, h - 1);
    // 1-2-5 steps, about 110 px apart.
    const double target = g.nsPerPixel() * 110;
    int64_t step = 1;
    for (int64_t mag = 1; step < target; mag *= 10) {
        for (int64_t m : {1, 2, 5}) {
            step = m * mag;
            if (step >= target) break;
        }
        if (mag > INT64_MAX / 100) break;
    }
    p.setFont(font_);
    const int64_t rel0 = g.t0 - origin;
    int64_t tick = (rel0 >= 0 ? rel0 / step : -((-rel0 + step - 1) / step)) * step;
    const int64_t magnitude = std::max(std::llabs(g.t0 - origin), std::llabs(g.t1 - origin));
    for (; tick + origin <= g.t1; tick += step) {
        const int x = int(std::lround(g.xOf(tick + origin)));
        if (x < g.left) continue;
        p.setPen(line_);
        p.drawLine(x, h - 8, x, h - 1);
        p.setPen(text_);
        p.drawText(QRect(x + 3, 0, 120, h - 4), Qt::AlignBottom | Qt::AlignLeft,
                   formatTick(tick, step, magnitude));
    }
    p.fillRect(QRect(0, 0, g.left, h), gutter_);
    p.setPen(text_);
    p.drawText(QRect(8, 0, g.left - 12, h - 2), Qt::AlignVCenter | Qt::AlignLeft,
               QStringLiteral("window %1").arg(formatDuration(g.t1 - g.t0)));
    p.setPen(line_);
    p.drawLine(g.left - 1, 0, g.left - 1, h);
}
