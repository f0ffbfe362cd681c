#include "analysis/name_totals.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace stackline {
namespace {

// The rows are scattered over columns far bigger than the cache: the ones read this many rows
// ahead are fetched meanwhile, so that the misses overlap instead of following each other.
constexpr size_t kAhead = 16;

}  // namespace

std::vector<NameTotal> totalsByName(const EventTable& ev, std::span<const uint32_t> rows) {
    constexpr uint32_t kNoName = UINT32_MAX;  // a name that is not a string reads as ""
    std::unordered_map<uint32_t, size_t> byId;
    std::vector<NameTotal> out;
    for (size_t i = 0; i < rows.size(); ++i) {
        if (i + kAhead < rows.size()) {
            const uint32_t next = rows[i + kAhead];
            __builtin_prefetch(&ev.kinds[next]);
            __builtin_prefetch(&ev.name[next]);
            __builtin_prefetch(&ev.tsBits[next]);
            ev.durCodes.prefetch(next);
        }
        const uint32_t r = rows[i];
        const uint32_t id = ev.kinds[r].name == ValueKind::String ? ev.name[r] : kNoName;
        auto [it, added] = byId.try_emplace(id, out.size());
        if (added) out.push_back({ev.nameOf(r), r, 0, 0});
        NameTotal& t = out[it->second];
        if (std::pair(ev.tsNs(r), r) < std::pair(ev.tsNs(t.first), t.first)) t.first = r;
        ++t.count;
        t.ns += std::max<int64_t>(0, ev.durNs(r));
    }
    std::sort(out.begin(), out.end(), [](const NameTotal& a, const NameTotal& b) {
        return a.ns != b.ns ? a.ns > b.ns : a.name < b.name;
    });
    return out;
}

// The starts are read once into (start, position) pairs: a comparison reading the column at
// scattered rows would miss the cache.
std::vector<uint32_t> byStart(const EventTable& ev, std::span<const uint32_t> rows) {
    std::vector<std::pair<int64_t, uint32_t>> keyed(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) {
        if (i + kAhead < rows.size()) {
            __builtin_prefetch(&ev.kinds[rows[i + kAhead]]);
            __builtin_prefetch(&ev.tsBits[rows[i + kAhead]]);
        }
        keyed[i] = {ev.tsNs(rows[i]), uint32_t(i)};
    }
    std::sort(keyed.begin(), keyed.end());
    std::vector<uint32_t> out(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) out[i] = rows[keyed[i].second];
    return out;
}

}  // namespace stackline
