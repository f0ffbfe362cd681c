// The args of a trace read from Perfetto protobuf, on demand from its bytes: a slice's debug
// annotations (as Kineto's args), a render stage's extra_data under Kineto's names ("device",
// "stream", "context", "correlation", ...; integers as integers), a counter sample's value.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "import/perfetto/pftrace_table.h"
#include "model/event_args.h"

namespace stackline::pftrace {

// Where a row of the event table came from.
enum class RowSource : uint8_t { None, TrackEvent, RenderStage, GpuCounter, TrackCounter };

// Source of each row: kind in the low 3 bits, index into the table's column above them (the
// importer refuses a trace with more than kMaxIndex rows in one column).
struct RowSources {
    static constexpr uint32_t kMaxIndex = (uint32_t(1) << 29) - 1;
    std::vector<uint32_t> of;
    static uint32_t code(RowSource kind, uint32_t index) { return index << 3 | uint32_t(kind); }
    void push(RowSource kind, uint32_t index) { of.push_back(code(kind, index)); }
    RowSource kind(uint32_t row) const { return RowSource(of[row] & 7); }
    uint32_t index(uint32_t row) const { return of[row] >> 3; }
};

// Takes the decoded table (its columns the args need: offsets, generations, interned strings,
// counter values) and the row sources.
std::shared_ptr<const ArgsReader> pftraceArgsReader(PftraceTable table, RowSources sources);

}  // namespace stackline::pftrace
