#include "import/kineto_json/kineto_args_reader.h"

#include <charconv>

#include "json/json_cursor.h"
#include "model/trace.h"

namespace stackline {

namespace {

std::optional<int64_t> integerIn(const nlohmann::ordered_json& args, std::string_view key) {
    if (!args.is_object()) return std::nullopt;
    const auto it = args.find(key);
    if (it == args.end() || !it->is_number_integer()) return std::nullopt;
    return it->get<int64_t>();
}

class KinetoArgsReader final : public ArgsReader {
public:
    bool present(const Trace& trace, uint32_t row) const override {
        return !trace.events.argsSpan(row).empty();
    }

    nlohmann::ordered_json value(const Trace& trace, uint32_t row) const override {
        const Span span = trace.events.argsSpan(row);
        if (span.empty()) return nlohmann::ordered_json(nlohmann::ordered_json::value_t::discarded);
        return nlohmann::ordered_json::parse(trace.slice(span), nullptr, false);
    }

    std::optional<int64_t> integer(const Trace& trace, uint32_t row,
                                   std::string_view key) const override {
        const Span span = trace.events.argsSpan(row);
        if (span.empty()) return std::nullopt;
        // One pass over the members with the loader's cursor rather than a DOM of the object: the
        // analyses ask this of every op of a trace. As with a DOM, the last member of a name wins
        // and only an integer token (no fraction or exponent) is an integer.
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
                if (k.escaped) return integerIn(value(trace, row), key);  // rare: decode it all
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
                int64_t v = 0;
                const char* end = number.data() + number.size();
                if (std::from_chars(number.data(), end, v).ptr == end) {
                    found = v;
                } else if (uint64_t u = 0; std::from_chars(number.data(), end, u).ptr == end) {
                    found = int64_t(u);  // beyond int64: unsigned, then cast, as nlohmann does
                }
            } while (c.nextMember('}'));
            return found;
        } catch (const json::SyntaxError&) {
            return std::nullopt;
        }
    }
};

}  // namespace

std::shared_ptr<const ArgsReader> kinetoArgsReader() {
    static const auto reader = std::make_shared<const KinetoArgsReader>();
    return reader;
}

}  // namespace stackline
