// Interned stack values: each distinct args.stack JSON text is stored once; events hold an id.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace stackline {

class StackPool {
public:
    static constexpr uint32_t kNone = 0;
    StackPool() { json_.emplace_back(); }
    uint32_t intern(std::string jsonText) {
        auto [it, inserted] = ids_.try_emplace(jsonText, uint32_t(json_.size()));
        if (inserted) json_.push_back(std::move(jsonText));
        return it->second;
    }
    // The stack as JSON text, as it is written into args.stack.
    const std::string& json(uint32_t id) const { return json_[id]; }
    uint32_t size() const { return uint32_t(json_.size()); }

private:
    std::vector<std::string> json_;
    std::unordered_map<std::string, uint32_t> ids_;
};

}  // namespace stackline
