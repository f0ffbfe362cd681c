// JSON numbers as Python's json module reads them (int or float) and as exact nanoseconds for
// display, read in one pass for the usual forms. Inline: the scanner calls them per value.
#pragma once

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "json/json_cursor.h"
#include "python/python_values.h"

namespace stackline::detail {

using json::Cursor;

inline bool isZeroNumber(std::string_view t) {
    for (char c : t) {
        if (c == 'e' || c == 'E') break;
        if (c >= '1' && c <= '9') return false;
        if (c == 'N' || c == 'I') return false;
    }
    return true;
}

inline double parseDouble(std::string_view t) {
    if (t == "NaN") return std::nan("");
    if (t == "Infinity") return HUGE_VAL;
    if (t == "-Infinity") return -HUGE_VAL;
    double v = 0;
    auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (r.ec == std::errc::result_out_of_range) {
        std::string s(t);
        v = std::strtod(s.c_str(), nullptr);  // overflow to inf, underflow to 0, as Python does
    }
    return v;
}

// Python's json: an integer literal is an int, anything with a fraction or exponent is a float.
// Any form (ScannedNumber handles the usual ones without coming here).
inline PyNum parseNumber(std::string_view t) {
    if (t.find_first_of(".eENI") != std::string_view::npos) return PyNum::real(parseDouble(t));
    std::size_t i = t[0] == '-' ? 1 : 0;
    if (t.size() - i > 37) return PyNum::real(parseDouble(t));  // beyond int128: approximated
    __int128 v = 0;
    for (; i < t.size(); ++i) v = v * 10 + (t[i] - '0');
    return PyNum::integer(t[0] == '-' ? -v : v);
}

// Exact nanoseconds from the text of a microsecond value (Kineto writes 3 decimals, which a
// double cannot hold for epoch timestamps).
// Kept within +-kMaxNs (146 years either side of the epoch) so that the sum or difference of two
// of them, a slice's end or a gap on the timeline, cannot overflow.
inline constexpr int64_t kMaxNs = (int64_t(1) << 62) - 1;

// An exponent, NaN or Infinity in a number's text (a plain loop: find_first_of calls memchr per
// character).
inline bool hasExponentOrWord(std::string_view t) {
    for (char c : t)
        if (c == 'e' || c == 'E' || c == 'N' || c == 'I') return true;
    return false;
}

inline int64_t nanosFromText(std::string_view t, const PyNum& n) {
    auto clamp = [](long double v) -> int64_t {
        if (!(v == v)) return 0;
        if (v > kMaxNs) return kMaxNs;
        if (v < -kMaxNs) return -kMaxNs;
        return int64_t(std::llroundl(v));
    };
    if (hasExponentOrWord(t)) return clamp(n.f * 1000.0L);
    bool neg = t[0] == '-';
    std::size_t i = neg ? 1 : 0;
    // More integer digits than the exact arithmetic below holds: far beyond kMaxNs anyway.
    if (std::min(t.find('.'), t.size()) - i > 20)
        return clamp((n.kind == PyNum::Kind::Int ? (long double)n.i : (long double)n.f) * 1000.0L);
    __int128 whole = 0;
    for (; i < t.size() && t[i] != '.'; ++i) whole = whole * 10 + (t[i] - '0');
    int frac = 0, digits = 0;
    bool roundUp = false;
    if (i < t.size()) {
        for (++i; i < t.size(); ++i, ++digits) {
            if (digits < 3)
                frac = frac * 10 + (t[i] - '0');
            else if (digits == 3)
                roundUp = t[i] >= '5';
        }
    }
    for (; digits < 3; ++digits) frac *= 10;
    __int128 ns = whole * 1000 + frac + (roundUp ? 1 : 0);
    if (neg) ns = -ns;
    if (ns > kMaxNs) return kMaxNs;
    if (ns < -kMaxNs) return -kMaxNs;
    return int64_t(ns);
}

// A number token read in one pass: plain decimals (no exponent, at most 18 digits, the usual case)
// also carry their digits as an integer and how many of them follow the point, from which the
// Python value and the nanoseconds follow without reading the text again. Decimals whose digits
// form an integer up to 2^53 (Kineto's "2413669096141.794") are converted exactly by one
// correctly rounded division by a power of ten.
struct ScannedNumber {
    std::string_view text;
    uint64_t digits = 0;
    int decimals = -1;  // -1: no point
    bool plain = false;
    bool negative = false;

