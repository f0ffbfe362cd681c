#include "analysis/range_option.h"

#include <charconv>

namespace stackline {

std::optional<int64_t> parseMicroseconds(std::string_view v) {
    const size_t dot = v.find('.');
    const std::string_view whole = v.substr(0, dot);
    const std::string_view frac = dot == v.npos ? std::string_view() : v.substr(dot + 1);
    if (whole.empty() || frac.size() > 3 || (dot != v.npos && frac.empty())) return std::nullopt;
    int64_t w = 0, f = 0;
    auto [end, error] = std::from_chars(whole.data(), whole.data() + whole.size(), w);
    if (error != std::errc() || end != whole.data() + whole.size() || w < 0 ||
        w > INT64_MAX / 1000 - 1)
        return std::nullopt;
    for (size_t i = 0; i < 3; ++i) {
        const char c = i < frac.size() ? frac[i] : '0';
        if (c < '0' || c > '9') return std::nullopt;
        f = f * 10 + (c - '0');
    }
    return w * 1000 + f;
}

std::optional<TimeRange> parseRangeOption(std::string_view text, std::string* error) {
    const size_t colon = text.find(':');
    const std::optional<int64_t> start =
        colon == text.npos ? std::nullopt : parseMicroseconds(text.substr(0, colon));
    const std::optional<int64_t> end =
        colon == text.npos ? std::nullopt : parseMicroseconds(text.substr(colon + 1));
    if (!start || !end) {
        *error = "--range needs START_US:END_US (microseconds, up to 3 decimals), not '" +
                 std::string(text) + "'";
        return std::nullopt;
    }
    if (*end <= *start) {
        *error = "--range: END_US must be after START_US";
        return std::nullopt;
    }
    return TimeRange{*start, *end};
}

TimeRange fromOrigin(TimeRange relative, int64_t origin) {
    return {relative.start + origin, relative.end + origin};
}

}  // namespace stackline
