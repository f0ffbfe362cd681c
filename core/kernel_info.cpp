#include "kernel_info.h"

#include <sys/stat.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "py_value.h"
#include "trace_bytes.h"

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
        case OrderedJson::value_t::null: return false;
        case OrderedJson::value_t::boolean: return v.get<bool>();
        case OrderedJson::value_t::string: return !v.get_ref<const std::string&>().empty();
        case OrderedJson::value_t::array:
        case OrderedJson::value_t::object: return !v.empty();
        case OrderedJson::value_t::number_float: return v.get<double>() != 0.0;
        default: return v != 0;
    }
}

}  // namespace

KernelInfo KernelInfo::load(const std::string& path) {
    TraceBytes bytes = TraceBytes::open(path);  // also inflates .gz
    return parse(bytes.text(), path);
}

KernelInfo KernelInfo::parse(std::string_view text, const std::string& name) {
    OrderedJson j;
    try {
        j = OrderedJson::parse(text.begin(), text.end());
    } catch (const OrderedJson::parse_error& e) {
        throw InputError(name + ": byte " + std::to_string(e.byte) +
                         ": not valid JSON kernel information (" + e.what() + ")");
    }
    return fromJson(std::move(j), name);
}

KernelInfo KernelInfo::fromJson(OrderedJson registry, const std::string& name) {
    if (!registry.is_object())
        throw InputError(name + ": kernel information must be a JSON object mapping graph keys "
                                "such as \"('Torch-Compiled Region: 0/0', False)\" to kernels");
    KernelInfo k;
    k.source_ = name;
    k.registry_ = std::make_shared<OrderedJson>(std::move(registry));
    for (auto it = k.registry_->begin(); it != k.registry_->end(); ++it) {
        Graph g;
        g.value = &it.value();
        g.isObject = it.value().is_object();
        if (g.isObject) {
            std::size_t index = 0;
            for (auto kt = it.value().begin(); kt != it.value().end(); ++kt, ++index) {
                const std::string& key = kt.key();
                g.exact.emplace(key, index);
                g.values.push_back(&kt.value());
                for (std::size_t colon = key.find(':'); colon != std::string::npos;
                     colon = key.find(':', colon + 1))
                    g.prefixed.emplace(key.substr(0, colon), index);  // first key wins
            }
        }
        GraphKeyParse outcome;
        parseGraphKey(it.key(), &outcome);
        if (outcome == GraphKeyParse::Raises && truthy(it.value())) k.raisingKeys_.push_back(it.key());
        k.byKey_.emplace(it.key(), k.graphs_.size());
        k.keyOrder_.push_back(it.key());
        k.graphs_.push_back(std::move(g));
    }
    return k;
}

const KernelInfo::Graph* KernelInfo::graph(const std::string& key) const {
    auto it = byKey_.find(key);
    if (it == byKey_.end()) return nullptr;
    const Graph& g = graphs_[it->second];
    if (!g.isObject)
        throw RegistryError("kernel information for graph " + key + " is not an object");
    return &g;
}

bool KernelInfo::hasKernelInfo(const std::string& graphKey, std::string_view kernel) const {
    const Graph* g = graph(graphKey);
    if (!g) return false;
    std::string k(kernel);
    return g->exact.count(k) || g->prefixed.count(k);
}

const OrderedJson* KernelInfo::kernelEntry(const std::string& graphKey,
                                           std::string_view kernel) const {
    const Graph* g = graph(graphKey);
    if (!g) return nullptr;
    std::string k(kernel);
    auto it = g->exact.find(k);
    if (it != g->exact.end() && !g->values[it->second]->is_null()) return g->values[it->second];
    auto pt = g->prefixed.find(k);
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
    auto exists = [](const std::string& p) {
        struct stat st{};
        return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
    };
    std::string base = tracePath;
    for (const char* suffix : {".gz", ".json"})
        if (base.size() > std::strlen(suffix) &&
            base.compare(base.size() - std::strlen(suffix), std::string::npos, suffix) == 0)
            base.resize(base.size() - std::strlen(suffix));
    for (const std::string& candidate : {base + ".kernel_info.json", tracePath + ".kernel_info.json"})
        if (exists(candidate)) return candidate;
    std::size_t slash = tracePath.rfind('/');
    std::string folder = slash == std::string::npos ? "" : tracePath.substr(0, slash + 1);
    if (exists(folder + "kernel_info.json")) return folder + "kernel_info.json";
    return {};
}

}  // namespace stackline
