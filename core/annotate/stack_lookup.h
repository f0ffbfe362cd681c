// What the kernel information says of a kernel launched in a compiled region: the lookups of
// _maybe_extern_call, _maybe_triton_call, _assign_stack and _assign_single_stack under the
// region's graph keys. Every launch of a kernel in regions of one name asks the same, so each
// answer is looked up once per (region slot, name).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "kernel_info/kernel_info.h"

namespace stackline {

// _extern_kernel_name: re.search(r"\b(extern\w+)\s*,", name), Python's Unicode classes.
std::string externKernelName(const std::string& name);

// A compiled region's graph keys. Regions of one (name, need_bw) have the same keys and share a
// slot.
struct RegionKeys {
    uint32_t slot;
    const std::string& fw;
    const std::vector<std::string>& bw;
    bool needBw;

    // The key at an index of FoundStack: the backward keys in order, then the forward key.
    const std::string& key(uint32_t index) const { return index < bw.size() ? bw[index] : fw; }
};

// A stack the kernel information gives, and under which of the region's keys (an index, not a
// reference: answers are kept for every region of the slot, whose key strings do not live on).
struct FoundStack {
    const OrderedJson* stack = nullptr;  // nullptr: none
    uint32_t key = 0;                    // RegionKeys::key
};

class StackLookup {
public:
    explicit StackLookup(const KernelInfo& info) : info_(info) {}

    struct Kernel {
        bool isExtern = false;  // _maybe_extern_call
        bool triton = false;    // _maybe_triton_call
        // When not extern: the stack _assign_stack (triton) or _assign_single_stack would assign.
        FoundStack stack;
    };
    // nameId: the StringPool id of the kernel's name.
    const Kernel& kernel(const RegionKeys& region, uint32_t nameId, std::string_view name) {
        auto it = kernels_.find(memoKey(region, nameId));
        return it != kernels_.end() ? it->second : lookUpKernel(region, nameId, name);
    }
    // The stack _assign_stack would assign by an extern region's name (nameId: its StringPool id).
    FoundStack externStack(const RegionKeys& region, uint32_t nameId, std::string_view externName);
    // The stack _assign_single_stack would assign.
    FoundStack singleStack(const RegionKeys& region) const;

private:
    static uint64_t memoKey(const RegionKeys& region, uint32_t nameId) {
        return (uint64_t(region.slot) << 32) | nameId;
    }
    const Kernel& lookUpKernel(const RegionKeys& region, uint32_t nameId, std::string_view name);
    // The stack _assign_stack would assign.
    FoundStack stackFor(const RegionKeys& region, std::string_view kernel) const;

    const KernelInfo& info_;
    std::unordered_map<uint64_t, Kernel> kernels_;
    std::unordered_map<uint64_t, FoundStack> externStacks_;
};

}  // namespace stackline
