#include "model/event_args.h"

#include <charconv>

#include "json/json_cursor.h"

namespace stackline {

nlohmann::json argsObject(const Trace& trace, uint32_t row) {
    const Span span = trace.events.argsSpan(row);
    if (span.empty()) return nlohmann::json(nlohmann::json::value_t::discarded);
    auto args = nlohmann::json::parse(trace.slice(span), nullptr, false);
    return args.is_object() ? args : nlohmann::json(nlohmann::json::value_t::discarded);
}

namespace {

std::optional<int64_t> intArgOf(const nlohmann::json& args, std::string_view key) {
    if (!args.is_object()) return std::nullopt;
    const auto it = args.find(key);
    if (it == args.end() || !it->is_number_integer()) return std::nullopt;
    return it->get<int64_t>();
}

}  // namespace

std::optional<int64_t> intArg(const Trace& trace, uint32_t row, std::string_view key) {
    const Span span = trace.events.argsSpan(row);
    if (span.empty()) return std::nullopt;
    // One pass over the members with the loader's cursor rather than a DOM of the object: the
    // analyses ask this of every op of a trace. As with a DOM, the last member of a name wins and
    // only an integer token (no fraction or exponent) is an integer.
    const std::string_view text = trace.slice(span);
    // Most args lack the member: two byte searches say so faster than reading the members.
    if (text.find(key) == std::string_view::npos && text.find('\\') == std::string_view::npos)
        return std::nullopt;
    try {
        json::Cursor c(text.data(), text.data(), text.data() + text.size());
        c.skipSpace();
        if (*c.p != '{') return std::nullopt;
        ++c.p;
        c.skipSpace();
        if (*c.p == '}') return std::nullopt;
        std::optional<int64_t> found;
        do {
            const json::RawString k = c.readKey();
            if (k.escaped) return intArgOf(argsObject(trace, row), key);  // rare: decode it all
            if (k.raw != key) {
                c.skipValue();
                continue;
            }
            found.reset();
            if (*c.p != '-' && (*c.p < '0' || *c.p > '9')) {
                c.skipValue();
                continue;
            }
            const std::string_view number = c.readNumber();
            if (number.find_first_of(".eE") != std::string_view::npos) continue;
            int64_t value = 0;
            const char* end = number.data() + number.size();
            if (std::from_chars(number.data(), end, value).ptr == end) {
                found = value;
            } else if (uint64_t u = 0; std::from_chars(number.data(), end, u).ptr == end) {
                found = int64_t(u);  // beyond int64: unsigned, then cast, as nlohmann::json does
            }
        } while (c.nextMember('}'));
        return found;
    } catch (const json::SyntaxError&) {
        return std::nullopt;
    }
}

}  // namespace stackline
