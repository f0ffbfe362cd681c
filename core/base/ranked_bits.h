// A set of keys below a bound, as one bit per key, that also numbers its members in key order
// (their rank): a value array indexed by rank then holds something for the few keys that have
// it, without an array over every key. Rank costs a count per 64 keys and one popcount.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace stackline {

class RankedBits {
public:
    static constexpr uint32_t kAbsent = UINT32_MAX;

    // Usage: init(), insert() each member, then finish(); rank() and contains() after that.
    void init(std::size_t keys) {
        bits_.assign((keys + 63) / 64, 0);
        before_.clear();
    }
    void insert(std::size_t key) { bits_[key >> 6] |= uint64_t(1) << (key & 63); }
    // Numbers the members; returns how many there are.
    uint32_t finish() {
        before_.resize(bits_.size());
        uint32_t members = 0;
        for (std::size_t w = 0; w < bits_.size(); ++w) {
            before_[w] = members;
            members += uint32_t(std::popcount(bits_[w]));
        }
        return members;
    }

    bool contains(std::size_t key) const {
        const std::size_t w = key >> 6;
        return w < bits_.size() && (bits_[w] >> (key & 63) & 1);
    }
    // The number of members below key (key's index in a rank-ordered array when it is one).
    uint32_t rank(std::size_t key) const {
        const uint64_t below = (uint64_t(1) << (key & 63)) - 1;
        return before_[key >> 6] + uint32_t(std::popcount(bits_[key >> 6] & below));
    }
    // Calls f(key) for each member, in key order.
    template <class F>
    void forEachMember(F f) const {
        for (std::size_t w = 0; w < bits_.size(); ++w)
            for (uint64_t b = bits_[w]; b; b &= b - 1) f(w * 64 + std::size_t(std::countr_zero(b)));
    }
    // rank(key) for a member, kAbsent otherwise.
    uint32_t find(std::size_t key) const { return contains(key) ? rank(key) : kAbsent; }

private:
    std::vector<uint64_t> bits_;
    std::vector<uint32_t> before_;  // per word of bits_: the members in earlier words
};

}  // namespace stackline
