// A guard for documents handed to nlohmann::json: its parser is iterative, but dump(), copies and
// comparisons recurse, so a value nested 10^5 deep overflows the stack when it is written out.
// Python's json.load gives up at about the same depth (RecursionError near 1000), so the reference
// cannot read such a file either.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace stackline::json {

inline constexpr int kMaxDomDepth = 1000;

// The byte offset of the first '[' or '{' (outside strings) nested deeper than limit, if any.
inline std::optional<uint64_t> tooDeep(std::string_view text, int limit = kMaxDomDepth) {
    int depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > limit) return i;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return std::nullopt;
}

}  // namespace stackline::json
