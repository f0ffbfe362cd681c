// Reading a Perfetto protobuf trace (.pftrace, .perfetto-trace, .pb; raw or gzip, sniffed by its
// bytes whatever its name) into a PftraceTable, and an event's args on demand. Not yet behind the
// format table: the importer that maps this table onto the model comes next.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "import/perfetto/pftrace_table.h"

namespace stackline::pftrace {

// True when bytes (the start of an inflated input) read as a serialized Trace: a first field 1
// of wire type 2 whose TracePacket begins with a valid field. A JSON trace never does ('{' or
// '[' or whitespace are not field 1 of type 2).
bool looksLikePftrace(std::string_view head);

// Decodes a whole serialized Trace held in memory; name is used in messages. Throws InputError
// naming the input and the byte offset of a truncated or corrupt packet.
PftraceTable decodePftrace(std::string_view bytes, const std::string& name);
// The same table (but for the order of its strings), decoded on threads (0: one per core) in
// ranges of the stream of chunkBytes at least, cut at packet boundaries (chunked_decode.cpp).
PftraceTable decodePftrace(std::string_view bytes, const std::string& name, unsigned threads,
                           uint64_t chunkBytes);

// The debug annotations of TrackEvent row as a JSON object, as Perfetto's JSON export and
// Kineto's args show them: a name per annotation (inline, or interned in its generation), dicts
// and arrays nested, ints, doubles, bools and strings as such, pointers as "0x..." strings.
// bytes is the input the table was decoded from.
// A name given twice keeps its first place and its last value, as a Python dict would.
nlohmann::ordered_json trackEventArgs(const PftraceTable& table, std::string_view bytes,
                                      uint32_t row);
// trackEventArgs(...)'s JSON text (dumped with invalid UTF-8 replaced), appended to out, written
// from the bytes without building the object: the Chrome JSON export asks it of every event.
void appendTrackEventArgsJson(const PftraceTable& table, std::string_view bytes, uint32_t row,
                              std::string& out);
// trackEventArgs(...)[key] when it is an integer, without building the args (asked of every op).
std::optional<int64_t> trackEventInteger(const PftraceTable& table, std::string_view bytes,
                                         uint32_t row, std::string_view key);

// A render stage's extra_data as a JSON object of strings (name -> value), in file order.
nlohmann::ordered_json renderStageExtraData(const PftraceTable& table, std::string_view bytes,
                                            uint32_t row);
// A render stage's kernel launch configuration (ComputeKernelLaunch) as Kineto's kernel args:
// "grid" and "block" ([x, y, z]), "registers per thread", and its other args under their own
// names; an empty object when the stage has none.
nlohmann::ordered_json renderStageLaunch(const PftraceTable& table, std::string_view bytes,
                                         uint32_t row);
// One value of the launch: a Dim3 (grid, block) or one arg's value.
struct LaunchValue {
    enum class Kind : uint8_t { None, Dim3, Int, Uint, Double, String };
    Kind kind = Kind::None;
    uint32_t dim[3] = {0, 0, 0};
    int64_t integer = 0;
    uint64_t unsignedInteger = 0;
    double real = 0;
    std::string_view text;  // into the trace's bytes
};
// Calls f(key, value) for each of the launch's values under renderStageLaunch's keys, in order.
void visitRenderStageLaunch(const PftraceTable& table, std::string_view bytes, uint32_t row,
                            const std::function<void(std::string_view, const LaunchValue&)>& f);
// A value's JSON text as renderStageLaunch's dump writes it.
void appendLaunchValue(std::string& out, const LaunchValue& value);
// Calls f(name, value) for each extra_data entry, in file order; both point into bytes.
void visitRenderStageExtra(const PftraceTable& table, std::string_view bytes, uint32_t row,
                           const std::function<void(std::string_view, std::string_view)>& f);

}  // namespace stackline::pftrace
