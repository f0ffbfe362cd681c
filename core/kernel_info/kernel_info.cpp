#include "kernel_info/kernel_info.h"

#include <cstring>
#include <fstream>
#include <sstream>

#include "base/file_system.h"
#include "io/trace_bytes.h"
#include "json/json_depth.h"
#include "kernel_info/kernel_code.h"
#include "kernel_info/tlparse_folder.h"
#include "kernel_info/torch_trace_log.h"
#include "python/python_values.h"

namespace stackline {

const OrderedJson* stackFromKernelInfo(const OrderedJson* info) {
    if (!info || info->is_null()) return nullptr;
    if (info->is_object()) {
        auto it = info->find("stack_traces");
        if (it == info->end() || it->is_null()) return nullptr;
        return &*it;
    }
    return info;
}

namespace {

bool truthy(const OrderedJson& v) {
    switch (v.type()) {
        case OrderedJson::value_t::null:
            return false;
        case OrderedJson::value_t::boolean:
            return v.get<bool>();
        case OrderedJson::value_t::string:
            return !v.get_ref<const std::string&>().empty();
        case OrderedJson::value_t::array:
        case OrderedJson::value_t::object:
            return !v.empty();
        case OrderedJson::value_t::number_float:
            return v.get<double>() != 0.0;
        default:
            return v != 0;
    }
}

}  // namespace

bool KernelInfo::isKernelOnly(const OrderedJson& j) {
    if (!j.is_object() || j.empty()) return false;
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string& key = it.key();
        std::size_t first = key.find_first_not_of(" \t\r\n");
        if (first != std::string::npos && key[first] == '(') return false;
        GraphKeyParse outcome;
        parseGraphKey(key, &outcome);
        if (outcome == GraphKeyParse::Key) return false;
        const OrderedJson& v = it.value();
        if (!v.is_object() || !(v.contains("stack_traces") || v.contains("post_grad_nodes") ||
                                v.contains("pre_grad_nodes")))
            return false;
    }
    return true;
}

namespace {

KernelInfo fromRebuilt(RebuiltKernelInfo r, const std::string& name) {
    return KernelInfo::fromParts(std::move(r.registry), std::move(r.kernelOnly), name,
                                 std::move(r.notes), std::move(r.code));
}

}  // namespace

KernelInfo KernelInfo::load(const std::string& path) {
    if (isDirectory(path)) return fromRebuilt(readTorchTraceFolder(path), path);
    TraceBytes bytes = TraceBytes::open(path);  // also inflates .gz
    if (isStackTraceArtifactFile(path) && !looksLikeStructuredLog(bytes.text()))
        return fromRebuilt(readStackTraceArtifactFile(bytes.text(), path), path);
    return parse(bytes.text(), path);
}

KernelInfo KernelInfo::parse(std::string_view text, const std::string& name) {
    if (looksLikeStructuredLog(text)) return fromRebuilt(readTorchTraceLog(text, name), name);
    if (std::optional<uint64_t> at = json::tooDeep(text))
        throw InputError(name + ": byte " + std::to_string(*at) +
                         ": kernel information nested deeper than " +
                         std::to_string(json::kMaxDomDepth) + " levels");
    OrderedJson j;
    try {
        j = OrderedJson::parse(text.begin(), text.end());
    } catch (const OrderedJson::parse_error& e) {
        throw InputError(name + ": byte " + std::to_string(e.byte) +
                         ": not valid JSON kernel information (" + e.what() +
                         "), nor a TORCH_TRACE log (its first line is not a glog record)");
    } catch (const OrderedJson::exception& e) {
        // out_of_range.406, a number beyond double ("1e400"): nlohmann names the number, not where.
        std::string what = e.what();
        std::size_t q = what.find('\''), r = what.rfind('\'');
        std::size_t at = q < r ? text.find(what.substr(q + 1, r - q - 1)) : std::string_view::npos;
        throw InputError(name +
                         (at == std::string_view::npos ? "" : ": byte " + std::to_string(at)) +
                         ": not valid JSON kernel information (" + what + ")");
    }
    if (isKernelOnly(j))
        return fromParts(OrderedJson::object(), std::move(j), name,
                         {name + ": kernel information keyed by kernel only (AOTInductor's "
                                 "kernel_information.json, no graph keys): it is applied to every "
                                 "compiled region of the trace, as its forward graph."});
    return fromJson(std::move(j), name);
}

KernelInfo::Graph KernelInfo::makeGraph(const OrderedJson& value) {
    Graph g;
    g.value = &value;
    g.isObject = value.is_object();
    if (g.isObject) {
        std::size_t index = 0;
        for (auto kt = value.begin(); kt != value.end(); ++kt, ++index) {
            const std::string& key = kt.key();
            g.exact.emplace(key, index);
            g.values.push_back(&kt.value());
            for (std::size_t colon = key.find(':'); colon != std::string::npos;
                 colon = key.find(':', colon + 1))
                g.prefixed.emplace(key.substr(0, colon), index);  // first key wins
        }
    }
    return g;
}

bool KernelInfo::coveredByEveryRegion(const std::string& key) const {
    if (!everyRegion_) return false;
    auto it = forwardKeys_.find(key);
    if (it == forwardKeys_.end()) {
        std::optional<GraphKey> parsed = parseGraphKey(key);
        it = forwardKeys_.emplace(key, parsed && !parsed->backward).first;
    }
    return it->second;
}

KernelInfo KernelInfo::fromParts(OrderedJson registry, OrderedJson kernelOnly,
                                 const std::string& name, std::vector<std::string> notes) {
    KernelInfo k = fromJson(std::move(registry), name);
    if (!kernelOnly.is_null()) {
        k.kernelOnly_ = std::make_shared<OrderedJson>(std::move(kernelOnly));
        k.everyRegion_ = makeGraph(*k.kernelOnly_);
    }
    k.notes_ = std::move(notes);
    return k;
}