    PyNum value() const {
        static const double kPow10[] = {1,    1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8, 1e9,
                                        1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18};
        if (!plain) return parseNumber(text);
        if (decimals < 0) return PyNum::integer(negative ? -__int128(digits) : __int128(digits));
        if (digits > (uint64_t(1) << 53)) return parseNumber(text);
        double v = double(digits) / kPow10[decimals];
        return PyNum::real(negative ? -v : v);
    }
    // As nanosFromText, which the rare forms still take.
    int64_t nanos(const PyNum& n) const {
        if (!plain || decimals > 3) return nanosFromText(text, n);
        static const int64_t kScale[] = {1000, 100, 10, 1};
        __int128 ns = __int128(digits) * kScale[decimals < 0 ? 0 : decimals];
        if (negative) ns = -ns;
        return int64_t(std::clamp<__int128>(ns, -kMaxNs, kMaxNs));
    }
};

// Reads the number at c.p (which must start one) like Cursor::readNumber, in one pass.
inline ScannedNumber scanNumber(Cursor& c) {
    const char* s = c.p;
    const char* q = s;
    ScannedNumber n;
    n.negative = *q == '-';
    q += n.negative;
    // A leading zero is the whole integer part ("01" is then refused by the caller).
    std::size_t count = *q == '0' ? 1 : json::digitRun(q);
    // digitsValue reads the 16 bytes before the digits' end, which are in the document after its
    // first 16 bytes.
    if (count == 0 || count > 16 || uint64_t(q - c.base()) + count < 16) {
        n.text = c.readNumber();  // NaN, Infinity, -Infinity, errors, long or early numbers
        return n;
    }
    n.digits = json::digitsValue(q, count);
    q += count;
    if (*q == '.') {
        std::size_t decimals = json::digitRun(q + 1);
        if (decimals == 0 || decimals > 16) {
            n.text = c.readNumber();
            return n;
        }
        static constexpr std::array<uint64_t, 17> kScale = [] {
            std::array<uint64_t, 17> powers{1};
            for (std::size_t i = 1; i < powers.size(); ++i) powers[i] = powers[i - 1] * 10;
            return powers;
        }();
        n.digits = n.digits * kScale[decimals] + json::digitsValue(q + 1, decimals);
        n.decimals = int(decimals);
        count += decimals;
        q += 1 + decimals;
    }
    if (*q == 'e' || *q == 'E' || q > c.end()) {
        n.text = c.readNumber();  // exponents and errors: the general reader
        return n;
    }
    c.p = q;
    n.text = {s, std::size_t(q - s)};
    n.plain = count <= 18;  // the digits did not overflow
    return n;
}

inline uint64_t storeBits(const PyNum& n, PyNum::Kind& kind) {
    if (n.kind == PyNum::Kind::Int && (n.i < INT64_MIN || n.i > INT64_MAX)) {
        kind = PyNum::Kind::Float;  // beyond int64: kept as a double (no real trace gets here)
        double f = double(n.i);
        uint64_t bits;
        std::memcpy(&bits, &f, sizeof bits);
        return bits;
    }
    kind = n.kind;
    if (n.kind == PyNum::Kind::Int) return uint64_t(int64_t(n.i));
    uint64_t bits;
    std::memcpy(&bits, &n.f, sizeof bits);
    return bits;
}

}  // namespace stackline::detail
