// One pass over the bytes, no DOM: the traceEvents array is cut into chunks at event boundaries
// guessed from the bytes, each chunk is indexed on its own thread, and a guess is kept only when
// the chunk before it really ends there (otherwise that part is rescanned in order).
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <optional>
#include <thread>

#include "json_cursor.h"
#include "trace.h"

namespace stackline {
namespace {

using json::Cursor;
using json::RawString;

enum class Field { Other, Ph, Name, Cat, Pid, Tid, Ts, Dur, Id, Args, Uid };

// The first min(size, 8) bytes at p as a little-endian word, the rest zero. p is in the document,
// which is padded after its end: eight bytes can always be read, and a fixed-size load needs no
// call or loop.
uint64_t wordAt(const char* p, std::size_t size) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    return size >= 8 ? w : w & ((uint64_t(1) << (8 * size)) - 1);
}
// The same of a literal.
constexpr uint64_t wordOf(std::string_view s) {
    uint64_t w = 0;
    for (std::size_t i = 0; i < s.size() && i < 8; ++i) w |= uint64_t(uint8_t(s[i])) << (8 * i);
    return w;
}

// The field a key names, by one lookup of its (at most four) bytes in a table: a chain of
// comparisons mispredicted on Kineto's varying key orders. The multiplier hashes the ten names
// to distinct slots of sixteen.
struct FieldSlot {
    uint32_t word = 0;  // the name's bytes, little-endian, zero-padded
    uint8_t size = 0;
    Field field = Field::Other;
};
constexpr uint32_t kFieldHash = 0x9E37822Bu;
constexpr std::array<FieldSlot, 16> kFieldSlots = [] {
    std::array<FieldSlot, 16> slots{};
    const std::pair<std::string_view, Field> names[] = {
        {"ph", Field::Ph},     {"ts", Field::Ts},    {"id", Field::Id},   {"cat", Field::Cat},
        {"pid", Field::Pid},   {"tid", Field::Tid},  {"dur", Field::Dur}, {"uid", Field::Uid},
        {"name", Field::Name}, {"args", Field::Args}};
    for (auto [name, field] : names) {
        auto word = uint32_t(wordOf(name));
        FieldSlot& slot = slots[(word * kFieldHash) >> 28];
        if (slot.size) throw "two field names share a slot";  // fails the constant evaluation
        slot = {word, uint8_t(name.size()), field};
    }
    return slots;
}();

Field fieldOfWord(uint32_t word, std::size_t size) {
    const FieldSlot& slot = kFieldSlots[(word * kFieldHash) >> 28];
    return slot.word == word && slot.size == size ? slot.field : Field::Other;
}

Field fieldOf(const RawString& key) {
    if (key.escaped) {
        std::string k = json::unescape(key.raw);
        if (k.size() < 2 || k.size() > 4) return Field::Other;
        uint32_t word = 0;
        std::memcpy(&word, k.data(), k.size());
        return fieldOfWord(word, k.size());
    }
    std::size_t size = key.raw.size();
    if (size < 2 || size > 4) return Field::Other;
    return fieldOfWord(uint32_t(wordAt(key.raw.data(), size)), size);
}

// The args keys the processor reads. Most args keys are none of them: a raw key is told apart
// by its first eight bytes, which mostly fails at once where comparing by size and content
// mispredicted.
enum class ArgsKey { Other, ExternalId, CallFrom, Stack };
ArgsKey argsKeyOf(const RawString& key) {
    if (key.escaped) {
        std::string k = json::unescape(key.raw);
        return k == "External id" ? ArgsKey::ExternalId
               : k == "CallFrom"  ? ArgsKey::CallFrom
               : k == "stack"     ? ArgsKey::Stack
                                  : ArgsKey::Other;
    }
    std::size_t size = key.raw.size();
    uint64_t w = wordAt(key.raw.data(), size);
    if (w == wordOf("External"))
        return key.raw == "External id" ? ArgsKey::ExternalId : ArgsKey::Other;
    if (w == wordOf("CallFrom") && size == 8) return ArgsKey::CallFrom;
    if (w == wordOf("stack") && size == 5) return ArgsKey::Stack;
    return ArgsKey::Other;
}

bool isZeroNumber(std::string_view t) {
    for (char c : t) {
        if (c == 'e' || c == 'E') break;
        if (c >= '1' && c <= '9') return false;
        if (c == 'N' || c == 'I') return false;
    }
    return true;
}

double parseDouble(std::string_view t) {
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
PyNum parseNumber(std::string_view t) {
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
constexpr int64_t kMaxNs = (int64_t(1) << 62) - 1;

// An exponent, NaN or Infinity in a number's text (a plain loop: find_first_of calls memchr per
// character).
bool hasExponentOrWord(std::string_view t) {
    for (char c : t)
        if (c == 'e' || c == 'E' || c == 'N' || c == 'I') return true;
    return false;
}

int64_t nanosFromText(std::string_view t, const PyNum& n) {
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
ScannedNumber scanNumber(Cursor& c) {
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

uint64_t storeBits(const PyNum& n, PyNum::Kind& kind) {
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

// The columns of one event while it is parsed: filled in a local record (no aliasing with the
// table's vectors) and appended at once.
struct Row {
    uint32_t length = 0, argsOffset = 0, argsLength = 0;
    uint32_t name = 0, cat = 0;
    char phase = 0;
    KeyId pid = kNoKey, tid = kNoKey, externalId = kNoKey, uid = kNoKey;
    int64_t flowId = 0, tsNs = 0, durNs = 0;
    uint64_t tsBits = 0, durBits = 0;
    EventTable::Kinds kinds{};
};
// Copied into each new row: GCC clears a fresh Row with `rep stos`, slow to start for 88 bytes.
constexpr Row kEmptyRow{};

// Indexes events from one position of the traceEvents array into its own table.
class EventScanner {
public:
    EventScanner(const char* base, const char* pos, const char* end, EventTable& table,
                 bool nanoseconds)
        : c(base, pos, end), t(table), nanoseconds_(nanoseconds) {}

    Cursor c;

    // Scans events until the array ends or the next event would start at stopAt.
    // Returns true when the array ended (the ']' consumed). tick(offset) runs every 4096 events.
    template <typename Tick>
    bool scan(const char* stopAt, Tick&& tick) {
        for (uint32_t n = 1;; ++n) {
            if (c.p >= stopAt) return false;
            parseEvent();
            c.skipSpace();
            if (*c.p == ']' && !c.atEnd()) {
                ++c.p;
                return true;
            }
            c.expect(',', "expected ',' or ']' after an event in traceEvents");
            c.skipSpace();
            if ((n & 4095) == 0) tick(uint64_t(c.p - c.base()));
        }
    }

private:
    EventTable& t;
    bool nanoseconds_;
    std::string scratch_;

    // One bit per byte of the N (16 or 32) at p (default: c.p) that equal those of `bytes`.
    template <std::size_t N>
    unsigned sameBytes(const std::array<char, N>& bytes) const {
        return sameBytes(c.p, bytes);
    }
    template <std::size_t N>
    static unsigned sameBytes(const char* p, const std::array<char, N>& bytes) {
        const auto* at = reinterpret_cast<const __m128i*>(p);
        const auto* b = reinterpret_cast<const __m128i*>(bytes.data());
        auto same =
            unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(at), _mm_loadu_si128(b))));
        if constexpr (N == 32)
            same |= unsigned(_mm_movemask_epi8(
                        _mm_cmpeq_epi8(_mm_loadu_si128(at + 1), _mm_loadu_si128(b + 1))))
                    << 16;
        return same;
    }

    // The bytes from the end of a member's value (or from just after the object's '{') to the
    // start of the next value, or to just past the closing '}', as last seen at the same place of
    // an earlier event. Kineto writes the events of a kind alike, so one 32-byte compare mostly
    // stands for reading the whitespace, the comma, the key and the colon. Bytes that once read as
    // a key (or a close) inside an object read the same anywhere inside one.
    struct MemberGuess {
        std::array<char, 32> bytes{};
        uint32_t need = 0;  // one bit per byte of the guess; 0: no guess yet
        uint8_t size = 0;
        uint8_t member = 0;  // a Field or an ArgsKey, or kClosed
    };
    static constexpr uint8_t kClosed = 0xFF;
    // Event members by the previous field (none first) and the phase; args members by their
    // place and the event's category.
    std::array<MemberGuess, 12 * 8> fieldGuesses_{};
    std::array<MemberGuess, 16 * 8> argsGuesses_{};

    // A field's last value as its raw bytes and what it read as: phases, categories (by phase),
    // pids and tids (by category) mostly repeat. A value that does not end in a quote or bracket
    // takes the byte after it too, so that a match ends where the value does. Guesses are copied
    // whole whatever their size, which the padding after the document allows.
    struct ValueGuess {
        std::array<char, 16> bytes{};
        uint32_t need = 0;  // one bit per byte to compare; 0: no guess yet
        uint8_t size = 0;   // the value's bytes
        uint32_t value = 0;
    };
    ValueGuess phGuess_;
    std::array<ValueGuess, 8> catGuesses_, pidGuesses_, tidGuesses_;

    bool sameValue(const ValueGuess& g) {
        if (g.need == 0 || (sameBytes(g.bytes) & g.need) != g.need) return false;
        c.p += g.size;
        return true;
    }
    void rememberValue(ValueGuess& g, const char* from, uint32_t value) {
        auto size = std::size_t(c.p - from);
        char last = c.p[-1];
        std::size_t compared = last == '"' || last == ']' || last == '}' ? size : size + 1;
        if (compared > g.bytes.size()) return;
        std::memcpy(g.bytes.data(), from, g.bytes.size());
        g.need = compared == 16 ? 0xFFFFu : (1u << compared) - 1;
        g.size = uint8_t(size);
        g.value = value;
    }
    // A string value guessed as the last one, else read (ph and cat).
    ValueKind readGuessedString(ValueGuess& g, uint32_t& id) {
        if (sameValue(g)) {
            id = g.value;
            return ValueKind::String;
        }
        const char* from = c.p;
        ValueKind kind = readKind(&id);
        if (kind == ValueKind::String) rememberValue(g, from, id);
        return kind;
    }
    KeyId readGuessedKey(ValueGuess& g) {
        if (sameValue(g)) return g.value;
        const char* from = c.p;
        KeyId id = readKey();
        rememberValue(g, from, id);
        return id;
    }

    // Moves c.p to the next member's value and returns what its key names (classify), or past
    // the closing '}' and returns kClosed. first: c.p is just after '{'.
    template <typename Classify>
    uint8_t nextMember(MemberGuess& g, bool first, Classify&& classify) {
        // The document is padded after its end, and a guess ends in a byte that is not NUL, so
        // a match lies within the document.
        unsigned same = sameBytes(g.bytes);
        // After a key, the value must start where the guess ends: "ph": would otherwise match
        // the start of "ph":  "X".
        if (g.need != 0 && (same & g.need) == g.need &&
            (g.member == kClosed || !json::isSpace(c.p[g.size]))) {
            c.p += g.size;
            return g.member;
        }
        const char* from = c.p;
        uint8_t member;
        if (first) {
            c.skipSpace();
            if (*c.p == '}') {
                ++c.p;
                return kClosed;  // {}: not worth a guess
            }
            member = uint8_t(classify(c.readKey()));
        } else {
            member = c.nextMember('}') ? uint8_t(classify(c.readKey())) : kClosed;
        }
        auto size = std::size_t(c.p - from);
        if (size <= g.bytes.size()) {
            std::memcpy(g.bytes.data(), from, g.bytes.size());  // a fixed size: no call, no table
            g.size = uint8_t(size);
            g.need = size == 32 ? ~0u : (1u << size) - 1;
            g.member = member;
        }
        return member;
    }

    // Skips a value; strings and numbers (most values) without the general skipper's set-up.
    void skipAny() {
        char ch = *c.p;
        if (ch == '"')
            c.readString();
        else if ((ch >= '0' && ch <= '9') || ch == '-')
            c.readNumber();
        else
            c.skipValue();
    }

    std::string_view decoded(const RawString& s) {
        if (!s.escaped) return s.raw;
        scratch_ = json::unescape(s.raw);
        return scratch_;
    }

    // Names and categories repeat from event to event: a small direct-mapped cache in front of
    // the pool saves hashing whole strings and probing its map. Entries keep the first 32 bytes,
    // so that most strings are compared without a call.
    struct RecentString {
        std::array<char, 32> bytes{};
        uint32_t size = 0;
        uint32_t id = UINT32_MAX;
    };
    std::array<RecentString, 256> recent_{};
    uint32_t internString(const RawString& raw) {
        std::string_view s = decoded(raw);
        uint64_t head = 0, tail = 0;
        if (!raw.escaped)
            head = wordAt(s.data(), s.size());
        else
            std::memcpy(&head, s.data(), std::min<std::size_t>(s.size(), 8));
        if (s.size() > 8) std::memcpy(&tail, s.data() + s.size() - 8, 8);
        uint64_t h = (head ^ (tail * 0x9E3779B97F4A7C15ull) ^ s.size()) * 0xFF51AFD7ED558CCDull;
        RecentString& e = recent_[h >> 56];
        // Raw strings lie in the padded document, where 32 bytes can be read.
        bool inline32 = !raw.escaped && s.size() <= e.bytes.size();
        if (e.id != UINT32_MAX && e.size == s.size()) {
            if (inline32) {
                uint32_t need = s.size() == 32 ? ~0u : (1u << s.size()) - 1;
                if ((sameBytes(s.data(), e.bytes) & need) == need) return e.id;
            } else if (t.strings.at(e.id) == s) {
                return e.id;
            }
        }
        e.id = t.strings.intern(s);
        e.size = uint32_t(s.size());
        if (inline32)
            std::memcpy(e.bytes.data(), s.data(), e.bytes.size());
        else
            std::memcpy(e.bytes.data(), s.data(), std::min(s.size(), e.bytes.size()));
        return e.id;
    }

    ValueKind readKind(uint32_t* stringId) {
        switch (*c.p) {
            case '"': {
                RawString s = c.readString();
                if (stringId) *stringId = internString(s);
                return ValueKind::String;
            }
            case '[':
                c.skipValue();
                return ValueKind::Array;
            case '{':
                c.skipValue();
                return ValueKind::Object;
            case 'n':
                c.skipValue();
                return ValueKind::Null;
            case 't':
                c.skipValue();
                return ValueKind::TruthyScalar;
            case 'f':
                c.skipValue();
                return ValueKind::FalsyScalar;
            default:
                return isZeroNumber(c.readNumber()) ? ValueKind::FalsyScalar
                                                    : ValueKind::TruthyScalar;
        }
    }

    KeyId readKey() {
        switch (*c.p) {
            case '"':
                return t.keys.stringKey(decoded(c.readString()));
            case '[':
            case '{':
                c.skipValue();
                return kUnhashable;
            case 'n':
                c.skipValue();
                return t.keys.nullKey();
            case 't':
                c.skipValue();
                return t.keys.intKey(1);
            case 'f':
                c.skipValue();
                return t.keys.intKey(0);
            default: {
                PyNum n = scanNumber(c).value();
                return n.kind == PyNum::Kind::Int ? intKey(n.i) : t.keys.floatKey(n.f);
            }
        }
    }

    // pids and tids repeat: the same kind of cache for integer keys.
    std::array<std::pair<int64_t, KeyId>, 16> recentInts_{};
    KeyId intKey(__int128 v) {
        if (v < INT64_MIN || v > INT64_MAX) return t.keys.intKey(v);
        auto& e = recentInts_[(uint64_t(v) * 0x9E3779B97F4A7C15ull) >> 60];
        if (e.second == kNoKey || e.first != int64_t(v)) e = {int64_t(v), t.keys.intKey(v)};
        return e.second;
    }

    PyNum readNum(int64_t& ns) {
        switch (*c.p) {
            case 't':
                c.skipValue();
                ns = 1000;
                return PyNum::integer(1);
            case 'f':
                c.skipValue();
                ns = 0;
                return PyNum::integer(0);
            case '"':
            case '[':
            case '{':
            case 'n':
                c.skipValue();
                return {PyNum::Kind::Invalid};
            default: {
                ScannedNumber scanned = scanNumber(c);
                PyNum n = scanned.value();
                if (nanoseconds_) ns = scanned.nanos(n);
                return n;
            }
        }
    }

    // Python's int() of the value.
    FlowIdStatus readFlowId(uint32_t row, int64_t& out) {
        std::optional<__int128> v;
        switch (*c.p) {
            case '"':
                v = pyIntFromString(decoded(c.readString()));
                break;
            case 't':
                c.skipValue();
                v = 1;
                break;
            case 'f':
                c.skipValue();
                v = 0;
                break;
            case '[':
            case '{':
            case 'n':
                c.skipValue();
                break;
            default: {
                PyNum n = scanNumber(c).value();
                if (n.kind == PyNum::Kind::Int)
                    v = n.i;
                else if (std::isfinite(n.f) && std::fabs(n.f) < 1.7e38)
                    v = __int128(std::trunc(n.f));
            }
        }
        if (!v) return FlowIdStatus::Invalid;
        if (*v < INT64_MIN || *v > INT64_MAX) {
            t.bigFlowId[row] = *v;
            return FlowIdStatus::Big;
        }
        out = int64_t(*v);
        return FlowIdStatus::Ok;
    }

    void readArgs(uint32_t row, Row& r, const char* eventStart) {
        EventTable::Kinds& k = r.kinds;
        const char* start = c.p;
        k.callFrom = CallFrom::No;
        k.argsEmpty = false;
        r.externalId = kNoKey;
        if (!t.stackValue.empty()) t.stackValue.erase(row);
        switch (*c.p) {
            case '{': {
                k.args = ValueKind::Object;
                ++c.p;
                auto guessAt = [&](unsigned place) -> MemberGuess& {
                    return argsGuesses_[std::min(place, 15u) * 8 + (r.cat & 7)];
                };
                uint8_t member = nextMember(guessAt(0), true, argsKeyOf);
                if (member == kClosed) {
                    k.argsGap = EventTable::gap(c.p - start - 2);
                    k.argsEmpty = true;
                    break;
                }
                const char* afterMember;
                for (unsigned place = 1;; ++place) {
                    auto key = ArgsKey(member);
                    if (key == ArgsKey::ExternalId) {
                        KeyId id = readKey();
                        r.externalId = t.keys.isNull(id) ? kNoKey : id;
                    } else if (key == ArgsKey::CallFrom) {
                        k.callFrom = CallFrom::Yes;
                        c.skipValue();
                    } else if (key == ArgsKey::Stack) {
                        uint64_t b = uint64_t(c.p - c.base());
                        c.skipValue();
                        t.stackValue[row] = {b, uint64_t(c.p - c.base())};
                    } else {
                        skipAny();
                    }
                    afterMember = c.p;
                    member = nextMember(guessAt(place), false, argsKeyOf);
                    if (member == kClosed) break;
                }
                k.argsGap = EventTable::gap(c.p - 1 - afterMember);
                break;
            }
            case '"': {
                k.args = ValueKind::String;
                k.callFrom = decoded(c.readString()).find("CallFrom") != std::string_view::npos
                                 ? CallFrom::Yes
                                 : CallFrom::No;
                break;
            }
            case '[': {
                k.args = ValueKind::Array;
                ++c.p;
                c.skipSpace();
                if (*c.p == ']') {
                    ++c.p;
                    break;
                }
                do {
                    if (*c.p == '"') {
                        if (decoded(c.readString()) == "CallFrom") k.callFrom = CallFrom::Yes;
                    } else {
                        c.skipValue();
                    }
                } while (c.nextMember(']'));
                break;
            }
            default:
                k.args = readKind(nullptr);
                k.callFrom = CallFrom::Raises;
        }
        r.argsOffset = uint32_t(start - eventStart);
        r.argsLength = uint32_t(c.p - start);
    }

    void parseEvent() {
        const char* start = c.p;
        auto row = uint32_t(t.begin.size());
        Row r = kEmptyRow;
        EventTable::Kinds& k = r.kinds;
        k.event = ValueKind::Object;
        if (*c.p != '{' || c.atEnd()) {
            k.event = readKind(nullptr);
        } else {
            ++c.p;
            uint8_t member = nextMember(fieldGuesses_[0], true, fieldOf);
            if (member == kClosed) {
                k.eventGap = EventTable::gap(c.p - start - 2);
                k.objectEmpty = true;
            } else {
                const char* afterMember;
                for (;;) {
                    switch (Field(member)) {
                        case Field::Ph: {
                            uint32_t id = 0;
                            ValueKind v = readGuessedString(phGuess_, id);
                            std::string_view s = t.strings.at(id);
                            r.phase = v == ValueKind::String && s.size() == 1 ? s[0] : 0;
                            break;
                        }
                        case Field::Name:
                            k.name = readKind(&r.name);
                            break;
                        case Field::Cat:
                            k.cat = readGuessedString(catGuesses_[r.phase & 7], r.cat);
                            break;
                        case Field::Pid:
                            r.pid = readGuessedKey(pidGuesses_[r.cat & 7]);
                            break;
                        case Field::Tid:
                            r.tid = readGuessedKey(tidGuesses_[r.cat & 7]);
                            break;
                        case Field::Ts: {
                            PyNum::Kind kind;
                            r.tsBits = storeBits(readNum(r.tsNs), kind);
                            k.ts = kind;
                            break;
                        }
                        case Field::Dur: {
                            PyNum::Kind kind;
                            r.durBits = storeBits(readNum(r.durNs), kind);
                            k.dur = kind;
                            break;
                        }
                        case Field::Id:
                            k.flowId = readFlowId(row, r.flowId);
                            break;
                        case Field::Args:
                            readArgs(row, r, start);
                            break;
                        case Field::Uid: {
                            uint64_t b = uint64_t(c.p - c.base());
                            r.uid = readKey();
                            t.uidValue[row] = {b, uint64_t(c.p - c.base())};
                            break;
                        }
                        case Field::Other:
                            skipAny();
                            break;
                    }
                    afterMember = c.p;
                    MemberGuess& next = fieldGuesses_[(member + 1u) * 8 + (r.phase & 7)];
                    member = nextMember(next, false, fieldOf);
                    if (member == kClosed) break;
                }
                k.eventGap = EventTable::gap(c.p - 1 - afterMember);
            }
        }
        if (uint64_t(c.p - start) > UINT32_MAX) c.fail("event larger than 4 GiB");
        r.length = uint32_t(c.p - start);
        t.begin.push_back(uint64_t(start - c.base()));
        t.length.push_back(r.length);
        t.argsOffset.push_back(r.argsOffset);
        t.argsLength.push_back(r.argsLength);
        t.name.push_back(r.name);
        t.cat.push_back(r.cat);
        t.phase.push_back(r.phase);
        t.pid.push_back(r.pid);
        t.tid.push_back(r.tid);
        t.externalId.push_back(r.externalId);
        t.uid.push_back(r.uid);
        t.flowId.push_back(r.flowId);
        if (nanoseconds_) {
            t.tsNs.push_back(r.tsNs);
            t.durNs.push_back(r.durNs);
        }
        t.tsBits.push_back(r.tsBits);
        t.durBits.push_back(r.durBits);
        t.kinds.push_back(k);
    }
};

// The position of an event that likely starts at or after from: a '{' preceded by ',' and '}'.
const char* guessEventStart(const char* from, const char* end) {
    const char* limit = std::min(end, from + (4 << 20));
    for (const char* p = from; p < limit; ++p) {
        p = static_cast<const char*>(std::memchr(p, '{', size_t(limit - p)));
        if (!p) return nullptr;
        const char* q = p - 1;
        while (q > from && json::isSpace(*q)) --q;
        if (q <= from || *q != ',') continue;
        --q;
        while (q > from && json::isSpace(*q)) --q;
        if (q > from && *q == '}') return p;
    }
    return nullptr;
}

// Where to cut `bytes` of traceEvents into chunks, as offsets. The loading thread scans from the
// front and the workers from the back, so they meet near bytes / threads; chunks halve in size
// toward that point (down to minBytes), so that whoever gets there first waits for at most a
// small chunk, while far from it a few big chunks keep the number of seams low.
std::vector<uint64_t> chunkCuts(uint64_t bytes, unsigned threads, uint64_t minBytes) {
    std::vector<uint64_t> cuts;
    minBytes = std::max<uint64_t>(minBytes, 1);
    if (threads < 2 || bytes < 2 * minBytes) return cuts;
    uint64_t meet = bytes / threads;
    for (uint64_t at = 0; meet - at >= 2 * minBytes;) cuts.push_back(at += (meet - at) / 2);
    if (meet >= minBytes) cuts.push_back(meet);
    std::vector<uint64_t> back;
    for (uint64_t at = bytes; at - meet >= 2 * minBytes;)
        back.push_back(at -= std::max(minBytes, (at - meet) / (2 * (threads - 1))));
    cuts.insert(cuts.end(), back.rbegin(), back.rend());
    return cuts;
}

// Pages of a plain file are handed back to the page cache this often while scanning, so resident
// memory holds the event table, not the file.
constexpr uint64_t kReleaseStep = 16u << 20;

// Real traces have 250-400 bytes per event; reserving for 150 avoids copying columns as they
// grow, and reserved pages that are never written cost no memory.
void reserveFor(EventTable& t, uint64_t bytes) {
    if (bytes > (4u << 20)) t.reserve(bytes / 150);
}

// A speculative chunk. The loading thread takes chunks from the front and scans them into the
// final table directly; workers take them from the back into their own tables, which are
// appended when the loading thread reaches them. Whoever is left with less work takes more.
struct Chunk {
    enum Owner : int { Nobody, Loader, Worker };
    const char* start = nullptr;
    const char* stop = nullptr;  // the next chunk's start, or past the end
    std::atomic<int> owner{Nobody};
    std::atomic<bool> done{false};  // a worker finished it (waitable)
    const char* stoppedAt = nullptr;
    bool arrayEnded = false;
    EventTable table;
    std::exception_ptr error;
    std::atomic<uint64_t> progress{0};  // bytes scanned
    bool claim(Owner who) {
        int expected = Nobody;
        return owner.compare_exchange_strong(expected, who);
    }
};

class Loader {
public:
    Loader(const TraceBytes& bytes, const LoadOptions& options)
        : bytes_(bytes), options_(options) {}

    void run(EventTable& events, TraceInfo& info) {
        std::string_view text = bytes_.text();
        const char* base = text.data();
        const char* end = base + text.size();
        Cursor c(base, base, end);
        if (text.size() >= 3 && std::memcmp(base, "\xEF\xBB\xBF", 3) == 0) c.p += 3;
        c.skipSpace();
        if (c.atEnd()) c.fail("the file is empty");
        if (*c.p != '{')
            c.fail(
                *c.p == '['
                    ? "the top level is an array; a Kineto trace is an object with \"traceEvents\""
                    : "not a JSON trace: the top level is not an object");
        ++c.p;
        c.skipSpace();
        bool sawEvents = false;
        // Where the last "traceEvents" is when it is not a list: Python keeps the last of
        // repeated keys, so this is refused only once the whole document has been read.
        std::optional<uint64_t> notAList;
        if (*c.p != '}') {
            info.topEmpty = false;
            do {
                std::string key = json::decodeString(c.readKey());
                if (key == "traceEvents" && (*c.p != '[' || c.atEnd())) {
                    notAList = c.offset();
                    c.skipValue();
                } else if (key == "traceEvents") {
                    notAList.reset();
                    events = EventTable();  // a repeated key replaces the earlier value
                    scanEvents(c, events);
                    sawEvents = true;
                } else if (key == "uid_assigned") {
                    const char* b = c.p;
                    char first = *c.p;
                    c.skipValue();
                    std::string_view v(b, size_t(c.p - b));
                    info.uidAssignedPresent = true;
                    info.uidAssignedValue = {uint64_t(b - base), uint64_t(c.p - base)};
                    info.uidAssignedTruthy = truthy(first, v);
                } else {
                    c.skipValue();
                }
            } while (c.nextMember('}'));
            info.topClose = c.offset() - 1;
        } else {
            info.topClose = c.offset();
            ++c.p;
        }
        c.skipSpace();
        if (!c.atEnd()) c.fail("unexpected data after the top-level object");
        if (notAList) throw json::SyntaxError(*notAList, "\"traceEvents\" is not a list");
        if (!sawEvents) c.fail("not a trace: the top-level object has no \"traceEvents\"");
    }

private:
    static bool truthy(char first, std::string_view v) {
        switch (first) {
            case 'n':
            case 'f':
                return false;
            case 't':
                return true;
            case '"':
                return v.size() > 2;
            case '[':
            case '{': {
                std::size_t i = 1;
                while (i < v.size() && json::isSpace(v[i])) ++i;
                return i + 1 < v.size();
            }
            default:
                return !isZeroNumber(v);
        }
    }

    // The pages a scan has read, every kReleaseStep bytes.
    void releaseBehind(uint64_t& released, uint64_t offset) const {
        if (offset - released <= kReleaseStep) return;
        bytes_.release(released, offset);
        released = offset;
    }

    bool cancelled() const {
        return cancelWorkers_.load(std::memory_order_relaxed) ||
               (options_.cancel && options_.cancel->load(std::memory_order_relaxed));
    }

    void scanEvents(Cursor& c, EventTable& events) {
        ++c.p;
        c.skipSpace();
        if (*c.p == ']' && !c.atEnd()) {
            ++c.p;
            return;
        }
        const char* base = c.base();
        const char* end = c.end();
        unsigned threads =
            options_.threads ? options_.threads : std::thread::hardware_concurrency();
        threads = std::clamp(threads, 1u, 16u);
        // Chunk 0 starts here; the others at guessed event starts.
        std::vector<std::unique_ptr<Chunk>> chunks;
        const char* previous = c.p;
        uint64_t remaining = uint64_t(end - c.p);
        for (uint64_t cut : chunkCuts(remaining, threads, options_.chunkBytes)) {
            const char* guess = guessEventStart(c.p + cut, end);
            if (guess && guess > previous) {
                chunks.push_back(std::make_unique<Chunk>());
                chunks.back()->start = previous = guess;
            }
        }
        for (std::size_t k = 0; k < chunks.size(); ++k)
            chunks[k]->stop = k + 1 < chunks.size() ? chunks[k + 1]->start : end + 1;

        std::vector<std::thread> workers;
        struct Joiner {
            Loader& l;
            std::vector<std::thread>& w;
            ~Joiner() {
                l.cancelWorkers_ = true;
                for (auto& t : w)
                    if (t.joinable()) t.join();
            }
        } joiner{*this, workers};
        for (unsigned w = 1; w < threads && !chunks.empty(); ++w) {
            workers.emplace_back([this, &chunks, base, end] {
                for (std::size_t k = chunks.size(); k-- > 0 && !cancelled();) {
                    Chunk& ch = *chunks[k];
                    if (!ch.claim(Chunk::Worker)) {
                        if (ch.owner.load() == Chunk::Loader) return;  // it took the rest
                        continue;                                      // another worker's
                    }
                    scanChunk(ch, base, end);
                    ch.done = true;
                    ch.done.notify_all();
                }
            });
        }

        // For all rows, so that appending the chunks does not move the columns.
        reserveFor(events, uint64_t(end - c.p));
        EventScanner s(base, c.p, end, events, options_.nanoseconds);
        uint64_t released = uint64_t(c.p - base);
        auto tick = [&](uint64_t offset) {
            if (options_.cancel && options_.cancel->load(std::memory_order_relaxed))
                throw Cancelled{};
            releaseBehind(released, offset);
            if (options_.progress) {
                uint64_t done = offset;
                for (auto& ch : chunks)
                    if (ch->owner.load(std::memory_order_relaxed) == Chunk::Worker)
                        done += ch->progress.load(std::memory_order_relaxed);
                options_.progress(std::min<uint64_t>(done, uint64_t(end - base)),
                                  uint64_t(end - base));
            }
        };
        // In order: chunks this thread claims are scanned on; a worker's is kept only if it
        // starts exactly where the scan before it stopped, else that part is scanned again here.
        bool ended = s.scan(chunks.empty() ? end + 1 : chunks[0]->start, tick);
        for (auto& ch : chunks) {
            if (ended) break;
            if (ch->claim(Chunk::Loader)) {
                ended = s.scan(ch->stop, tick);
                continue;
            }
            if (s.c.p != ch->start) {  // a wrong guess: the worker's table is not used
                ended = s.scan(ch->stop, tick);
                continue;
            }
            ch->done.wait(false);
            if (ch->error) std::rethrow_exception(ch->error);
            bytes_.release(uint64_t(ch->start - base), uint64_t(ch->stoppedAt - base));
            events.append(std::move(ch->table));
            s.c.p = ch->stoppedAt;
            ended = ch->arrayEnded;
        }
        if (!ended) s.scan(end + 1, tick);
        c.p = s.c.p;
    }

    // Scans one chunk into its own table (on a worker).
    void scanChunk(Chunk& ch, const char* base, const char* end) {
        try {
            reserveFor(ch.table, uint64_t((ch.stop < end ? ch.stop : end) - ch.start));
            EventScanner s(base, ch.start, end, ch.table, options_.nanoseconds);
            uint64_t released = uint64_t(ch.start - base);
            ch.arrayEnded = s.scan(ch.stop, [&](uint64_t offset) {
                ch.progress.store(offset - uint64_t(ch.start - base), std::memory_order_relaxed);
                if (cancelled()) throw Cancelled{};
                releaseBehind(released, offset);
            });
            ch.stoppedAt = s.c.p;
        } catch (...) {
            ch.error = std::current_exception();
        }
    }

    const TraceBytes& bytes_;
    const LoadOptions& options_;
    std::atomic<bool> cancelWorkers_{false};
};

}  // namespace

Trace parseTrace(TraceBytes bytes, const std::string& name, const LoadOptions& options) {
    Trace trace;
    trace.path = name;
    trace.bytes = std::move(bytes);
    try {
        Loader(trace.bytes, options).run(trace.events, trace.info);
    } catch (const json::SyntaxError& e) {
        auto [line, column] = json::lineColumn(trace.bytes.text(), e.offset);
        throw InputError(name + ": line " + std::to_string(line) + ", column " +
                         std::to_string(column) + " (byte " + std::to_string(e.offset) +
                         "): " + e.what());
    }
    return trace;
}

Trace loadTrace(const std::string& path, const LoadOptions& options) {
    return parseTrace(TraceBytes::open(path), path, options);
}

}  // namespace stackline
