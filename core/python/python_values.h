// Python value semantics that the reference relies on: numbers that compare exactly across int and
// float, hashable keys where 7 == 7.0 == True but "7" != 7, int() of a JSON value, str repr.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace stackline {

// A Python number as json.load produces it: int (exact) or float (IEEE double).
struct PyNum {
    enum class Kind : uint8_t { Missing, Int, Float, Invalid };
    Kind kind = Kind::Missing;
    __int128 i = 0;
    double f = 0;

    static PyNum integer(__int128 v) { return {Kind::Int, v, 0}; }
    static PyNum real(double v) { return {Kind::Float, 0, v}; }
    bool isNumber() const { return kind == Kind::Int || kind == Kind::Float; }
};

// Python's a + b for numbers (Invalid when either side is not a number).
PyNum pyAdd(const PyNum& a, const PyNum& b);
// Python's a < b and a <= b (exact across int/float, false with NaN). Same-kind numbers, by far
// the most common, are compared inline.
bool pyLessMixed(const PyNum& a, const PyNum& b);
bool pyLessEqualMixed(const PyNum& a, const PyNum& b);
inline bool pyLess(const PyNum& a, const PyNum& b) {
    if (a.kind == b.kind && a.kind == PyNum::Kind::Int) return a.i < b.i;
    if (a.kind == b.kind && a.kind == PyNum::Kind::Float) return a.f < b.f;
    return pyLessMixed(a, b);
}
inline bool pyLessEqual(const PyNum& a, const PyNum& b) {
    if (a.kind == b.kind && a.kind == PyNum::Kind::Int) return a.i <= b.i;
    if (a.kind == b.kind && a.kind == PyNum::Kind::Float) return a.f <= b.f;
    return pyLessEqualMixed(a, b);
}
bool pyEqual(const PyNum& a, const PyNum& b);

// Python int(str): surrounding whitespace, sign, Unicode decimal digits, single underscores.
std::optional<__int128> pyIntFromString(std::string_view s);

// A number as Python's json.dumps writes it: repr() of an int or a float (NaN, Infinity and
// -Infinity as JavaScript spells them), so that json.load gives back the same value and type;
// "null" for what is not a number.
std::string pyIntRepr(__int128 v);
std::string pyFloatRepr(double v);
std::string pyNumberJson(const PyNum& n);
void appendPyFloat(std::string& out, double v);
void appendPyNumber(std::string& out, const PyNum& n);

// repr() of a Python str given as UTF-8.
std::string pyStrRepr(std::string_view s);
// str((name, flag)) for a str name: how the reference builds graph keys.
std::string pyGraphKey(std::string_view name, bool backward);

// Hashable values interned with Python's equality: ints, bools and integral floats share one
// class, other floats another, strings their own; NaN is a single key (json.load returns one NaN
// object). Containers are unhashable.
using KeyId = uint32_t;
inline constexpr KeyId kNoKey = 0;  // absent
inline constexpr KeyId kUnhashable = 0xFFFFFFFFu;

class KeyPool {
public:
    KeyPool();
    KeyPool(KeyPool&&) = default;
    KeyPool& operator=(KeyPool&&) = default;
    KeyPool(const KeyPool&) = delete;  // canon_ points into byCanon_'s nodes
    KeyPool& operator=(const KeyPool&) = delete;
    KeyId intKey(__int128 v);
    KeyId floatKey(double v);
    KeyId stringKey(std::string_view utf8);
    KeyId nullKey();
    // The id of None if some value was null, else kNoKey (a const lookup).
    KeyId existingNullKey() const;
    // For display and messages: "7", "7.5", "\"stream 7\"", "None".
    std::string describe(KeyId id) const;
    // The key as an integer, when it is one (ints, bools, integral floats).
    std::optional<int64_t> asInt(KeyId id) const;
    std::optional<std::string_view> asString(KeyId id) const;
    bool isNull(KeyId id) const;
    size_t size() const { return value_.size(); }
    // Re-interns every key of other into this pool; returns other's id -> this pool's id.
    std::vector<KeyId> merge(const KeyPool& other);

private:
    KeyId intern(std::string canonical);
    KeyId newSmall(int64_t v);
    bool growDirect(uint64_t v);
    // Ints that fit int64 (most keys: tids, External ids) are stored without a string: value_
    // is the int. Non-negative ones below direct_.size() are found by index (External ids are
    // dense: no hashing, no node per key), the others in small_. Other keys have a canonical
    // string, a key of byCanon_: value_ is its index in canon_. 8 bytes and a bit per key (a
    // trace has a key per op).
    std::vector<KeyId> direct_;
    std::unordered_map<int64_t, KeyId> small_;
    std::unordered_map<std::string, KeyId> byCanon_;
    std::vector<int64_t> value_;  // by id; [0] unused
    std::vector<bool> hasCanon_;  // by id
    std::vector<const std::string*> canon_;
    bool isSmall(KeyId id) const { return id != kNoKey && id < value_.size() && !hasCanon_[id]; }
    // The canonical string of a key that has one; nullptr for small ints and ids out of range.
    const std::string* canonOf(KeyId id) const {
        return id != kNoKey && id < value_.size() && hasCanon_[id] ? canon_[std::size_t(value_[id])]
                                                                   : nullptr;
    }
};

}  // namespace stackline
