#include "kernel_info/torch_trace_artifacts.h"

#include <set>

#include "json/json_depth.h"
#include "model/kineto.h"
#include "python/python_values.h"

namespace stackline::torch_trace {

namespace {

// create_kernel_information_json for one graph: the kernels of the stack-trace artifact, with
// post_grad_nodes from cppCodeToPost and pre_grad_nodes through postToPre. (PyTorch also adds the
// kernels of cppCodeToPost that have no stack-trace entry, with "stack_traces": []. In the real
// JIT log with debug handles both key sets are equal; where they differ, as in the AOTI test log,
// the mapping-only kernels are left out rather than given an empty stack.)
OJ kernelInformation(const OJ& stacks, const OJ& mappings) {
    OJ result = OJ::object();
    const OJ* toPost = nullptr;
    const OJ* postToPre = nullptr;
    if (mappings.is_object()) {
        auto c = mappings.find("cppCodeToPost");
        if (c != mappings.end() && c->is_object()) toPost = &*c;
        auto p = mappings.find("postToPre");
        if (p != mappings.end() && p->is_object()) postToPre = &*p;
    }
    auto add = [&](const std::string& kernel) {
        if (result.contains(kernel)) return;
        OJ entry = OJ::object();
        auto s = stacks.find(kernel);
        entry["stack_traces"] = s != stacks.end() ? *s : OJ::array();
        OJ post = OJ::array();
        if (toPost) {
            auto it = toPost->find(kernel);
            if (it != toPost->end() && it->is_array()) post = *it;
        }
        OJ pre = OJ::array();
        std::set<std::string> seen;
        if (postToPre)
            for (const OJ& node : post) {
                if (!node.is_string()) continue;
                auto it = postToPre->find(node.get<std::string>());
                if (it == postToPre->end() || !it->is_array()) continue;
                for (const OJ& p : *it)
                    if (p.is_string() && seen.insert(p.get<std::string>()).second) pre.push_back(p);
            }
        entry["post_grad_nodes"] = std::move(post);
        entry["pre_grad_nodes"] = std::move(pre);
        result[kernel] = std::move(entry);
    };
    for (auto it = stacks.begin(); it != stacks.end(); ++it) add(it.key());
    return result;
}

}  // namespace

// Not value(key, std::string()): it throws type_error when the member is there with another type,
// as in a log's {"name": 5}.
std::string stringAt(const OJ& obj, const char* key) {
    auto it = obj.find(key);
    return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<OJ> parseJson(std::string_view text) {
    if (json::tooDeep(text)) return std::nullopt;  // dump() would overflow the stack
    try {
        return OJ::parse(text.begin(), text.end());
    } catch (const OJ::exception&) {  // parse_error, and out_of_range for "1e400"
        return std::nullopt;
    }
}

std::string regionKey(const std::string& compileId, bool backward) {
    return pyGraphKey(std::string(kineto::kCompiledRegion) + ": " + compileId, backward);
}

void decideForwardBackward(std::vector<Artifact>& arts,
                           const std::map<std::string, CompileSeen>& compiles,
                           const std::string& source,
                           const std::function<std::string(const std::string&)>& noRule1,
                           std::vector<std::string>& notes) {
    std::map<std::string, std::vector<std::size_t>> artifactsOf;  // compile id -> indexes
    for (std::size_t i = 0; i < arts.size(); ++i)
        if (!arts[i].compileId.empty()) artifactsOf[arts[i].compileId].push_back(i);
    std::vector<Direction> directions(arts.size());
    const CompileSeen nothingSeen;
    for (const auto& [compileId, indexes] : artifactsOf) {
        std::vector<ArtifactSeen> seen;
        for (std::size_t i : indexes) {
            const Artifact& a = arts[i];
            ArtifactSeen& s = seen.emplace_back();
            s.inductorCompileEnd = a.inductorCompileEnd;
            s.openCompilerSpan = a.openCompilerSpan;
            for (auto it = a.stacks.begin(); it != a.stacks.end(); ++it)
                s.kernels.push_back(it.key());
        }
        auto compile = compiles.find(compileId);
        std::vector<Direction> decided = decideDirections(
            compileId, seen, compile == compiles.end() ? nothingSeen : compile->second);
        for (std::size_t k = 0; k < indexes.size(); ++k)
            directions[indexes[k]] = std::move(decided[k]);
    }
    for (std::size_t i = 0; i < arts.size(); ++i) {
        Artifact& a = arts[i];
        if (a.compileId.empty()) continue;
        a.backward = directions[i].backward;
        if (directions[i].rule == DirectionRule::InductorCompile) continue;
        notes.push_back(source + ": " + a.where + ": the kernel stack traces of compile " +
                        a.compileId + " are taken as the " + (a.backward ? "backward" : "forward") +
                        " graph " + regionKey(a.compileId, a.backward) + ": " +
                        noRule1(a.compileId) + "; " + directions[i].reason + ".");
    }
}

RebuiltKernelInfo assemble(std::vector<Artifact>& arts, const std::string& source,
                           std::vector<std::string> notes) {
    RebuiltKernelInfo out;
    std::map<std::string, std::vector<std::string>> wheres;
    std::vector<std::string> order, kernelOnlyWheres;
    for (Artifact& a : arts) {
        OJ kernels = kernelInformation(a.stacks, a.mappings);
        OJ* target;
        if (a.compileId.empty()) {
            if (out.kernelOnly.is_null()) out.kernelOnly = OJ::object();
            target = &out.kernelOnly;
            kernelOnlyWheres.push_back(a.where);
        } else {
            std::string key = regionKey(a.compileId, a.backward);
            if (!out.registry.contains(key)) {
                out.registry[key] = OJ::object();
                order.push_back(key);
            }
            target = &out.registry[key];
            wheres[key].push_back(a.where);
        }
        for (auto it = kernels.begin(); it != kernels.end(); ++it)
            if (!target->contains(it.key())) (*target)[it.key()] = it.value();
    }
    auto list = [](const std::vector<std::string>& v) {
        std::string s;
        for (std::size_t i = 0; i < v.size() && i < 8; ++i) s += (i ? ", " : "") + v[i];
        if (v.size() > 8) s += ", ...";
        return s;
    };
    for (const std::string& key : order)
        if (wheres[key].size() > 1)
            notes.push_back(source + ": graph " + key + " has kernel stack traces from " +
                            std::to_string(wheres[key].size()) + " artifacts (" +
                            list(wheres[key]) +
                            "); they are merged, and where a kernel appears twice the first wins.");
    if (!kernelOnlyWheres.empty())
        notes.push_back(
            source + ": kernel stack traces without a compile id (" + list(kernelOnlyWheres) +
            "; AOTInductor, or compiled outside torch.compile's frames) cannot be tied to "
            "one compiled region: they are applied to every compiled region of the trace, "
            "as its forward graph.");
    out.notes = std::move(notes);
    return out;
}

}  // namespace stackline::torch_trace
