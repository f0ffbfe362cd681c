// The args of an Nsight export's events, kept by row (the export is not read again after loading)
// and shown under Kineto's keys: "Sequence number" and "External id" for NVTX ranges;
// "correlation" for API calls; "device", "context", "stream", "correlation", grid, block,
// registers, shared memory and bytes for GPU activity (syncs too).
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "base/narrow_column.h"
#include "model/event_args.h"

namespace stackline::nsight {

inline constexpr int64_t kNoValue = INT64_MIN;

// One row's args, as the loader gives them and the reader shows them.
struct ArgsRecord {
    enum class Kind : uint8_t { Range, Api, Kernel, Memcpy, Memset, Sync };
    Kind kind = Kind::Range;
    int64_t sequence = kNoValue, externalId = kNoValue, correlation = kNoValue;
    int64_t bytes = kNoValue;
    int32_t device = 0, context = 0, stream = 0, registers = 0, sharedMemory = 0;
    int32_t grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
};

// Every row's args in about 6 bytes a row: its kind and its one number (a range's sequence, or
// the correlation) by row, and GPU activity's launch details (device, context, stream, grid,
// block, registers, shared memory, bytes) once per distinct combination, which repeat from step
// to step. A record's externalId is not kept: it is the event table's column (the loader keeps
// the two equal), which the reader reads.
class ArgsStore {
public:
    void reserve(std::size_t rows);
    // The next row's args; nullptr: it has none.
    void push(const ArgsRecord* record);
    // Drops what only push needs, once loading is done.
    void finish() { detailIds_ = {}; }

    bool has(uint32_t row) const { return row < shape_.size() && shape_[row] != kNone; }
    // The row's args but externalId (kNoValue); the row has them.
    ArgsRecord at(uint32_t row) const;

private:
    // shape_: kNone, kRange, kApi, or kDetails + the index of the row's details_.
    static constexpr uint32_t kNone = 0, kRange = 1, kApi = 2, kDetails = 3;
    NarrowColumn<uint32_t, uint16_t> shape_;
    // The sequence (ranges) or correlation (the others), + 1; 0: none; negative values escaped.
    NarrowColumn<int64_t, uint32_t> number_;
    std::vector<ArgsRecord> details_;  // sequence, externalId and correlation unset
    struct DetailsHash {
        std::size_t operator()(const ArgsRecord& r) const;
    };
    struct DetailsEqual {
        bool operator()(const ArgsRecord& a, const ArgsRecord& b) const;
    };
    std::unordered_map<ArgsRecord, uint32_t, DetailsHash, DetailsEqual> detailIds_;
};

std::shared_ptr<const ArgsReader> nsightArgsReader(ArgsStore store);

}  // namespace stackline::nsight
