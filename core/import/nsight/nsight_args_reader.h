// The args of an Nsight export's events, kept as one flat record per event that has any (the
// export is not read again after loading) and shown under Kineto's keys: "Sequence number" and
// "External id" for NVTX ranges; "correlation" for API calls; "device", "context", "stream",
// "correlation", grid, block, registers, shared memory and bytes for GPU activity (syncs too).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "model/event_args.h"

namespace stackline::nsight {

inline constexpr int64_t kNoValue = INT64_MIN;

struct ArgsRecord {
    enum class Kind : uint8_t { Range, Api, Kernel, Memcpy, Memset, Sync };
    Kind kind = Kind::Range;
    int64_t sequence = kNoValue, externalId = kNoValue, correlation = kNoValue;
    int64_t bytes = kNoValue;
    int32_t device = 0, context = 0, stream = 0, registers = 0, sharedMemory = 0;
    int32_t grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
};

struct ArgsStore {
    std::vector<uint32_t> recordOf;  // by row; UINT32_MAX: none
    std::vector<ArgsRecord> records;
};

std::shared_ptr<const ArgsReader> nsightArgsReader(ArgsStore store);

}  // namespace stackline::nsight
