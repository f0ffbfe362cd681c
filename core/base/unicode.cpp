#include "base/unicode.h"

#include <algorithm>
#include <string>

#include "base/unicode_tables_generated.h"

namespace stackline::unicode {
namespace {

bool inRanges(char32_t c, const CodePointRange* ranges, std::size_t n) {
    const CodePointRange* end = ranges + n;
    const CodePointRange* it = std::upper_bound(
        ranges, end, c, [](char32_t v, const CodePointRange& r) { return v < r.first; });
    return it != ranges && c <= (it - 1)->last;
}

}  // namespace

bool isWord(char32_t c) {
    if (c < 0x80)
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_';
    return inRanges(c, kWordRanges, kWordRangesSize);
}

bool isSpace(char32_t c) {
    if (c < 0x80) return c == ' ' || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F);
    return inRanges(c, kSpaceRanges, kSpaceRangesSize);
}

bool isPrintable(char32_t c) {
    if (c < 0x80) return c >= 0x20 && c < 0x7F;
    return !inRanges(c, kNonPrintableRanges, kNonPrintableRangesSize);
}

int decimalValue(char32_t c) {
    if (c >= '0' && c <= '9') return int(c - '0');
    if (c < 0x80) return -1;
    const CodePointRange* end = kDecimalZeroRanges + kDecimalZeroRangesSize;
    const CodePointRange* it =
        std::upper_bound(kDecimalZeroRanges, end, c,
                         [](char32_t v, const CodePointRange& r) { return v < r.first; });
    if (it == kDecimalZeroRanges || c > (it - 1)->last) return -1;
    return int(c - (it - 1)->first);
}

char32_t decodeUtf8(std::string_view s, std::size_t& i) {
    auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) {
        ++i;
        return b0;
    }
    int len = b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC0 ? 2 : 0;
    if (len == 0 || i + len > s.size()) {
        ++i;
        return 0xDC00 + b0;
    }
    char32_t c = b0 & (0x7F >> len);
    for (int k = 1; k < len; ++k) {
        auto b = static_cast<unsigned char>(s[i + k]);
        if ((b & 0xC0) != 0x80) {
            ++i;
            return 0xDC00 + b0;
        }
        c = (c << 6) | (b & 0x3F);
    }
    i += len;
    return c;
}

void appendUtf8(std::string& out, char32_t c) {
    if (c < 0x80) {
        out += char(c);
    } else if (c < 0x800) {
        out += char(0xC0 | (c >> 6));
        out += char(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += char(0xE0 | (c >> 12));
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    } else {
        out += char(0xF0 | (c >> 18));
        out += char(0x80 | ((c >> 12) & 0x3F));
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    }
}

}  // namespace stackline::unicode
