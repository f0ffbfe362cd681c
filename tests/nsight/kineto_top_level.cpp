#include "kineto_top_level.h"

#include <string>
#include <string_view>

#include "json/json_cursor.h"

namespace stackline::nsys {

namespace {

// The raw bytes of the top-level member key (the loader has checked the document).
std::optional<std::string_view> topLevelValue(const Trace& trace, std::string_view key) {
    const std::string_view text = trace.text();
    json::Cursor c(text.data(), text.data(), text.data() + text.size());
    if (text.substr(0, 3) == "\xEF\xBB\xBF") c.p += 3;
    c.skipSpace();
    if (c.atEnd() || *c.p != '{') return std::nullopt;
    ++c.p;
    c.skipSpace();
    if (*c.p == '}') return std::nullopt;
    do {
        const std::string name = json::decodeString(c.readKey());
        c.skipSpace();
        const char* begin = c.p;
        c.skipValue();
        if (name == key) return std::string_view(begin, size_t(c.p - begin));
    } while (c.nextMember('}'));
    return std::nullopt;
}

}  // namespace

nlohmann::json deviceProperties(const Trace& trace) {
    const auto raw = topLevelValue(trace, "deviceProperties");
    if (!raw) return nlohmann::json::array();
    nlohmann::json v = nlohmann::json::parse(*raw, nullptr, false);
    return v.is_array() ? v : nlohmann::json::array();
}

std::optional<int64_t> baseTime(const Trace& trace) {
    const auto raw = topLevelValue(trace, "baseTimeNanoseconds");
    if (!raw) return std::nullopt;
    const nlohmann::json v = nlohmann::json::parse(*raw, nullptr, false);
    if (!v.is_number_integer()) return std::nullopt;
    return v.get<int64_t>();
}

}  // namespace stackline::nsys
