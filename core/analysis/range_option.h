// The text of `--range START_US:END_US` and `--marker US` (stackline-cli summary, the viewer):
// microseconds with up to 3 decimals from the trace's origin (traceOriginNs in range_summary.h,
// the zero of the viewer's ruler).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/time_range.h"

namespace stackline {

// "1000" or "1000.5" as nanoseconds (1000000, 1000500); nullopt for anything else.
std::optional<int64_t> parseMicroseconds(std::string_view text);

// "START_US:END_US" as nanoseconds from the origin; nullopt with *error set (a message that
// names --range) when the text is not that or END_US is not after START_US.
std::optional<TimeRange> parseRangeOption(std::string_view text, std::string* error);

// A range relative to the trace's origin, on the trace's clock (EventTable::tsNs).
TimeRange fromOrigin(TimeRange relative, int64_t origin);

}  // namespace stackline
