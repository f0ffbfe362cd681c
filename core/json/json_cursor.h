// Byte-level JSON scanning over a buffer that ends in a NUL sentinel: strings are found with
// memchr, values are skipped iteratively (any nesting depth), nothing is copied. The grammar is
// Python's json module's: NaN, Infinity and -Infinity are values; raw control characters inside
// strings are accepted (real Kineto traces contain them).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

#include "base/simd.h"

namespace stackline::json {

// A malformed document: the byte offset where scanning stopped and what was expected there.
struct SyntaxError : std::runtime_error {
    SyntaxError(uint64_t offset, const std::string& what)
        : std::runtime_error(what), offset(offset) {}
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

inline bool isSpace(char c) {
    constexpr uint64_t kSpaces = (1ull << ' ') | (1ull << '\n') | (1ull << '\r') | (1ull << '\t');
    return static_cast<unsigned char>(c) <= ' ' && ((kSpaces >> static_cast<unsigned char>(c)) & 1);
}

// How many ASCII digits start at p, sixteen bytes at a time (the buffer is padded after its end):
// a loop per digit mispredicts at its end, whose place varies from number to number.
inline std::size_t digitRun(const char* p) {
    for (std::size_t n = 0;; n += 16) {
        unsigned other = ~simd::mask(simd::digits(simd::load(p + n))) & 0xFFFFu;
        if (other != 0) return n + std::size_t(__builtin_ctz(other));
    }
}

// Sixteen zero bytes, then sixteen 0xFF: read at n, it keeps the last n of sixteen bytes.
inline constexpr std::array<uint8_t, 32> kDigitWindow = [] {
    std::array<uint8_t, 32> w{};
    for (std::size_t i = 16; i < 32; ++i) w[i] = 0xFF;
    return w;
}();

// digitsValue(p, n): the value of the n <= 16 ASCII digits that end at p + n, without a branch on
// n: a loop per digit mispredicts where it ends. Reads the 16 bytes before p + n, which the caller
// must own.
#if defined(STACKLINE_SIMD_SSE2)
// Pairs, then fours, then eights of digits with SSE2's multiply-adds of 16-bit lanes.
inline uint64_t digitsValue(const char* p, std::size_t n) {
    __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + n - 16));
    __m128i keep = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kDigitWindow.data() + n));
    x = _mm_and_si128(_mm_sub_epi8(x, _mm_set1_epi8('0')), keep);  // digits, zeros before them
    const __m128i zero = _mm_setzero_si128();
    const __m128i tens = _mm_set1_epi32(1 << 16 | 10);
    __m128i pairs = _mm_packs_epi32(_mm_madd_epi16(_mm_unpacklo_epi8(x, zero), tens),
                                    _mm_madd_epi16(_mm_unpackhi_epi8(x, zero), tens));
    __m128i quads = _mm_madd_epi16(pairs, _mm_set1_epi32(1 << 16 | 100));
    quads = _mm_packs_epi32(quads, quads);
    __m128i octs = _mm_madd_epi16(quads, _mm_set1_epi32(1 << 16 | 10000));
    return uint64_t(uint32_t(_mm_cvtsi128_si32(octs))) * 100000000u +
           uint32_t(_mm_cvtsi128_si32(_mm_srli_si128(octs, 4)));
}
#else
// The same in the lanes of two 64-bit words (the first digit in the lowest byte, little-endian):
// each step adds ten, a hundred or ten thousand times a lane's first half to its second, the
// products staying within their lane.
static_assert(std::endian::native == std::endian::little, "digitsValue reads digits little-endian");
inline uint64_t eightDigitsValue(uint64_t digits) {
    digits = (digits * 10 + (digits >> 8)) & 0x00FF00FF00FF00FFu;
    digits = (digits * 100 + (digits >> 16)) & 0x0000FFFF0000FFFFu;
    return (digits * 10000 + (digits >> 32)) & 0xFFFFFFFFu;
}
inline uint64_t digitsValue(const char* p, std::size_t n) {
    uint64_t word[2], keep[2];
    std::memcpy(word, p + n - 16, 16);
    std::memcpy(keep, kDigitWindow.data() + n, 16);
    // Masked before the subtraction, so that no byte borrows from its neighbour.
    constexpr uint64_t kZeros = 0x3030303030303030u;
    uint64_t high = (word[0] & keep[0]) - (kZeros & keep[0]);
    uint64_t low = (word[1] & keep[1]) - (kZeros & keep[1]);
    return eightDigitsValue(high) * 100000000u + eightDigitsValue(low);
}
#endif

class Cursor {
public:
    // [begin, end) is the document; *end must be readable and NUL.
    Cursor(const char* base, const char* pos, const char* end) : p(pos), base_(base), end_(end) {}

    const char* p;

    uint64_t offset() const { return uint64_t(p - base_); }
    const char* base() const { return base_; }
    const char* end() const { return end_; }
    bool atEnd() const { return p >= end_; }

    // Most gaps are empty or one space; longer ones (a line break and indentation) are skipped
    // sixteen bytes at a time, within the padding as readString does.
    void skipSpace() {
        if (static_cast<unsigned char>(*p) > ' ' || !isSpace(*p)) return;
        ++p;
        if (!isSpace(*p)) return;
        const simd::Bytes space = simd::splat(' '), newline = simd::splat('\n'),
                          tab = simd::splat('\t'), cr = simd::splat('\r');
        for (;;) {
            simd::Bytes v = simd::load(p);
            simd::Bytes ws =
                simd::either(simd::either(simd::equal(v, space), simd::equal(v, newline)),
                             simd::either(simd::equal(v, tab), simd::equal(v, cr)));
            unsigned other = ~simd::mask(ws) & 0xFFFFu;
            if (other != 0) {
                p += __builtin_ctz(other);
                return;
            }
            p += 16;
        }
    }
    [[noreturn]] void fail(const std::string& what) const;
    void expect(char c, const char* what) {
        if (*p != c || atEnd()) fail(what);
        ++p;
    }

    // *p must be '"'; leaves p after the closing quote. Sixteen bytes at a time: the buffer has
    // readable padding after its end, and the loop checks the end once per block.
    RawString readString() {
        const char* s = p + 1;
        const char* q = s;
        bool escaped = false;
        const simd::Bytes quote = simd::splat('"'), backslash = simd::splat('\\');
        for (;;) {
            if (q >= end_) {
                p = end_;
                fail("unterminated string");
            }
            simd::Bytes v = simd::load(q);
            unsigned m = simd::mask(simd::either(simd::equal(v, quote), simd::equal(v, backslash)));
            if (m == 0) {
                q += 16;
                continue;
            }
            q += __builtin_ctz(m);
            if (q >= end_) continue;  // reports the unterminated string above
            if (*q == '"') break;
            escaped = true;
            q += 2;  // the backslash and the character it escapes
        }
        p = q + 1;
        std::string_view raw(s, size_t(q - s));
        if (escaped) checkEscapes(raw);
        return {raw, escaped};
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
        fail(closer == '}' ? "expected ',' or '}' in an object"
                           : "expected ',' or ']' in an array");
    }

private:
    void skipLiteral(const char* word, std::size_t len);
    // Rejects the escapes Python's json rejects (\x, \u12G4, ...), at their backslash.
    void checkEscapes(std::string_view raw) const;
    const char* base_;
    const char* end_;
};

// Line (1-based) and column (1-based, in bytes) of an offset, for messages.
std::pair<uint64_t, uint64_t> lineColumn(std::string_view text, uint64_t offset);

}  // namespace stackline::json
