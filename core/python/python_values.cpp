#include "python/python_values.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>

#include "base/unicode.h"

namespace stackline {
namespace {

// Sign of (i - f) for a finite or infinite, non-NaN f, computed exactly as Python does.
int compareIntFloat(__int128 i, double f) {
    if (std::isinf(f)) return f > 0 ? -1 : 1;
    double fl = std::floor(f);
    if (fl >= 1.7e38) return -1;
    if (fl < -1.7e38) return 1;
    auto fi = static_cast<__int128>(fl);
    if (i < fi) return -1;
    if (i > fi) return 1;
    return f > fl ? -1 : 0;
}

// -1, 0, 1, or 2 when unordered (NaN or not numbers).
int compare(const PyNum& a, const PyNum& b) {
    using K = PyNum::Kind;
    if (!a.isNumber() || !b.isNumber()) return 2;
    if (a.kind == K::Int && b.kind == K::Int) return a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
    if (a.kind == K::Float && b.kind == K::Float) {
        if (std::isnan(a.f) || std::isnan(b.f)) return 2;
        return a.f < b.f ? -1 : a.f > b.f ? 1 : 0;
    }
    if (a.kind == K::Int) return std::isnan(b.f) ? 2 : compareIntFloat(a.i, b.f);
    return std::isnan(a.f) ? 2 : -compareIntFloat(b.i, a.f);
}

void appendHex(std::string& out, char prefix, unsigned v, int digits) {
    static const char* hex = "0123456789abcdef";
    out += '\\';
    out += prefix;
    for (int k = digits - 1; k >= 0; --k) out += hex[(v >> (4 * k)) & 0xF];
}

}  // namespace

std::string pyIntRepr(__int128 v) {
    if (v == 0) return "0";
    bool neg = v < 0;
    unsigned __int128 u =
        neg ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
    std::string s;
    while (u) {
        s += char('0' + int(u % 10));
        u /= 10;
    }
    if (neg) s += '-';
    return {s.rbegin(), s.rend()};
}

namespace {

// Python's repr of v when v is the double nearest a decimal of at most three places below 2^43
// in magnitude (a time in µs from integer ns, as most trace times are): that decimal, trailing
// zeros dropped. Its double's spacing there is under 0.001, so no shorter decimal reads back as
// v. False, writing nothing, for any other v.
bool appendThousandths(std::string& out, double v) {
    if (!(std::fabs(v) < 0x1p43) || v == 0) return false;
    const double scaled = std::nearbyint(v * 1000);
    const auto n = static_cast<int64_t>(scaled);
    if (static_cast<double>(n) / 1000 != v) return false;
    const uint64_t a = n < 0 ? uint64_t(-n) : uint64_t(n);
    char text[32];
    char* end = text;
    if (n < 0) *end++ = '-';
    end = std::to_chars(end, text + sizeof text, a / 1000).ptr;
    *end++ = '.';
    unsigned fraction = unsigned(a % 1000);
    if (fraction == 0) {
        *end++ = '0';
    } else {
        int places = 3;
        for (; fraction % 10 == 0; fraction /= 10) --places;
        for (int i = places - 1; i >= 0; --i, fraction /= 10) end[i] = char('0' + fraction % 10);
        end += places;
    }
    out.append(text, end);
    return true;
}

}  // namespace

void appendPyFloat(std::string& out, double v) {
    if (appendThousandths(out, v)) return;
    if (std::isnan(v)) {
        out += "NaN";
        return;
    }
    if (std::isinf(v)) {
        out += v > 0 ? "Infinity" : "-Infinity";
        return;
    }
    // The shortest digits that read back as v, then Python's layout of them (float_repr_style
    // 'short'): positional for decimal exponents -4 to 15, else d.ddde+XX, and ".0" on integers.
    char sci[32];
    const char* end = std::to_chars(sci, sci + sizeof sci, v, std::chars_format::scientific).ptr;
    const char* e = std::find(static_cast<const char*>(sci), end, 'e');
    const bool negative = sci[0] == '-';
    char digits[24];
    int n = 0;
    for (const char* c = sci + negative; c < e; ++c)
        if (*c != '.') digits[n++] = *c;
    int exponent = 0;
    std::from_chars(e + 1 + (e[1] == '+'), end, exponent);
    if (negative) out += '-';
    if (exponent >= -4 && exponent < 16) {
        if (exponent < 0) {
            out += "0.";
            out.append(std::size_t(-exponent - 1), '0');
            out.append(digits, std::size_t(n));
        } else if (exponent + 1 >= n) {
            out.append(digits, std::size_t(n));
            out.append(std::size_t(exponent + 1 - n), '0');
            out += ".0";
        } else {
            out.append(digits, std::size_t(exponent) + 1);
            out += '.';
            out.append(digits + exponent + 1, std::size_t(n - exponent - 1));
        }
        return;
    }
    out += digits[0];
    if (n > 1) {
        out += '.';
        out.append(digits + 1, std::size_t(n - 1));
    }
    out += exponent < 0 ? "e-" : "e+";
    const int a = exponent < 0 ? -exponent : exponent;
    if (a < 10) out += '0';
    out += std::to_string(a);
}

std::string pyFloatRepr(double v) {
    std::string out;
    appendPyFloat(out, v);
    return out;
}

void appendPyNumber(std::string& out, const PyNum& n) {
    if (n.kind == PyNum::Kind::Int) {
        if (n.i >= INT64_MIN && n.i <= INT64_MAX) {
            char digits[24];
            out.append(digits, std::to_chars(digits, digits + sizeof digits, int64_t(n.i)).ptr);
        } else {
            out += pyIntRepr(n.i);
        }
    } else if (n.kind == PyNum::Kind::Float) {
        appendPyFloat(out, n.f);
    } else {
        out += "null";
    }
}

std::string pyNumberJson(const PyNum& n) {
    std::string out;
    appendPyNumber(out, n);
    return out;
}

PyNum pyAdd(const PyNum& a, const PyNum& b) {
    using K = PyNum::Kind;
    if (!a.isNumber() || !b.isNumber()) return {K::Invalid};
    if (a.kind == K::Int && b.kind == K::Int) return PyNum::integer(a.i + b.i);
    double x = a.kind == K::Int ? static_cast<double>(a.i) : a.f;
    double y = b.kind == K::Int ? static_cast<double>(b.i) : b.f;
    return PyNum::real(x + y);
}

bool pyLessMixed(const PyNum& a, const PyNum& b) {
    return compare(a, b) == -1;
}
bool pyLessEqualMixed(const PyNum& a, const PyNum& b) {
    int c = compare(a, b);
    return c == -1 || c == 0;
}
bool pyEqual(const PyNum& a, const PyNum& b) {
    return compare(a, b) == 0;
}

std::optional<__int128> pyIntFromString(std::string_view s) {
    std::size_t i = 0, n = s.size();
    auto skipSpace = [&] {
        while (i < n) {
            std::size_t j = i;
            if (!unicode::isSpace(unicode::decodeUtf8(s, j))) break;
            i = j;
        }
    };
    skipSpace();
    bool neg = false;
    if (i < n && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
    unsigned __int128 v = 0;
    int digits = 0;
    bool lastUnderscore = false;
    while (i < n) {
        if (s[i] == '_') {
            if (digits == 0 || lastUnderscore) return std::nullopt;
            lastUnderscore = true;
            ++i;
            continue;
        }
        std::size_t j = i;
        int d = unicode::decimalValue(unicode::decodeUtf8(s, j));
        if (d < 0) break;
        if (v > (~static_cast<unsigned __int128>(0) >> 1) / 10) return std::nullopt;
        v = v * 10 + unsigned(d);
        ++digits;
        lastUnderscore = false;
        i = j;
    }
    if (digits == 0 || lastUnderscore) return std::nullopt;
    skipSpace();
    if (i != n) return std::nullopt;
    auto r = static_cast<__int128>(v);
    return neg ? -r : r;
}

std::string pyStrRepr(std::string_view s) {
    bool hasSingle = s.find('\'') != std::string_view::npos;
    bool hasDouble = s.find('"') != std::string_view::npos;
    char quote = hasSingle && !hasDouble ? '"' : '\'';
    std::string out(1, quote);
    for (std::size_t i = 0; i < s.size();) {
        char32_t c = unicode::decodeUtf8(s, i);
        if (c == char32_t(quote) || c == '\\') {
            out += '\\';
            out += char(c);
        } else if (c == '\t') {
            out += "\\t";
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c < 0x20 || c == 0x7F) {
            appendHex(out, 'x', c, 2);
        } else if (c < 0x80 || unicode::isPrintable(c)) {
            unicode::appendUtf8(out, c);
        } else if (c < 0x100) {
            appendHex(out, 'x', c, 2);
        } else if (c < 0x10000) {
            appendHex(out, 'u', c, 4);
        } else {
            appendHex(out, 'U', c, 8);
        }
    }
    out += quote;
    return out;
}

std::string pyGraphKey(std::string_view name, bool backward) {
    std::string key = "(";
    key += pyStrRepr(name);
    key += backward ? ", True)" : ", False)";
    return key;
}

KeyPool::KeyPool() {
    value_.push_back(0);
    hasCanon_.push_back(false);
}

KeyId KeyPool::intern(std::string canonical) {
    auto [it, inserted] = byCanon_.try_emplace(std::move(canonical), KeyId(value_.size()));
    if (inserted) {
        value_.push_back(int64_t(canon_.size()));
        hasCanon_.push_back(true);
        canon_.push_back(&it->first);
    }
    return it->second;
}

KeyId KeyPool::intKey(__int128 v) {
    if (v < INT64_MIN || v > INT64_MAX) {
        std::string canonical = "i";
        canonical += pyIntRepr(v);
        return intern(std::move(canonical));
    }
    auto x = int64_t(v);
    if (x >= 0 && (uint64_t(x) < direct_.size() || growDirect(uint64_t(x)))) {
        KeyId& id = direct_[std::size_t(x)];
        if (id == kNoKey) id = newSmall(x);
        return id;
    }
    auto [it, inserted] = small_.try_emplace(x, KeyId(value_.size()));
    if (inserted) newSmall(x);
    return it->second;
}

KeyId KeyPool::newSmall(int64_t v) {
    value_.push_back(v);
    hasCanon_.push_back(false);
    return KeyId(value_.size() - 1);
}

bool KeyPool::growDirect(uint64_t v) {
    // At most four slots per key: ids that are not dense stay in the map.
    uint64_t size = std::bit_ceil(v + 1);
    if (size > std::max<uint64_t>(1u << 16, 4 * uint64_t(value_.size()))) return false;
    direct_.resize(size, kNoKey);
    for (auto it = small_.begin(); it != small_.end();) {
        if (it->first >= 0 && uint64_t(it->first) < size) {
            direct_[std::size_t(it->first)] = it->second;
            small_.erase(it++);
        } else {
            ++it;
        }
    }
    return true;
}

KeyId KeyPool::floatKey(double v) {
    if (std::isnan(v)) return intern("nan");
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1.7e38)
        return intKey(static_cast<__int128>(v));
    std::string c = "f";
    char bits[sizeof v];
    std::memcpy(bits, &v, sizeof v);
    c.append(bits, sizeof v);
    return intern(std::move(c));
}

KeyId KeyPool::stringKey(std::string_view utf8) {
    std::string c = "s";
    c.append(utf8);
    return intern(std::move(c));
}

KeyId KeyPool::nullKey() {
    return intern("n");
}

KeyId KeyPool::existingNullKey() const {
    auto it = byCanon_.find("n");
    return it == byCanon_.end() ? kNoKey : it->second;
}

std::string KeyPool::describe(KeyId id) const {
    if (id == kNoKey) return "(none)";
    if (id == kUnhashable || id >= value_.size()) return "(unhashable)";
    if (isSmall(id)) return std::to_string(value_[id]);
    const std::string& c = *canonOf(id);
    switch (c[0]) {
        case 'i':
            return c.substr(1);
        case 's': {
            std::string quoted = "\"";
            quoted.append(c, 1, std::string::npos);
            quoted += '"';
            return quoted;
        }
        case 'n':
            return c == "nan" ? "NaN" : "None";
        default: {
            double v;
            std::memcpy(&v, c.data() + 1, sizeof v);
            char buf[40];
            std::snprintf(buf, sizeof buf, "%.17g", v);
            return buf;
        }
    }
}

std::optional<int64_t> KeyPool::asInt(KeyId id) const {
    if (isSmall(id)) return value_[id];
    const std::string* c = canonOf(id);
    if (!c || (*c)[0] != 'i' || c->size() > 20) return std::nullopt;
    return std::stoll(c->substr(1));
}

std::optional<std::string_view> KeyPool::asString(KeyId id) const {
    const std::string* c = canonOf(id);
    if (!c || (*c)[0] != 's') return std::nullopt;
    return std::string_view(*c).substr(1);
}

bool KeyPool::isNull(KeyId id) const {
    const std::string* c = canonOf(id);
    return c && *c == "n";
}

std::vector<KeyId> KeyPool::merge(const KeyPool& other) {
    std::vector<KeyId> remap(other.value_.size(), kNoKey);
    for (std::size_t k = 1; k < other.value_.size(); ++k)
        remap[k] =
            other.isSmall(KeyId(k)) ? intKey(other.value_[k]) : intern(*other.canonOf(KeyId(k)));
    return remap;
}

}  // namespace stackline
