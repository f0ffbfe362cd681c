// The timeline's rows, built from the core's TrackIndex and the user's TrackLayout: pinned tracks
// first (under a header of their own), then a header row per process, then per track its slice
// levels (a depth-limited track's deeper levels summarised in one Folded row) and, when it has
// instant events, one instant row. GPU processes come before CPU processes unless the layout says
// otherwise: the viewer is about kernels, and a few stream rows above the CPU threads keep both in
// the first view, while CPU stacks below GPU rows would push them out of it. Knows nothing of
// pixels: the view decides heights. Also decides each event's SliceStyle once, so painting reads
// one byte. The timeline reads everything it paints and tells through this class, never the
// document.
#pragma once

#include <QString>
#include <memory>
#include <vector>

#include "state/viewed_trace.h"
#include "timeline/track_layout.h"
#include "widgets/palette.h"

class TrackModel {
public:
    // Folded: the levels from `level` down, summarised. Counter: one counter series' graph,
    // under its process's tracks.
    enum class RowKind : uint8_t { PinnedHeader, ProcessHeader, Slices, Folded, Instants, Counter };
    struct Row {
        RowKind kind;
        uint32_t process;      // the track's process for track rows; 0 for the pinned header
        uint32_t track;        // kNoTrack for headers and counters
        uint16_t level;        // for Slices and Folded
        uint32_t counter = 0;  // for Counter: index into ViewedTrace::counters

        // A process's or the pinned tracks' header (a counter row has no track either).
        bool isHeader() const {
            return kind == RowKind::PinnedHeader || kind == RowKind::ProcessHeader;
        }
    };

    static constexpr uint32_t kNoEvent = stackline::kNoRow;

    explicit TrackModel(std::shared_ptr<const ViewedTrace> doc, TrackLayout arrangement = {});

    // Whose events these are (the selection and highlight name their document).
    const ViewedTrace* document() const { return doc_.get(); }
    const std::vector<Row>& rows() const { return rows_; }
    // The display row holding an event; -1 when it has none or its process is collapsed.
    int rowOf(uint32_t event) const;

    SliceStyle styleOf(uint32_t event) const { return SliceStyle(styles().style[event]); }
    // Styles of a Slices row's slices in level order: painting reads them sequentially.
    const std::vector<uint8_t>& levelStyles(const Row& r) const {
        return styles().levelStyles[r.track][r.level];
    }
    // A Slices row's unresolved kernels (TrackStyles::Unresolved).
    using Highlights = TrackStyles::Unresolved;
    const Highlights& highlights(const Row& r) const {
        return styles().unresolved[r.track][r.level];
    }

    const stackline::TrackLevel& level(const Row& r) const { return level(r.track, r.level); }
    const stackline::TrackLevel& level(uint32_t track, int level) const {
        return doc_->tracks.tracks()[track].levels[size_t(level)];
    }
    const std::vector<uint8_t>& levelStyles(uint32_t track, int level) const {
        return styles().levelStyles[track][size_t(level)];
    }
    const Highlights& highlights(uint32_t track, int level) const {
        return styles().unresolved[track][size_t(level)];
    }
    // The deepest slice of levels [from, levelCount) containing t, else the nearest one ending or
    // starting within tol of it; kNoEvent when none does. What a Folded row shows at t.
    uint32_t deepestAt(uint32_t track, int from, int64_t t, int64_t tol) const;
    // An Instants row's instant events, by time.
    const std::vector<int64_t>& instantTimes(const Row& r) const;
    uint32_t instantEvent(const Row& r, size_t i) const;
    const stackline::CounterSeries& counter(const Row& r) const {
        return doc_->counters.series()[r.counter];
    }
    // A counter value as shown: bytes of memory series in KiB/MiB/GiB, else the number.
    static QString counterValueText(const stackline::CounterSeries& s, double value);
    // A Counter row's tooltip at time t: the series' name and the value in force then.
    QString counterTip(const Row& r, int64_t t) const;
    QString processLabel(uint32_t process) const;
    QString trackLabel(uint32_t track) const;
    // A track's label naming its process, for where it stands apart from it (pinned, hidden):
    // "GPU 0 · stream 7".
    QString qualifiedLabel(uint32_t track) const;

