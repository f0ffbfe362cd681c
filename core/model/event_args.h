// An event's args, parsed on demand from its raw bytes: the table keeps only their span, and the
// few analyses that read a member after loading (correlation ids, Sequence numbers, counter
// values) go through here.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "model/trace.h"

namespace stackline {

// The row's args object; a discarded value when it has none or they are not an object.
nlohmann::json argsObject(const Trace& trace, uint32_t row);
// An integer member of the row's args; nullopt when absent or not an integer.
std::optional<int64_t> intArg(const Trace& trace, uint32_t row, std::string_view key);

}  // namespace stackline
