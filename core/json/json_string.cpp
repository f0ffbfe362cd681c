#include "json/json_string.h"

#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>

namespace stackline::json {

namespace {

// Whether any of the 8 bytes of w may need more than copying: a control character, a quote, a
// backslash, or a byte of a multi-byte UTF-8 sequence (to validate). Exact for ASCII bytes.
bool mayNeedEscaping(uint64_t w) {
    constexpr uint64_t kOnes = 0x0101010101010101, kHigh = 0x8080808080808080;
    auto hasZero = [](uint64_t x) { return (x - kOnes) & ~x & kHigh; };
    const uint64_t below20 = ~((w | kHigh) - 0x20 * kOnes) & kHigh;  // of the ASCII bytes
    return ((w & kHigh) | below20 | hasZero(w ^ (0x22 * kOnes)) | hasZero(w ^ (0x5C * kOnes))) != 0;
}

bool plain(char c) {
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x20 && u < 0x80 && c != '"' && c != '\\';
}

}  // namespace

void appendString(std::string& out, std::string_view s) {
    // Most names and values are printable ASCII: copied as they are, checked 8 bytes at a time.
    // Anything else (escapes, UTF-8 to validate) is nlohmann's to write.
    std::size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
        uint64_t w;
        std::memcpy(&w, s.data() + i, 8);
        if (mayNeedEscaping(w)) break;
    }
    for (; i < s.size(); ++i)
        if (!plain(s[i])) {
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
