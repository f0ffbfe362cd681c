// The timeline's rows, built from the core's TrackIndex: a header row per process, then per track
// its slice levels and, when it has instant events, one instant row. Knows nothing of pixels:
// the view decides heights. Also decides each event's SliceStyle once, so painting reads one byte.
// The timeline reads everything it paints and tells through this class, never the document.
#pragma once

#include <QString>
#include <memory>
#include <vector>

#include "document.h"
#include "palette.h"

class TrackModel {
public:
    enum class RowKind : uint8_t { ProcessHeader, Slices, Instants };
    struct Row {
        RowKind kind;
        uint32_t process;
        uint32_t track;  // kNoTrack for headers
        uint16_t level;  // for Slices
    };

    static constexpr uint32_t kNoEvent = stackline::kNoRow;

    explicit TrackModel(std::shared_ptr<const Document> doc);

    // Whose events these are (the selection and highlight name their document).
    const Document* document() const { return doc_.get(); }
    const std::vector<Row>& rows() const { return rows_; }
    // The display row holding an event; -1 when it has none or its process is collapsed.
    int rowOf(uint32_t event) const;

    SliceStyle styleOf(uint32_t event) const { return SliceStyle(style_[event]); }
    // Styles of a Slices row's slices in level order: painting reads them sequentially.
    const std::vector<uint8_t>& levelStyles(const Row& r) const {
        return levelStyles_[r.track][r.level];
    }
    // A Slices row's unresolved kernels, which the view paints over everything so that no level
    // of detail can hide them: their indexes in the level and, contiguous for searching, their
    // starts and ends.
    struct Highlights {
        std::vector<uint32_t> index;
        std::vector<int64_t> start, end;

        // The first at or after index from whose end is >= t.
        size_t firstEndingAtOrAfter(int64_t t, size_t from = 0) const {
            return stackline::gallopLowerBound(end, t, from);
        }
    };
    const Highlights& highlights(const Row& r) const { return highlights_[r.track][r.level]; }

    const stackline::TrackLevel& level(const Row& r) const {
        return doc_->tracks.tracks()[r.track].levels[r.level];
    }
    // An Instants row's instant events, by time.
    const std::vector<int64_t>& instantTimes(const Row& r) const;
    uint32_t instantEvent(const Row& r, size_t i) const;
    QString processLabel(uint32_t process) const;
    QString trackLabel(uint32_t track) const;

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

    bool isCollapsed(uint32_t process) const { return collapsed_[process]; }
    void setCollapsed(uint32_t process, bool collapsed);

private:
    void layout();
    std::shared_ptr<const Document> doc_;
    std::vector<uint8_t> style_;
    std::vector<Row> rows_;
    std::vector<std::vector<Highlights>> highlights_;             // per track, per level
    std::vector<std::vector<std::vector<uint8_t>>> levelStyles_;  // per track, per level
    std::vector<int> firstRowOfTrack_;
    std::vector<uint8_t> collapsed_;
};
