// One row per element of traceEvents, in file order (the row is the reference's uid), stored as
// parallel columns. Strings are interned; args stay raw bytes in the trace and are parsed on
// demand.
#pragma once

#include <bit>
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/correction_column.h"
#include "base/narrow_column.h"
#include "base/offset_column.h"
#include "base/sparse_column.h"
#include "base/string_pool.h"
#include "python/python_values.h"

namespace stackline {

// A row index that stands for no event (nothing selected, no launch, no enclosing region, ...).
inline constexpr uint32_t kNoRow = UINT32_MAX;

// The JSON type of a field, as much as Python's truthiness and membership tests need.
enum class ValueKind : uint8_t {
    Absent,
    Null,
    FalsyScalar,   // false, 0, 0.0
    TruthyScalar,  // true, any other number
    String,
    Array,
    Object,
};

// Python's `"CallFrom" in event.get("args", {})`: a key test on dicts, a substring test on
// strings, an element test on lists, a TypeError on anything else.
enum class CallFrom : uint8_t { No, Yes, Raises };

// Python's int(event["id"]) for flow events.
enum class FlowIdStatus : uint8_t { Missing, Ok, Invalid, Big };

struct Span {
    uint64_t begin = 0;
    uint64_t end = 0;
    bool empty() const { return end <= begin; }
    uint64_t size() const { return end - begin; }
};

struct EventTable {
    // Byte span of the event value and, relative to it, of its args value; empty for a format
    // whose events are no spans of its bytes (an Nsight export's rows), where nothing reads them.
    OffsetColumn begin;
    std::vector<uint32_t> length;
    NarrowColumn<uint32_t, uint16_t> argsOffset, argsLength;

    std::vector<uint32_t> name;  // StringPool id when nameKind is String
    std::vector<uint32_t> cat;
    std::vector<char> phase;  // ph when it is a one-character string, else 0
    std::vector<KeyId> pid, tid;
    std::vector<KeyId> externalId;  // args["External id"]; kNoKey when absent or null
    // int(id) when the row's flowId kind is Ok (flow events; 0 for the others).
    SparseColumn<int64_t> flowIds;
    std::unordered_map<uint32_t, __int128> bigFlowId;  // int(id) beyond int64, by row

    // ts and dur: the Python number (processor) and exact nanoseconds (display). The
    // nanoseconds are derived from the number (tsNs(), durNs()), corrected on the rows where it
    // does not give them back (more than three decimals, more digits than a double holds): on
    // most traces no row, so they cost no memory. hasNanos: the trace was loaded with them (else
    // they are the numbers' nearest nanoseconds).
    std::vector<uint64_t> tsBits;  // int64 or double bits, by kind
    // dur's bits, as tsBits, narrowed (pushDur, durBitsOf): an int's value, or a float's
    // thousandths where they give back the same double (a dur of 1.234 µs); escaped otherwise.
    NarrowColumn<uint64_t, uint32_t> durCodes;
    CorrectionColumn tsNsFix, durNsFix;
    bool hasNanos = false;

    struct Kinds {
        ValueKind event : 3;
        ValueKind name : 3;
        ValueKind cat : 3;
        ValueKind args : 3;
        CallFrom callFrom : 2;
        PyNum::Kind ts : 2;
        PyNum::Kind dur : 2;
        FlowIdStatus flowId : 2;
        bool objectEmpty : 1;  // the event is {}
        bool argsEmpty : 1;    // args is {}
        // Whitespace before the closing brace of the event and of its args object (kGapUnknown:
        // more than fits), so that the exporter finds where their members end without reading
        // the bytes again.
        uint32_t eventGap : 4;
        uint32_t argsGap : 4;
    };
    static constexpr uint8_t kGapUnknown = 15;
    static uint8_t gap(std::ptrdiff_t bytes) {
        return bytes < kGapUnknown ? uint8_t(bytes) : kGapUnknown;
    }
    std::vector<Kinds> kinds;
    static_assert(sizeof(Kinds) == 4);

    // Rare fields, by row: value spans of an existing event "uid" and args "stack" (the last
    // occurrence, which is the one Python keeps).
    std::unordered_map<uint32_t, Span> uidValue;
    std::unordered_map<uint32_t, Span> stackValue;
    // The key of an existing "uid" field, kNoKey where there is none: only traces the processor
    // wrote before have them.
    SparseColumn<KeyId> uidKeys;
    KeyId uidOf(uint32_t row) const { return uidKeys.at(row, kNoKey); }

    StringPool strings;
    KeyPool keys;

    uint32_t size() const { return uint32_t(kinds.size()); }

