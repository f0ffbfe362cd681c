#include "model/event_args.h"

#include "model/trace.h"

namespace stackline {

void ArgsReader::appendJson(const Trace& trace, uint32_t row, std::string& out) const {
    const nlohmann::ordered_json v = value(trace, row);
    out += v.is_discarded()
               ? std::string("null")
               : v.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

bool EventArgs::present() const {
    return trace_.argsReader && trace_.argsReader->present(trace_, row_);
}

nlohmann::ordered_json EventArgs::value() const {
    if (!trace_.argsReader)
        return nlohmann::ordered_json(nlohmann::ordered_json::value_t::discarded);
    return trace_.argsReader->value(trace_, row_);
}

nlohmann::ordered_json EventArgs::object() const {
    nlohmann::ordered_json v = value();
    return v.is_object() ? v : nlohmann::ordered_json(nlohmann::ordered_json::value_t::discarded);
}

std::optional<int64_t> EventArgs::integer(std::string_view key) const {
    if (!trace_.argsReader) return std::nullopt;
    return trace_.argsReader->integer(trace_, row_, key);
}

}  // namespace stackline
