#include "event_args.h"

namespace stackline {

nlohmann::json argsObject(const Trace& trace, uint32_t row) {
    const Span span = trace.events.argsSpan(row);
    if (span.empty()) return nlohmann::json(nlohmann::json::value_t::discarded);
    auto args = nlohmann::json::parse(trace.slice(span), nullptr, false);
    return args.is_object() ? args : nlohmann::json(nlohmann::json::value_t::discarded);
}

std::optional<int64_t> intArg(const Trace& trace, uint32_t row, std::string_view key) {
    const nlohmann::json args = argsObject(trace, row);
    if (!args.is_object()) return std::nullopt;
    const auto it = args.find(key);
    if (it == args.end() || !it->is_number_integer()) return std::nullopt;
    return it->get<int64_t>();
}

}  // namespace stackline
