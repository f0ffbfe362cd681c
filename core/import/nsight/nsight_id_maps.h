// The export's ids mapped as the reader meets them, row after row: StringIds ids to pool ids, and
// each launch's (globalPid, correlationId) to its flow id. Both are dense in what nsys writes, so
// vectors hold them; ids far beyond the export's size fall back to a search.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace stackline::nsight {

struct PairHash {
    std::size_t operator()(const std::pair<int64_t, int64_t>& k) const {
        return std::hash<int64_t>()(k.first * 0x9E3779B97F4A7C15ll ^ k.second);
    }
};

// StringIds.id -> pool id (0, the empty string, for an id the table lacks). nsys numbers the
// strings from 0, so a vector by id holds them; ids far beyond the table's size are looked up.
class StringIdMap {
public:
    void assign(std::vector<std::pair<int64_t, uint32_t>> ids) {
        int64_t top = -1;
        bool dense = true;
        for (const auto& [id, pool] : ids) {
            dense = dense && id >= 0 && uint64_t(id) < 2 * ids.size() + 1024;
            top = std::max(top, id);
        }
        if (dense) {
            dense_.assign(size_t(top + 1), 0);
            for (const auto& [id, pool] : ids) dense_[size_t(id)] = pool;
        } else {
            // The last of a repeated id wins, as it did in a map filled in order.
            std::stable_sort(ids.begin(), ids.end(),
                             [](const auto& a, const auto& b) { return a.first < b.first; });
            sparse_ = std::move(ids);
        }
    }
    uint32_t operator[](int64_t id) const {
        if (!sparse_.empty()) {
            auto it = std::upper_bound(sparse_.begin(), sparse_.end(), id,
                                       [](int64_t v, const auto& e) { return v < e.first; });
            return it != sparse_.begin() && (--it)->first == id ? it->second : 0;
        }
        return id >= 0 && uint64_t(id) < dense_.size() ? dense_[size_t(id)] : 0;
    }

private:
    std::vector<uint32_t> dense_;
    std::vector<std::pair<int64_t, uint32_t>> sparse_;  // by id
};

// Flow ids by (globalPid, correlationId), numbered from 1 in order of first use. CUPTI numbers
// each process's API calls from 1 up, so a vector by correlation id per process holds them, up
// to `budget` cells in all (a bound proportional to the export's rows); the rest go to a map.
class FlowIds {
public:
    explicit FlowIds(uint64_t budget) : budget_(budget) {}
    uint32_t size() const { return count_; }
    // The flow id, 0 when the pair has none.
    uint32_t find(int64_t globalPid, int64_t correlation) {
        const std::vector<uint32_t>& ids = process(globalPid);
        if (correlation >= 0 && uint64_t(correlation) < ids.size() && ids[size_t(correlation)])
            return ids[size_t(correlation)];
        if (sparse_.empty()) return 0;
        const auto it = sparse_.find({globalPid, correlation});
        return it == sparse_.end() ? 0 : it->second;
    }
    // The flow id, made on first use.
    uint32_t add(int64_t globalPid, int64_t correlation) {
        if (const uint32_t id = find(globalPid, correlation)) return id;
        std::vector<uint32_t>& ids = process(globalPid);
        if (correlation >= 0 && uint64_t(correlation) >= ids.size() &&
            uint64_t(correlation) - ids.size() < budget_) {
            budget_ -= uint64_t(correlation) + 1 - ids.size();
            ids.resize(size_t(correlation) + 1, 0);
        }
        if (correlation >= 0 && uint64_t(correlation) < ids.size())
            return ids[size_t(correlation)] = ++count_;
        return sparse_[{globalPid, correlation}] = ++count_;
    }

private:
    std::vector<uint32_t>& process(int64_t globalPid) {
        if (last_ < processes_.size() && processes_[last_].first == globalPid)
            return processes_[last_].second;
        for (last_ = 0; last_ < processes_.size(); ++last_)
            if (processes_[last_].first == globalPid) return processes_[last_].second;
        return processes_.emplace_back(globalPid, std::vector<uint32_t>()).second;
    }

    uint64_t budget_;  // vector cells still allowed
    uint32_t count_ = 0;
    std::vector<std::pair<int64_t, std::vector<uint32_t>>> processes_;  // by globalPid, few
    size_t last_ = 0;                                                   // the last one asked
    std::unordered_map<std::pair<int64_t, int64_t>, uint32_t, PairHash> sparse_;
};

}  // namespace stackline::nsight
