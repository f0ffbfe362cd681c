// How each event's stack was obtained, for the viewer to say (the outputs do not depend on it):
// already in the trace, or written by the processor from a kernel-information entry that names
// the kernel (_assign_stack) or from the only stack of a graph (_assign_single_stack, a guess).
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
};

// The kernel-information entry a written stack came from.
struct StackSource {
    std::string graphKey;
    std::string kernel;  // the name looked up (Matched); empty for SingleStack
};

// Two bits per event, and a source per written event only (traces have millions of events).
class StackOrigins {
public:
    void reset(std::size_t rows) { packed_.assign((rows + 3) / 4, 0); }
    void setInTrace(uint32_t row) { set(row, StackOrigin::InTrace); }
    uint32_t addSource(StackSource source);
    // This run writes row's stack from a source (an index from addSource); a later write to the
    // same row replaces it, as the reference's does.
    void setWritten(uint32_t row, StackOrigin origin, uint32_t source);

    StackOrigin of(uint32_t row) const {
        // Beyond the last row, and in its byte's spare bits, None (0).
        return (row >> 2) < packed_.size() ? StackOrigin(packed_[row >> 2] >> (row & 3) * 2 & 3)
                                           : StackOrigin::None;
    }
    // For Matched and SingleStack rows; nullptr otherwise. A search of the writes from the last:
    // asked once per selection, it costs less than ordering them for every run.
    const StackSource* sourceOf(uint32_t row) const;
    // Every Matched and SingleStack row with its source, ordered by row (for a row written more
    // than once, its last write): for callers that visit every kernel, in O(n log n).
    std::vector<std::pair<uint32_t, const StackSource*>> sourcesByRow() const;

private:
    void set(uint32_t row, StackOrigin origin) {
        uint8_t& b = packed_[row >> 2];
        const unsigned shift = (row & 3) * 2;
        b = uint8_t((b & ~(3u << shift)) | unsigned(origin) << shift);
    }
    std::vector<uint8_t> packed_;  // four rows a byte
    std::vector<StackSource> sources_;
    std::vector<std::pair<uint32_t, uint32_t>> rowSources_;  // (row, source), in write order
};

}  // namespace stackline
