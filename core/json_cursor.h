// Byte-level JSON scanning over a buffer that ends in a NUL sentinel: strings are found with
// memchr, values are skipped iteratively (any nesting depth), nothing is copied. The grammar is
// Python's json module's: NaN, Infinity and -Infinity are values; raw control characters inside
// strings are accepted (real Kineto traces contain them).
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

namespace stackline::json {

// A malformed document: the byte offset where scanning stopped and what was expected there.
struct SyntaxError : std::runtime_error {
    SyntaxError(uint64_t offset, const std::string& what) : std::runtime_error(what), offset(offset) {}
    uint64_t offset;
};

struct RawString {
    std::string_view raw;  // between the quotes, escapes not decoded
    bool escaped;          // raw contains a backslash
};

// Decodes JSON string escapes into UTF-8 (lone surrogates as WTF-8, like Python keeps them).
std::string unescape(std::string_view raw);
inline std::string decodeString(const RawString& s) {
    return s.escaped ? unescape(s.raw) : std::string(s.raw);
}

inline bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

class Cursor {
public:
    // [begin, end) is the document; *end must be readable and NUL.
    Cursor(const char* base, const char* pos, const char* end) : p(pos), base_(base), end_(end) {}

    const char* p;

    uint64_t offset() const { return uint64_t(p - base_); }
    const char* base() const { return base_; }
    const char* end() const { return end_; }
    bool atEnd() const { return p >= end_; }

    void skipSpace() {
        while (isSpace(*p)) ++p;
    }
    [[noreturn]] void fail(const std::string& what) const;
    void expect(char c, const char* what) {
        if (*p != c || atEnd()) fail(what);
        ++p;
    }

    // *p must be '"'; leaves p after the closing quote.
    RawString readString() {
        const char* s = p + 1;
        const char* q = s;
        for (;;) {
            q = static_cast<const char*>(std::memchr(q, '"', size_t(end_ - q)));
            if (!q) {
                p = end_;
                fail("unterminated string");
            }
            const char* b = q;
            while (b > s && b[-1] == '\\') --b;
            if (((q - b) & 1) == 0) break;
            ++q;
        }
        p = q + 1;
        std::string_view raw(s, size_t(q - s));
        return {raw, std::memchr(s, '\\', raw.size()) != nullptr};
    }

    // Scans a number or NaN/Infinity/-Infinity token at p; returns its text.
    std::string_view readNumber();
    // Skips one value of any kind, validating its structure.
    void skipValue();
    // Reads an object key and the colon after it; p ends at the value.
    RawString readKey() {
        if (*p != '"') fail("expected a string key");
        RawString k = readString();
        skipSpace();
        expect(':', "expected ':' after an object key");
        skipSpace();
        return k;
    }
    // After a member or element: true to continue (',' consumed), false at the closer (consumed).
    bool nextMember(char closer) {
        skipSpace();
        if (*p == ',' && !atEnd()) {
            ++p;
            skipSpace();
            return true;
        }
        if (*p == closer && !atEnd()) {
            ++p;
            return false;
        }
        fail(closer == '}' ? "expected ',' or '}' in an object" : "expected ',' or ']' in an array");
    }

private:
    void skipLiteral(const char* word, std::size_t len);
    const char* base_;
    const char* end_;
};

// Line (1-based) and column (1-based, in bytes) of an offset, for messages.
std::pair<uint64_t, uint64_t> lineColumn(std::string_view text, uint64_t offset);

}  // namespace stackline::json
