// Indexes the events of a traceEvents array, from any event's start, into an EventTable: one
// pass, no DOM. Kineto writes the events of a kind alike, so what lies between values and the
// values that repeat are guessed from earlier events and checked with one compare.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "base/simd.h"
#include "json/json_cursor.h"
#include "json/json_number.h"
#include "model/event_table.h"
#include "python/python_values.h"

namespace stackline::detail {

using json::RawString;

enum class Field { Other, Ph, Name, Cat, Pid, Tid, Ts, Dur, Id, Args, Uid };

// The first min(size, 8) bytes at p as a little-endian word, the rest zero. p is in the document,
// which is padded after its end: eight bytes can always be read, and a fixed-size load needs no
// call or loop.
inline uint64_t wordAt(const char* p, std::size_t size) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    return size >= 8 ? w : w & ((uint64_t(1) << (8 * size)) - 1);
}
// The same of a literal.
inline constexpr uint64_t wordOf(std::string_view s) {
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
inline constexpr uint32_t kFieldHash = 0x9E37822Bu;
inline constexpr std::array<FieldSlot, 16> kFieldSlots = [] {
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

inline Field fieldOfWord(uint32_t word, std::size_t size) {
    const FieldSlot& slot = kFieldSlots[(word * kFieldHash) >> 28];
    return slot.word == word && slot.size == size ? slot.field : Field::Other;
}

inline Field fieldOf(const RawString& key) {
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
inline ArgsKey argsKeyOf(const RawString& key) {
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
inline constexpr Row kEmptyRow{};

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

    // The mask of the first n (at most 32) bytes in sameBytes' result.
    static constexpr uint32_t firstBytes(std::size_t n) { return n >= 32 ? ~0u : (1u << n) - 1; }
    // One bit per byte of the N (16 or 32) at p (default: c.p) that equal those of `bytes`.
    template <std::size_t N>
    unsigned sameBytes(const std::array<char, N>& bytes) const {
        return sameBytes(c.p, bytes);
    }
    template <std::size_t N>
    static unsigned sameBytes(const char* p, const std::array<char, N>& bytes) {
        unsigned same = simd::mask(simd::equal(simd::load(p), simd::load(bytes.data())));
        if constexpr (N == 32)
            same |= simd::mask(simd::equal(simd::load(p + 16), simd::load(bytes.data() + 16)))
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
        g.need = firstBytes(compared);
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
            g.need = firstBytes(size);
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
                uint32_t need = firstBytes(s.size());
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

    // Skips a value that starts with one of [ { n t f (the scanner checks the rest) and returns
    // its kind.
    ValueKind skipContainerOrLiteral() {
        char first = *c.p;
        c.skipValue();
        return first == '['   ? ValueKind::Array
               : first == '{' ? ValueKind::Object
               : first == 'n' ? ValueKind::Null
               : first == 't' ? ValueKind::TruthyScalar
                              : ValueKind::FalsyScalar;
    }

    ValueKind readKind(uint32_t* stringId) {
        switch (*c.p) {
            case '"': {
                RawString s = c.readString();
                if (stringId) *stringId = internString(s);
                return ValueKind::String;
            }
            case '[':
            case '{':
            case 'n':
            case 't':
            case 'f':
                return skipContainerOrLiteral();
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
            case 'n':
            case 't':
            case 'f': {
                ValueKind kind = skipContainerOrLiteral();
                return kind == ValueKind::Null           ? t.keys.nullKey()
                       : kind == ValueKind::TruthyScalar ? t.keys.intKey(1)
                       : kind == ValueKind::FalsyScalar  ? t.keys.intKey(0)
                                                         : kUnhashable;
            }
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
        if (r.uid != kNoKey) t.uidKeys.push(row, r.uid);
        if (k.flowId == FlowIdStatus::Ok) t.flowIds.push(row, r.flowId);
        t.tsBits.push_back(r.tsBits);
        t.pushDur(k.dur, r.durBits);
        t.kinds.push_back(k);
        if (nanoseconds_) t.setNanos(row, k.ts, r.tsNs, k.dur, r.durNs);
    }
};

}  // namespace stackline::detail
