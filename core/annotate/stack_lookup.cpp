#include "annotate/stack_lookup.h"

#include <algorithm>

#include "base/unicode.h"
#include "model/kineto.h"

namespace stackline {

std::string externKernelName(const std::string& name) {
    std::vector<char32_t> cps;
    std::vector<std::size_t> at;
    for (std::size_t i = 0; i < name.size();) {
        at.push_back(i);
        cps.push_back(unicode::decodeUtf8(name, i));
    }
    at.push_back(name.size());
    static const char32_t kWord[] = U"extern";
    for (std::size_t i = 0; i + 6 < cps.size(); ++i) {
        if (!std::equal(kWord, kWord + 6, cps.begin() + long(i))) continue;
        if (i > 0 && unicode::isWord(cps[i - 1])) continue;
        std::size_t k = i + 6;
        while (k < cps.size() && unicode::isWord(cps[k])) ++k;
        if (k == i + 6) continue;
        std::size_t m = k;
        while (m < cps.size() && unicode::isSpace(cps[m])) ++m;
        if (m < cps.size() && cps[m] == ',') return name.substr(at[i], at[k] - at[i]);
    }
    return name;
}

const StackLookup::Kernel& StackLookup::lookUpKernel(const RegionKeys& region, uint32_t nameId,
                                                     std::string_view name) {
    Kernel k;
    // _maybe_extern_call
    k.isExtern = !info_.hasKernelInfo(region.fw, name) &&
                 (!region.needBw ||
                  std::none_of(region.bw.begin(), region.bw.end(), [&](const std::string& key) {
                      return info_.hasKernelInfo(key, name);
                  }));
    if (!k.isExtern) {
        k.triton = name.rfind(reference::kTritonPrefix, 0) == 0;
        k.stack = k.triton ? stackFor(region, name) : singleStack(region);
    }
    return kernels_.emplace(memoKey(region, nameId), k).first->second;
}

// Both the name's regular expression and the lookups would repeat for every launch.
FoundStack StackLookup::externStack(const RegionKeys& region, uint32_t nameId,
                                    std::string_view externName) {
    auto it = externStacks_.find(memoKey(region, nameId));
    if (it != externStacks_.end()) return it->second;
    const FoundStack stack = stackFor(region, externKernelName(std::string(externName)));
    return externStacks_.emplace(memoKey(region, nameId), stack).first->second;
}

FoundStack StackLookup::stackFor(const RegionKeys& region, std::string_view kernel) const {
    uint32_t i = 0;
    for (; i < region.bw.size(); ++i)
        if (const OrderedJson* s = info_.stackForKernel(region.bw[i], kernel)) return {s, i};
    return {info_.stackForKernel(region.fw, kernel), i};
}

FoundStack StackLookup::singleStack(const RegionKeys& region) const {
    uint32_t i = 0;
    for (; i < region.bw.size(); ++i)
        if (const OrderedJson* s = info_.singleStack(region.bw[i])) return {s, i};
    return {info_.singleStack(region.fw), i};
}

}  // namespace stackline
