#include "json/json_cursor.h"

#include <algorithm>

#include "base/control_escape.h"
#include "base/unicode.h"

namespace stackline::json {
namespace {

int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool readHex4(std::string_view raw, std::size_t i, char32_t& out) {
    if (i + 4 > raw.size()) return false;
    out = 0;
    for (std::size_t k = 0; k < 4; ++k) {
        int h = hexValue(raw[i + k]);
        if (h < 0) return false;
        out = (out << 4) | char32_t(h);
    }
    return true;
}

}  // namespace

std::string unescape(std::string_view raw) {
    std::string out;
    out.reserve(raw.size());
    for (std::size_t i = 0; i < raw.size();) {
        char c = raw[i];
        if (c != '\\' || i + 1 >= raw.size()) {
            out += c;
            ++i;
            continue;
        }
        char e = raw[i + 1];
        i += 2;
        if (char control = controlEscape(e)) {
            out += control;
            continue;
        }
        switch (e) {
            case 'u': {
                char32_t cp;
                if (!readHex4(raw, i, cp)) {
                    out += "\\u";
                    break;
                }
                i += 4;
                char32_t lo;
                // A high surrogate followed by an escaped low one is one code point, as in Python.
                if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < raw.size() && raw[i] == '\\' &&
                    raw[i + 1] == 'u' && readHex4(raw, i + 2, lo) && lo >= 0xDC00 && lo <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    i += 6;
                }
                unicode::appendUtf8(out, cp);
                break;
            }
            default:
                out += e;
                break;  // \" \\ \/ (others were rejected by the scanner)
        }
    }
    return out;
}

void Cursor::fail(const std::string& what) const {
    throw SyntaxError(offset(), what);
}

void Cursor::checkEscapes(std::string_view raw) const {
    // raw cannot end in an unpaired backslash: readString's closing quote would be escaped.
    for (std::size_t i = 0; i + 1 < raw.size(); ++i) {
        if (raw[i] != '\\') continue;
        char32_t cp;
        switch (raw[i + 1]) {
            case '"':
            case '\\':
            case '/':
            case 'b':
            case 'f':
            case 'n':
            case 'r':
            case 't':
                break;
            case 'u':
                if (!readHex4(raw, i + 2, cp))
                    throw SyntaxError(uint64_t(raw.data() + i - base_), "invalid \\uXXXX escape");
                break;
            default:
                throw SyntaxError(uint64_t(raw.data() + i - base_), "invalid \\escape");
        }
        ++i;
    }
}

void Cursor::skipLiteral(const char* word, std::size_t len) {
    if (size_t(end_ - p) < len || std::memcmp(p, word, len) != 0) fail("invalid literal");
    p += len;
}

std::string_view Cursor::readNumber() {
    const char* s = p;
    if (*p == 'N') {
        skipLiteral("NaN", 3);
        return {s, 3};
    }
    if (*p == '-') ++p;
    if (*p == 'I') {
        skipLiteral("Infinity", 8);
        return {s, size_t(p - s)};
    }
    if (*p == '0') {
        ++p;
    } else if (*p >= '1' && *p <= '9') {
        p += digitRun(p);
    } else {
        fail("invalid number");
    }
    if (*p == '.') {
        ++p;
        std::size_t n = digitRun(p);
        if (n == 0) fail("invalid number: digit expected after '.'");
        p += n;
    }
    if (*p == 'e' || *p == 'E') {
        ++p;
        if (*p == '+' || *p == '-') ++p;
        std::size_t n = digitRun(p);
        if (n == 0) fail("invalid number: digit expected in exponent");
        p += n;
    }
    if (p > end_) fail("unexpected end of document");
    return {s, size_t(p - s)};
}

void Cursor::skipValue() {
    // Iterative, so that 10^5 nested arrays cannot overflow the call stack.
    std::string stack;
    for (;;) {
        skipSpace();
        if (atEnd()) fail("unexpected end of document");
        switch (*p) {
            case '"':
                readString();
                break;
            case '{':
            case '[': {
                char closer = *p == '{' ? '}' : ']';
                ++p;
                skipSpace();
                if (*p == closer) {
                    ++p;
                    break;
                }
                stack.push_back(closer);
                if (closer == '}') readKey();
                continue;
            }
            case 't':
                skipLiteral("true", 4);
                break;
            case 'f':
                skipLiteral("false", 5);
                break;
            case 'n':
                skipLiteral("null", 4);
                break;
            default:
                readNumber();
                break;
        }
        // A value ended: close containers until one continues.
        for (;;) {
            if (stack.empty()) return;
            char closer = stack.back();
            if (nextMember(closer)) {
                if (closer == '}') readKey();
                break;
            }
            stack.pop_back();
        }
    }
}

std::pair<uint64_t, uint64_t> lineColumn(std::string_view text, uint64_t offset) {
    offset = std::min<uint64_t>(offset, text.size());
    uint64_t line = 1, lineStart = 0;
    const char* b = text.data();
    const char* e = b + offset;
    for (const char* q = b; (q = static_cast<const char*>(std::memchr(q, '\n', size_t(e - q))));) {
        ++line;
        lineStart = uint64_t(q - b) + 1;
        ++q;
    }
    return {line, offset - lineStart + 1};
}

}  // namespace stackline::json
