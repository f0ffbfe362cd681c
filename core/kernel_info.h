// The kernel information registry the reference reads: graph key -> kernel key -> info, in file
// order (the reference's prefix match takes the first key in dict order). Lookups follow the
// reference's helpers one to one.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "graph_key.h"

namespace stackline {

using OrderedJson = nlohmann::ordered_json;

// A lookup the reference would fail on (for instance a graph whose value is not an object).
struct RegistryError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class KernelInfo {
public:
    KernelInfo() = default;
    // Throws InputError naming the file and byte position.
    static KernelInfo load(const std::string& path);
    static KernelInfo parse(std::string_view text, const std::string& name);
    static KernelInfo fromJson(OrderedJson registry, const std::string& name);

    const std::string& source() const { return source_; }
    // `not compile_linenos`: the reference returns the trace untouched.
    bool empty() const { return graphs_.empty(); }
    std::size_t graphCount() const { return graphs_.size(); }
    bool contains(const std::string& graphKey) const { return byKey_.count(graphKey) != 0; }

    // _has_kernel_info
    bool hasKernelInfo(const std::string& graphKey, std::string_view kernel) const;
    // _stack_for_kernel: the stack value, or nullptr for None.
    const OrderedJson* stackForKernel(const std::string& graphKey, std::string_view kernel) const;
    // _single_stack_for_graph
    const OrderedJson* singleStack(const std::string& graphKey) const;
    // _backward_graph_keys. Graph keys on which the reference's literal_eval raises (rather than
    // failing quietly) are skipped and listed in raisingKeys.
    const std::vector<std::string>& backwardKeys(const std::string& compileName) const;
    const std::vector<std::string>& raisingKeys() const { return raisingKeys_; }

    // For the details panel: the info stored for a kernel under a graph (exact or name:handle).
    const OrderedJson* kernelEntry(const std::string& graphKey, std::string_view kernel) const;
    const std::vector<std::string>& graphKeys() const { return keyOrder_; }

private:
    struct Graph {
        const OrderedJson* value = nullptr;
        bool isObject = false;
        // Kernel key -> index in the object's order; and every "name" such that some key starts
        // with "name:" -> the first such key's index.
        std::unordered_map<std::string, std::size_t> exact, prefixed;
        std::vector<const OrderedJson*> values;  // in key order
        std::optional<const OrderedJson*> single;
    };
    const Graph* graph(const std::string& key) const;  // nullptr when absent; throws if not an object

    std::string source_;
    std::shared_ptr<OrderedJson> registry_;
    std::vector<std::string> keyOrder_;
    std::unordered_map<std::string, std::size_t> byKey_;
    std::vector<Graph> graphs_;
    mutable std::unordered_map<std::string, std::vector<std::string>> backwardCache_;
    std::vector<std::string> raisingKeys_;
};

// _stack_from_kernel_info: a dict gives its "stack_traces", anything else is the stack itself.
const OrderedJson* stackFromKernelInfo(const OrderedJson* info);

}  // namespace stackline

namespace stackline {

// Kernel information saved beside a trace: "<trace>.kernel_info.json" (with or without the
// trace's .json/.json.gz ending), else "kernel_info.json" in the same folder. Empty if none.
std::string findKernelInfoFor(const std::string& tracePath);

}  // namespace stackline