    // The columns that only processing, reports and display read. A caller that will only export
    // the table from now on can take them out and free them meanwhile on another thread, rather
    // than at exit; what the exporter reads (byte spans, kinds, existing uid and stack values)
    // stays.
    struct ProcessingColumns {
        std::vector<uint32_t> name, cat;
        std::vector<char> phase;
        std::vector<KeyId> pid, tid, externalId;
        SparseColumn<KeyId> uidKeys;
        SparseColumn<int64_t> flowIds;
        std::vector<uint64_t> tsBits;
        NarrowColumn<uint64_t, uint32_t> durCodes;
        CorrectionColumn tsNsFix, durNsFix;
        std::unordered_map<uint32_t, __int128> bigFlowId;
        StringPool strings;
        KeyPool keys;
    };
    ProcessingColumns takeProcessingColumns();

    PyNum ts(uint32_t row) const { return number(kinds[row].ts, tsBits[row]); }
    PyNum dur(uint32_t row) const { return number(kinds[row].dur, durBitsOf(row)); }
    uint64_t durBitsOf(uint32_t row) const;
    // Appends a row's dur (kinds[row].dur is kind).
    void pushDur(PyNum::Kind kind, uint64_t bits);

    int64_t tsNs(uint32_t row) const {
        return wrapAdd(nanosOf(kinds[row].ts, tsBits[row]), tsNsFix[row]);
    }
    int64_t durNs(uint32_t row) const {
        return wrapAdd(durNsDerived(kinds[row].dur, row), durNsFix[row]);
    }
    // Records the exact nanoseconds of the row whose ts and dur (of these kinds) were pushed
    // last; rows are set in order.
    void setNanos(uint32_t row, PyNum::Kind tsKind, int64_t ts, PyNum::Kind durKind, int64_t dur) {
        tsNsFix.set(row, wrapSub(ts, nanosOf(tsKind, tsBits[row])));
        durNsFix.set(row, wrapSub(dur, durNsDerived(durKind, row)));
    }
    std::string_view nameOf(uint32_t row) const {
        return kinds[row].name == ValueKind::String ? strings.at(name[row]) : std::string_view();
    }
    std::string_view catOf(uint32_t row) const {
        return kinds[row].cat == ValueKind::String ? strings.at(cat[row]) : std::string_view();
    }
    Span eventSpan(uint32_t row) const { return {begin[row], begin[row] + length[row]}; }
    Span argsSpan(uint32_t row) const {
        return {begin[row] + argsOffset[row], begin[row] + argsOffset[row] + argsLength[row]};
    }

    void reserve(std::size_t n);
    // Appends other's rows, re-interning its strings and keys.
    void append(EventTable&& other);

    static PyNum number(PyNum::Kind kind, uint64_t bits);
    // The nanoseconds nearest a number of microseconds (0 for no number), within +-2^62: exact
    // for an int, and for a float that is the double nearest a decimal with at most three places
    // below 2^43 µs (101 days).
    static int64_t nanosOf(PyNum::Kind kind, uint64_t bits) {
        constexpr int64_t kLimit = (int64_t(1) << 62) / 1000;  // µs
        if (kind == PyNum::Kind::Int) {
            const auto us = int64_t(bits);
            return us > kLimit ? kLimit * 1000 : us < -kLimit ? -kLimit * 1000 : us * 1000;
        }
        if (kind != PyNum::Kind::Float) return 0;
        const double us = std::bit_cast<double>(bits);
        if (!(us > -double(kLimit) && us < double(kLimit)))
            return us > 0 ? kLimit * 1000 : us < 0 ? -kLimit * 1000 : 0;  // NaN: 0
        // The whole microseconds and the fraction apart: both exact, so only the fraction's
        // product rounds, far below the half nanosecond.
        const auto whole = int64_t(us);
        const double part = (us - double(whole)) * 1000.0;
        return whole * 1000 + int64_t(part < 0 ? part - 0.5 : part + 0.5);
    }

private:
    // A float's dur code is its thousandths of a microsecond (pushDur) where not escaped.
    int64_t durNsDerived(PyNum::Kind kind, uint32_t row) const {
        if (kind == PyNum::Kind::Float && !durCodes.isEscaped(row)) return int64_t(durCodes[row]);
        return nanosOf(kind, durBitsOf(row));
    }
    // The corrections are differences taken modulo 2^64, so that any value comes back.
    static int64_t wrapSub(int64_t a, int64_t b) { return int64_t(uint64_t(a) - uint64_t(b)); }
    static int64_t wrapAdd(int64_t a, int64_t b) { return int64_t(uint64_t(a) + uint64_t(b)); }
};

}  // namespace stackline
