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

#include "python/graph_key.h"

namespace stackline {

class KernelCodeIndex;  // kernel_code.h

using OrderedJson = nlohmann::ordered_json;

// A lookup the reference would fail on (for instance a graph whose value is not an object).
struct RegistryError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class KernelInfo {
public:
    KernelInfo() = default;
    // Reads any of the forms PyTorch leaves on disk (see kernel-info sources in the README):
    //   a folder: a tlparse output folder or a TORCH_TRACE folder (torch_trace_log.h);
    //   a TORCH_TRACE structured log (recognised by its first line, a glog record);
    //   a tlparse artifact file inductor_provenance_tracking_kernel_stack_traces_<n>.json;
    //   an AOTInductor kernel_information.json (keyed by kernel only, see isKernelOnly);
    //   otherwise the registry itself (.json, or .json.gz).
    // Throws InputError naming the file and byte position.
    static KernelInfo load(const std::string& path);
    // The same for text already read (no folders; the name only labels messages).
    static KernelInfo parse(std::string_view text, const std::string& name);
    static KernelInfo fromJson(OrderedJson registry, const std::string& name);
    // registry: graph key -> kernels; kernelOnly: null, or kernel -> info that applies to every
    // compiled region whose forward key the registry does not hold.
    static KernelInfo fromParts(OrderedJson registry, OrderedJson kernelOnly,
                                const std::string& name, std::vector<std::string> notes);
    // The same with the generated code read alongside.
    static KernelInfo fromParts(OrderedJson registry, OrderedJson kernelOnly,
                                const std::string& name, std::vector<std::string> notes,
                                KernelCodeIndex code);

    // An AOTInductor kernel_information.json: a non-empty object none of whose keys is a graph
    // key (nor starts with '('), each value an object with stack_traces, post_grad_nodes or
    // pre_grad_nodes.
    static bool isKernelOnly(const OrderedJson& j);

    const std::string& source() const { return source_; }
    // What loading had to decide or could not use (reported as kernel_info_source warnings).
    const std::vector<std::string>& notes() const { return notes_; }
    // `not compile_linenos`: the reference returns the trace untouched.
    bool empty() const { return graphs_.empty() && !everyRegion_; }
    std::size_t graphCount() const { return graphs_.size(); }
    // Kernel information keyed by kernel only, applied to every compiled region.
    bool appliesToEveryRegion() const { return everyRegion_.has_value(); }
    bool contains(const std::string& graphKey) const {
        return byKey_.count(graphKey) != 0 || coveredByEveryRegion(graphKey);
    }

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

    // The keys of the graphs that have an entry for kernel (its name, or "name:handle"), in file
    // order: for Stackline's rule by name (annotate/matched_by_name.h). The kernel-only part is
    // no graph, and a graph that is not an object names nothing.
    std::vector<const std::string*> graphsNaming(std::string_view kernel) const;

    // For the details panel: the info stored for a kernel under a graph (exact or name:handle).
    const OrderedJson* kernelEntry(const std::string& graphKey, std::string_view kernel) const;
    const std::vector<std::string>& graphKeys() const { return keyOrder_; }
    // The JSON behind it: the registry (an empty object for a default KernelInfo), and the
    // kernel-only part (nullptr when there is none).
    const OrderedJson& registryJson() const;
    const OrderedJson* kernelOnlyJson() const { return kernelOnly_.get(); }
    // The code Inductor generated per kernel, read with the kernel information from a TORCH_TRACE
    // log or folder; empty for a registry file.
    const KernelCodeIndex& code() const;

private:
    // Lookups by string_view without building a std::string per kernel event.
    struct NameHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const {
            return std::hash<std::string_view>()(s);
        }
    };
    struct Graph {
        const OrderedJson* value = nullptr;
        bool isObject = false;
        // Kernel key -> index in the object's order; and every "name" such that some key starts
        // with "name:" -> the first such key's index.
        std::unordered_map<std::string, std::size_t, NameHash, std::equal_to<>> exact, prefixed;
        std::vector<const OrderedJson*> values;  // in key order
        std::optional<const OrderedJson*> single;
    };
    const Graph* graph(
        const std::string& key) const;  // nullptr when absent; throws if not an object
    static Graph makeGraph(const OrderedJson& value);
    // The kernel-only part answers for forward keys, ('<name>', False), the registry lacks.
    bool coveredByEveryRegion(const std::string& key) const;

    std::string source_;
    std::vector<std::string> notes_;
    std::shared_ptr<OrderedJson> registry_, kernelOnly_;
    std::shared_ptr<const KernelCodeIndex> code_;
    std::optional<Graph> everyRegion_;  // from kernelOnly_
    mutable std::unordered_map<std::string, bool> forwardKeys_;
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
