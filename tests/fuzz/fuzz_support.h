// Shared by the fuzz targets: inputs as text and a failure that libFuzzer records as a crash.
// (nlohmann-based oracles guard against deep nesting with json::tooDeep, as the core does.)
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace stackline::fuzz {

inline std::string_view asText(const uint8_t* data, size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

// Strict UTF-8 (no surrogates, no overlongs).
inline bool validUtf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        auto c = static_cast<unsigned char>(s[i]);
        std::size_t n = c < 0x80         ? 1
                        : (c >> 5) == 6  ? 2
                        : (c >> 4) == 14 ? 3
                        : (c >> 3) == 30 ? 4
                                         : 0;
        if (n == 0 || i + n > s.size()) return false;
        char32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
        for (std::size_t k = 1; k < n; ++k) {
            auto d = static_cast<unsigned char>(s[i + k]);
            if ((d >> 6) != 2) return false;
            cp = (cp << 6) | (d & 0x3F);
        }
        static const char32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        i += n;
    }
    return true;
}

[[noreturn]] inline void failed(const char* what, const std::string& detail = {}) {
    std::fprintf(stderr, "FUZZ PROPERTY VIOLATED: %s\n%s\n", what, detail.c_str());
    std::abort();
}

#define FUZZ_CHECK(cond, ...)                                         \
    do {                                                              \
        if (!(cond)) ::stackline::fuzz::failed(#cond, ##__VA_ARGS__); \
    } while (0)

}  // namespace stackline::fuzz
