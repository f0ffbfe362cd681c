// Paints the timeline's tracks with per-pixel level of detail, the way Qt Creator's raster track
// painter does: per level only the visible range is walked (binary search), a slice narrower than
// a pixel column fills that column and every other slice ending in it is skipped with one more
// search, runs of thin slices of one style merge into one rect, and rects are batched by colour.
// A repaint therefore costs about (visible rows x pixel columns x log n), whatever the event count.
#pragma once

#include <QFont>
#include <QPainter>
#include <QRect>
#include <QString>
#include <cmath>
#include <cstdint>
#include <vector>

#include "timeline/track_model.h"

// Where rows and times land on screen. Content y is y within all rows; viewport y adds the ruler
// and subtracts the vertical scroll.
struct TimelineGeometry {
    static constexpr int kRulerHeight = 26;
    static constexpr int kGutterWidth = 200;
    static constexpr int kHeaderHeight = 22;
    static constexpr int kSliceHeight = 18;
    static constexpr int kInstantHeight = 12;
    static constexpr int kCounterHeight = 32;
    static constexpr int kTrackGap = 4;
    static constexpr int kUnresolvedMinWidth = 5;  // never thinner, so they cannot be missed

    std::vector<int> rowTop;  // content y of each model row
    int contentHeight = 0;
    int64_t t0 = 0, t1 = 1;                             // visible window
    int left = kGutterWidth, right = kGutterWidth + 1;  // plot area in viewport x
    int scrollY = 0;

    void layoutRows(const TrackModel& model);
    static int rowHeight(TrackModel::RowKind kind);
    // The model row at viewport y, or -1.
    int rowAt(const TrackModel& model, int y) const;
    int rowY(int row) const { return kRulerHeight + rowTop[size_t(row)] - scrollY; }

    double nsPerPixel() const { return double(t1 - t0) / double(std::max(1, right - left)); }
    double xOf(int64_t t) const { return left + double(t - t0) / nsPerPixel(); }
    int64_t timeAt(double x) const { return t0 + int64_t(std::llround((x - left) * nsPerPixel())); }
    // Pixel columns [a, b) a slice covers, at least minWidth.
    std::pair<int, int> columns(int64_t start, int64_t end, int minWidth = 1) const;
};

class TimelinePainter {
public:
    explicit TimelinePainter(const TrackModel& model);

    // Track backgrounds, gutter labels, slices, instants and unresolved-kernel highlights for the
    // viewport rows of g, in a painter sized width x height.
    void paintTracks(QPainter& p, const TimelineGeometry& g, int width, int height);
    // The time axis at the top, ticks labelled relative to the trace start.
    void paintRuler(QPainter& p, const TimelineGeometry& g, int width, int64_t origin) const;
    // Unresolved kernels: saturated fill, hatch and outline.
    static void paintUnresolved(QPainter& p, const QRect& r);
    // Boxes filled and outlined `border` pixels wide, each pixel box once: thousands of them (a
    // hotspot's kernels) paint in a millisecond, where a stroked pen costs a path per box.
    static void paintOutlined(QPainter& p, std::vector<QRect> boxes, const QColor& fill,
                              const QColor& outline, int border);

private:
    struct Label {
        QRect rect;
        uint32_t event;
    };
    void paintSlices(const TrackModel::Row& row, const TimelineGeometry& g, int y);
    // Levels [from, levelCount) of a track in one band: each pixel column in the style of the
    // deepest slice covering it. A Folded row, and a lane of a collapsed process's header.
    void paintSummary(uint32_t track, int from, const TimelineGeometry& g, int top, int h);
    // A collapsed process's header: its busiest tracks as thin lanes.
    void paintCollapsedProcess(uint32_t process, const TimelineGeometry& g, int y);
    // nth: which of its track's rows row is (2 for any after the second).
    void paintGutterLabel(QPainter& p, const TrackModel::Row& row, const TimelineGeometry& g, int y,
                          int nth);
    void paintHighlights(QPainter& p, const TrackModel::Row& row, const TimelineGeometry& g, int y);
    // A counter series as a filled step graph: per pixel column the highest value in force
    // filled, and the column's range of values as a darker line.
    void paintCounter(QPainter& p, const TrackModel::Row& row, const TimelineGeometry& g, int y);
    void paintInstants(QPainter& p, const TrackModel::Row& row, const TimelineGeometry& g, int y);
    // Instants of global or process scope: a dashed line across the rows they cover.
    void paintScopedInstants(QPainter& p, const TimelineGeometry& g, int first, int last);
    void paintLabels(QPainter& p);
    // A name's text by name id, converted and measured on first use.
    const QString& nameText(uint32_t id);

    const TrackModel& model_;
    QFont font_, boldFont_;
    std::vector<std::vector<QRect>> batches_;  // per SliceStyle
    std::vector<Label> labels_;
    std::vector<uint8_t> columnStyles_;  // paintSummary's scratch, per pixel column
    std::vector<QString> names_;         // per name id
    std::vector<int> nameWidths_;
    const QColor gutter_, header_, rowEven_, rowOdd_, text_, line_, remark_;
};