KernelInfo KernelInfo::fromParts(OrderedJson registry, OrderedJson kernelOnly,
                                 const std::string& name, std::vector<std::string> notes,
                                 KernelCodeIndex code) {
    KernelInfo k = fromParts(std::move(registry), std::move(kernelOnly), name, std::move(notes));
    if (!code.empty()) k.code_ = std::make_shared<const KernelCodeIndex>(std::move(code));
    return k;
}

const KernelCodeIndex& KernelInfo::code() const {
    static const KernelCodeIndex none;
    return code_ ? *code_ : none;
}

KernelInfo KernelInfo::fromJson(OrderedJson registry, const std::string& name) {
    if (!registry.is_object())
        throw InputError(name +
                         ": kernel information must be a JSON object mapping graph keys "
                         "such as \"('Torch-Compiled Region: 0/0', False)\" to kernels");
    KernelInfo k;
    k.source_ = name;
    k.registry_ = std::make_shared<OrderedJson>(std::move(registry));
    for (auto it = k.registry_->begin(); it != k.registry_->end(); ++it) {
        Graph g = makeGraph(it.value());
        GraphKeyParse outcome;
        parseGraphKey(it.key(), &outcome);
        if (outcome == GraphKeyParse::Raises && truthy(it.value()))
            k.raisingKeys_.push_back(it.key());
        k.byKey_.emplace(it.key(), k.graphs_.size());
        k.keyOrder_.push_back(it.key());
        k.graphs_.push_back(std::move(g));
    }
    return k;
}

const OrderedJson& KernelInfo::registryJson() const {
    static const OrderedJson empty = OrderedJson::object();
    return registry_ ? *registry_ : empty;
}

const KernelInfo::Graph* KernelInfo::graph(const std::string& key) const {
    auto it = byKey_.find(key);
    if (it == byKey_.end()) return coveredByEveryRegion(key) ? &*everyRegion_ : nullptr;
    const Graph& g = graphs_[it->second];
    if (!g.isObject)
        throw RegistryError("kernel information for graph " + key + " is not an object");
    return &g;
}

bool KernelInfo::hasKernelInfo(const std::string& graphKey, std::string_view kernel) const {
    const Graph* g = graph(graphKey);
    if (!g) return false;
    return g->exact.find(kernel) != g->exact.end() || g->prefixed.find(kernel) != g->prefixed.end();
}

std::vector<const std::string*> KernelInfo::graphsNaming(std::string_view kernel) const {
    std::vector<const std::string*> keys;
    for (std::size_t i = 0; i < graphs_.size(); ++i)
        if (graphs_[i].exact.contains(kernel) || graphs_[i].prefixed.contains(kernel))
            keys.push_back(&keyOrder_[i]);
    return keys;
}

const OrderedJson* KernelInfo::kernelEntry(const std::string& graphKey,
                                           std::string_view kernel) const {
    const Graph* g = graph(graphKey);
    if (!g) return nullptr;
    auto it = g->exact.find(kernel);
    if (it != g->exact.end() && !g->values[it->second]->is_null()) return g->values[it->second];
    auto pt = g->prefixed.find(kernel);
    return pt == g->prefixed.end() ? nullptr : g->values[pt->second];
}

const OrderedJson* KernelInfo::stackForKernel(const std::string& graphKey,
                                              std::string_view kernel) const {
    return stackFromKernelInfo(kernelEntry(graphKey, kernel));
}

const OrderedJson* KernelInfo::singleStack(const std::string& graphKey) const {
    const Graph* g = graph(graphKey);
    if (!g) return nullptr;
    if (!g->single) {
        const OrderedJson* only = nullptr;
        int count = 0;
        for (const OrderedJson* v : g->values)
            if (const OrderedJson* s = stackFromKernelInfo(v)) {
                only = s;
                ++count;
            }
        const_cast<Graph*>(g)->single = count == 1 ? only : nullptr;
    }
    return *g->single;
}

const std::vector<std::string>& KernelInfo::backwardKeys(const std::string& compileName) const {
    auto cached = backwardCache_.find(compileName);
    if (cached != backwardCache_.end()) return cached->second;
    std::vector<std::string> keys{pyGraphKey(compileName, true)};
    if (!contains(keys[0])) {
        std::string prefix = compileName + "_";
        for (std::size_t i = 0; i < keyOrder_.size(); ++i) {
            if (!truthy(*graphs_[i].value)) continue;
            std::optional<GraphKey> parsed = parseGraphKey(keyOrder_[i]);
            if (parsed && parsed->backward && parsed->name.rfind(prefix, 0) == 0)
                keys.push_back(keyOrder_[i]);
        }
    }
    return backwardCache_.emplace(compileName, std::move(keys)).first->second;
}

}  // namespace stackline

namespace stackline {

std::string findKernelInfoFor(const std::string& tracePath) {
    std::string base = tracePath;
    for (const char* suffix : {".gz", ".json", ".sqlite"})
        if (base.size() > std::strlen(suffix) &&
            base.compare(base.size() - std::strlen(suffix), std::string::npos, suffix) == 0)
            base.resize(base.size() - std::strlen(suffix));
    for (const std::string& candidate :
         {base + ".kernel_info.json", tracePath + ".kernel_info.json"})
        if (isRegularFile(candidate)) return candidate;
    std::size_t slash = tracePath.rfind('/');
    std::string folder = slash == std::string::npos ? "" : tracePath.substr(0, slash + 1);
    if (isRegularFile(folder + "kernel_info.json")) return folder + "kernel_info.json";
    return {};
}

}  // namespace stackline
