// Interned strings (event names, categories): each distinct string is stored once and events hold
// a 4-byte id. Id 0 is the empty string.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace stackline {

class StringPool {
public:
    StringPool() { intern({}); }
    uint32_t intern(std::string_view s) {
        auto it = ids_.find(s);
        if (it != ids_.end()) return it->second;
        const std::string& stored = storage_.emplace_back(s);
        auto id = uint32_t(views_.size());
        views_.push_back(stored);
        ids_.emplace(stored, id);
        return id;
    }
    std::string_view at(uint32_t id) const { return views_[id]; }
    uint32_t size() const { return uint32_t(views_.size()); }
    // Id of s if interned, else UINT32_MAX.
    uint32_t find(std::string_view s) const {
        auto it = ids_.find(s);
        return it == ids_.end() ? UINT32_MAX : it->second;
    }
    // Re-interns other's strings here; returns other's id -> this pool's id.
    std::vector<uint32_t> merge(const StringPool& other) {
        std::vector<uint32_t> remap(other.views_.size());
        for (std::size_t k = 0; k < other.views_.size(); ++k) remap[k] = intern(other.views_[k]);
        return remap;
    }

private:
    std::deque<std::string> storage_;
    std::vector<std::string_view> views_;
    std::unordered_map<std::string_view, uint32_t> ids_;
};

}  // namespace stackline
