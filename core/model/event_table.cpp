#include "model/event_table.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <future>

namespace stackline {

PyNum EventTable::number(PyNum::Kind kind, uint64_t bits) {
    switch (kind) {
        case PyNum::Kind::Int:
            return PyNum::integer(int64_t(bits));
        case PyNum::Kind::Float: {
            double f;
            std::memcpy(&f, &bits, sizeof f);
            return PyNum::real(f);
        }
        default:
            return {kind};
    }
}

uint64_t EventTable::durBitsOf(uint32_t row) const {
    const uint64_t code = durCodes[row];
    if (kinds[row].dur != PyNum::Kind::Float || durCodes.isEscaped(row)) return code;
    return std::bit_cast<uint64_t>(double(code) / 1000.0);
}

void EventTable::pushDur(PyNum::Kind kind, uint64_t bits) {
    if (kind != PyNum::Kind::Float) return durCodes.push_back(bits);
    // The division by 1000 is correctly rounded, so the thousandths give back the double of any
    // decimal text with at most three places; the check makes it exact for every other double.
    const double d = std::bit_cast<double>(bits);
    if (d >= 0 && d < 4e6) {
        const auto thousandths = uint64_t(std::llround(d * 1000.0));
        if (std::bit_cast<uint64_t>(double(thousandths) / 1000.0) == bits)
            return durCodes.push_back(thousandths);
    }
    durCodes.pushEscaped(bits);
}

void EventTable::reserve(std::size_t n) {
    begin.reserve(n);
    length.reserve(n);
    argsOffset.reserve(n);
    argsLength.reserve(n);
    name.reserve(n);
    cat.reserve(n);
    phase.reserve(n);
    pid.reserve(n);
    tid.reserve(n);
    externalId.reserve(n);
    tsBits.reserve(n);
    durCodes.reserve(n);
    kinds.reserve(n);
}

EventTable::ProcessingColumns EventTable::takeProcessingColumns() {
    return {std::move(name),      std::move(cat),        std::move(phase),   std::move(pid),
            std::move(tid),       std::move(externalId), std::move(uidKeys), std::move(flowIds),
            std::move(tsBits),    std::move(durCodes),   std::move(tsNsFix), std::move(durNsFix),
            std::move(bigFlowId), std::move(strings),    std::move(keys)};
}

namespace {

template <typename T>
void appendColumn(std::vector<T>& to, std::vector<T>& from) {
    to.insert(to.end(), from.begin(), from.end());
    std::vector<T>().swap(from);
}

template <typename T>
void appendMapped(std::vector<T>& to, std::vector<T>& from, const std::vector<T>& remap) {
    to.reserve(to.size() + from.size());
    for (T v : from) to.push_back(v == kNoKey || v == kUnhashable ? v : remap[v]);
    std::vector<T>().swap(from);
}

}  // namespace

void EventTable::append(EventTable&& other) {
    auto offset = uint32_t(size());
    reserve(size() + other.size());
    // The plain columns of big chunks are copied on another thread while this one re-interns
    // the strings and keys and maps the columns that refer to them.
    auto policy = other.size() >= (1u << 15) ? std::launch::async : std::launch::deferred;
    std::future<void> plain = std::async(policy, [&] {
        begin.append(std::move(other.begin));
        appendColumn(length, other.length);
        argsOffset.append(std::move(other.argsOffset));
        argsLength.append(std::move(other.argsLength));
        appendColumn(phase, other.phase);
        flowIds.append(std::move(other.flowIds), offset, [](int64_t id) { return id; });
        tsNsFix.append(std::move(other.tsNsFix), offset);
        durNsFix.append(std::move(other.durNsFix), offset);
        appendColumn(tsBits, other.tsBits);
        durCodes.append(std::move(other.durCodes));
        appendColumn(kinds, other.kinds);
    });
    try {
        std::vector<uint32_t> stringMap = strings.merge(other.strings);
        std::vector<KeyId> keyMap = keys.merge(other.keys);
        for (uint32_t v : other.name) name.push_back(stringMap[v]);
        for (uint32_t v : other.cat) cat.push_back(stringMap[v]);
        std::vector<uint32_t>().swap(other.name);
        std::vector<uint32_t>().swap(other.cat);
        appendMapped(pid, other.pid, keyMap);
        appendMapped(tid, other.tid, keyMap);
        appendMapped(externalId, other.externalId, keyMap);
        uidKeys.append(std::move(other.uidKeys), offset,
                       [&](KeyId key) { return key == kUnhashable ? key : keyMap[key]; });
    } catch (...) {
        plain.wait();
        throw;
    }
    plain.get();
    for (auto& [row, span] : other.uidValue) uidValue[row + offset] = span;
    for (auto& [row, span] : other.stackValue) stackValue[row + offset] = span;
    for (auto& [row, id] : other.bigFlowId) bigFlowId[row + offset] = id;
}

}  // namespace stackline
