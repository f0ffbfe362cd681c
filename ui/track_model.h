// The timeline's rows, built from the core's TrackIndex: a header row per process, then per track
// its slice levels and, when it has instant events, one instant row. Knows nothing of pixels:
// the view decides heights. Also decides each event's SliceStyle once, so painting reads one byte.
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

    explicit TrackModel(std::shared_ptr<const Document> doc);

    const Document& doc() const { return *doc_; }
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
    };
    const Highlights& highlights(const Row& r) const { return highlights_[r.track][r.level]; }

    const stackline::TrackLevel& level(const Row& r) const {
        return doc_->tracks.tracks()[r.track].levels[r.level];
    }
    QString processLabel(uint32_t process) const;
    QString trackLabel(uint32_t track) const;

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
