// How each event's stack was obtained, for the viewer to say (the outputs do not depend on it):
// already in the trace, or written by the processor from a kernel-information entry that names
// the kernel (_assign_stack) or from the only stack of a graph (_assign_single_stack, a guess);
// or, in a trace without compiled regions, shown (never written) by Stackline's own rule from the
// only graph that names the kernel (annotate/matched_by_name.h).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace stackline {

enum class StackOrigin : uint8_t {
    None,
    InTrace,      // args.stack was in the input and this run kept it
    Matched,      // the entry of the kernel's name, or of its extern call's name
    SingleStack,  // the only stack of a graph: a guess
    // The entry of the only graph naming the kernel, in a trace without compiled regions:
    // Stackline's rule, not the reference's. The row's stack is not written (Provenance::written).
    MatchedByName,
};

// Whether the origin has a StackSource (the processor's rules and Stackline's rule by name).
constexpr bool hasStackSource(StackOrigin o) {
    return o == StackOrigin::Matched || o == StackOrigin::SingleStack ||
           o == StackOrigin::MatchedByName;
}

// The kernel-information entry a written stack came from.
struct StackSource {
    std::string graphKey;
    std::string kernel;  // the name looked up (Matched, MatchedByName); empty for SingleStack
};

// Four bits per event (two rows a byte), and a source per event with a source only (traces have
// millions of events).
class StackOrigins {
public:
    void reset(std::size_t rows) { packed_.assign((rows + 1) / 2, 0); }
    void setInTrace(uint32_t row) { set(row, StackOrigin::InTrace); }
    uint32_t addSource(StackSource source);
    // This run writes row's stack from a source (an index from addSource); a later write to the
    // same row replaces it, as the reference's does.
    void setWritten(uint32_t row, StackOrigin origin, uint32_t source);
    // Stackline's rule by name shows row's stack from a source; nothing writes it.
    void setMatchedByName(uint32_t row, uint32_t source) {
        setWritten(row, StackOrigin::MatchedByName, source);
    }

    StackOrigin of(uint32_t row) const {
        // Beyond the last row, and in its byte's spare bits, None (0).
        return (row >> 1) < packed_.size() ? StackOrigin(packed_[row >> 1] >> (row & 1) * 4 & 15)
                                           : StackOrigin::None;
    }
    // For rows whose origin hasStackSource; nullptr otherwise. A search of the writes from the
    // last: asked once per selection, it costs less than ordering them for every run.
    const StackSource* sourceOf(uint32_t row) const;
    // Every row whose origin hasStackSource, with its source, ordered by row (for a row written
    // more than once, its last write): for callers that visit every kernel, in O(n log n).
    std::vector<std::pair<uint32_t, const StackSource*>> sourcesByRow() const;

private:
    void set(uint32_t row, StackOrigin origin) {
        uint8_t& b = packed_[row >> 1];
        const unsigned shift = (row & 1) * 4;
        b = uint8_t((b & ~(15u << shift)) | unsigned(origin) << shift);
    }
    std::vector<uint8_t> packed_;  // two rows a byte
    std::vector<StackSource> sources_;
    std::vector<std::pair<uint32_t, uint32_t>> rowSources_;  // (row, source), in write order
};

}  // namespace stackline