    // One event, as painted and described.
    bool isInstant(uint32_t event) const;
    int64_t startOf(uint32_t event) const;
    // Start plus duration (a negative one counts as 0); an instant's start.
    int64_t endOf(uint32_t event) const;
    int64_t durationOf(uint32_t event) const;  // as recorded
    // The process of the event's track; -1 when it is on none.
    int processOf(uint32_t event) const;
    QString name(uint32_t event) const;  // demangled
    QString category(uint32_t event) const;
    // The innermost frame of its Python stack ("model.py:81 in forward"); empty without one.
    QString launchedAt(uint32_t event) const;
    // "annotated", "unresolved", ... for a GPU kernel; empty for every other event.
    QString kernelStatus(uint32_t event) const;
    // Names by string id, so that a painter can keep their text and width once per name.
    uint32_t nameId(uint32_t event) const;
    uint32_t nameIdCount() const;
    QString nameText(uint32_t id) const;
    // For a kernel the compiled region around its launch, for a CPU slice around itself; else
    // kNoEvent.
    uint32_t compiledRegionOf(uint32_t event) const;
    struct Flow {
        uint32_t from, to;
        bool launch;  // ac2g: a runtime call launching a kernel
    };
    std::vector<Flow> flowsOf(uint32_t event) const;

    // The arrangement. Each change rebuilds the rows; the view remembers trackLayout().
    const TrackLayout& trackLayout() const { return layout_; }
    void resetLayout();
    bool isCollapsed(uint32_t process) const { return collapsed_[process]; }
    void setCollapsed(uint32_t process, bool collapsed);
    bool isPinned(uint32_t track) const { return pinned_[track]; }
    void setPinned(uint32_t track, bool pinned);
    bool isHidden(uint32_t track) const { return hidden_[track]; }
    void setHidden(uint32_t track, bool hidden);
    std::vector<uint32_t> hiddenTracks() const;
    int hiddenCount(uint32_t process) const;
    // Levels of a track, and how many of them are rows (the rest are one Folded row).
    int levelCount(uint32_t track) const;
    int shownLevels(uint32_t track) const { return shown_[track]; }
    bool isFolded(uint32_t track) const { return shown_[track] < levelCount(track); }
    // Shows this many levels (TrackLayout::kAllLevels: all).
    void setDepth(uint32_t track, int levels);
    // Moves a track before or after another of its group (the pinned tracks, or its process's
    // other tracks). A target among the pinned tracks pins it; an unpinned target of its own
    // process unpins it. False when the target is in another process.
    bool moveTrack(uint32_t track, uint32_t target, bool after);
    // Moves a track by `delta` places among the visible tracks of its group.
    bool moveTrackBy(uint32_t track, int delta);
    bool moveProcess(uint32_t process, uint32_t target, bool after);
    bool moveProcessBy(uint32_t process, int delta);
    // Drops display row `source` (a track's row or a process header) on row `target`: the
    // header drag. False when nothing moves.
    bool dropRow(size_t source, size_t target);
    // Unhides, expands and deepens so that the event has a row of its own; true when anything
    // changed.
    bool showEvent(uint32_t event);
    // The process's tracks with the most busy time at their top level, busiest first: what a
    // collapsed process shows.
    std::vector<uint32_t> busiestTracks(uint32_t process, size_t n) const;

private:
    void layout();
    void addTrackRows(uint32_t track);
    // Display order of the group `track` is in (visible tracks only when `visible`).
    std::vector<uint32_t> groupOf(uint32_t track, bool visible) const;

    // The document's, else (a document made by hand) the model's own.
    const TrackStyles& styles() const { return ownStyles_.empty() ? doc_->styles : ownStyles_; }

    std::shared_ptr<const ViewedTrace> doc_;
    TrackStyles ownStyles_;
    std::vector<Row> rows_;
    TrackKeys keys_;
    TrackLayout layout_;
    // Derived from layout_ by layout(): display orders, flags by index, and where tracks are.
    std::vector<uint32_t> processOrder_, pinnedOrder_;
    std::vector<std::vector<uint32_t>> trackOrder_;  // per process: all its tracks
    std::vector<uint8_t> collapsed_, pinned_, hidden_;
    std::vector<int> shown_;  // per track
    std::vector<int> firstRowOfTrack_;
};
