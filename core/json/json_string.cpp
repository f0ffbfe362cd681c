#include "json/json_string.h"

#include <nlohmann/json.hpp>

namespace stackline::json {

void appendString(std::string& out, std::string_view s) {
    // Most names and values are printable ASCII: copied as they are. Anything else (escapes,
    // UTF-8 to validate) is nlohmann's to write.
    for (const char c : s)
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x80 ||
            c == '"' || c == '\\') {
            out += nlohmann::json(std::string(s))
                       .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
            return;
        }
    out += '"';
    out += s;
    out += '"';
}

void appendDouble(std::string& out, double v) {
    out += nlohmann::json(v).dump();
}

}  // namespace stackline::json
