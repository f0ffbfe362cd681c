#include "torch_trace_log.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "json_depth.h"
#include "kineto.h"
#include "py_value.h"
#include "trace_bytes.h"

namespace stackline {

using OJ = nlohmann::ordered_json;

namespace {

constexpr std::string_view kStackTraces = "inductor_provenance_tracking_kernel_stack_traces";
constexpr std::string_view kNodeMappings = "inductor_provenance_tracking_node_mappings";

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
bool allDigits(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), isDigit);
}
bool startsWith(std::string_view s, std::string_view p) {
    return s.substr(0, p.size()) == p;
}
bool endsWith(std::string_view s, std::string_view p) {
    return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}
bool contains(std::string_view s, std::string_view p) {
    return s.find(p) != std::string_view::npos;
}

std::string baseName(const std::string& path) {
    std::size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}
std::string parentName(const std::string& path) {
    std::size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) return {};
    std::size_t before = slash == 0 ? std::string::npos : path.find_last_of('/', slash - 1);
    return path.substr(before == std::string::npos ? 0 : before + 1,
                       slash - (before == std::string::npos ? 0 : before + 1));
}

std::string ordinal(std::size_t n) {
    std::string s = std::to_string(n);
    if (n % 100 >= 11 && n % 100 <= 13) return s + "th";
    switch (n % 10) {
        case 1:
            return s + "st";
        case 2:
            return s + "nd";
        case 3:
            return s + "rd";
        default:
            return s + "th";
    }
}

// "V0819 12:42:54.751000 888578 /path/file.py:1073] {...}": the text after "] ", as tlparse's
// glog pattern reads it (level, MMDD, time, thread id, pathname:line).
std::optional<std::string_view> glogBody(std::string_view line) {
    const std::size_t n = line.size();
    if (n < 8 || std::string_view("VIWEC").find(line[0]) == std::string_view::npos) return {};
    std::size_t i = 1;
    for (int k = 0; k < 4; ++k, ++i)
        if (i >= n || !isDigit(line[i])) return {};
    if (i >= n || line[i] != ' ') return {};
    std::size_t t = ++i;
    while (i < n && (isDigit(line[i]) || line[i] == ':' || line[i] == '.')) ++i;
    if (i - t < 8 || i >= n || line[i] != ' ') return {};
    while (i < n && line[i] == ' ') ++i;
    std::size_t d = i;
    while (i < n && isDigit(line[i])) ++i;
    if (i == d || i >= n || line[i] != ' ') return {};
    for (std::size_t close = line.find("] ", i); close != std::string_view::npos;
         close = line.find("] ", close + 1)) {
        std::size_t j = close;
        while (j > i && isDigit(line[j - 1])) --j;
        if (j < close && j > i && line[j - 1] == ':') return line.substr(close + 2);
    }
    return {};
}

// obj[key] when it is a string, else "" (value(key, std::string()) throws type_error when the
// member is there with another type, as in a log's {"name": 5}).
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

// One kernel stack-trace artifact on its way to a graph of the registry.
struct Artifact {
    std::string compileId;  // "0/0"; empty when the artifact has none
    std::string where;      // "line 134", or a file inside a tlparse folder
    OJ stacks;              // {kernel[:handle]: [stack strings]}
    OJ mappings;            // the node mappings logged with it, or null
    std::optional<bool> backward;
    std::string openCompilerSpan;  // rule 2: innermost fw/bw/inference compiler span at it
};

struct CompileFacts {
    std::string backwardGraph;  // "aot_backward_graph" / "aot_joint_graph" when logged
    bool inferenceGraph = false;
};

// (compile id, kernel name without handle) -> the is_backward values its autotuning events carry.
using AutotuneMap = std::map<std::pair<std::string, std::string>, std::set<bool>>;

bool isCompilerSpan(std::string_view name) {
    return contains(name, "fw_compiler") || contains(name, "bw_compiler") ||
           contains(name, "inference_compiler");
}

std::string withoutHandle(const std::string& kernel) {
    std::size_t colon = kernel.rfind(':');
    if (colon != std::string::npos && allDigits(std::string_view(kernel).substr(colon + 1)))
        return kernel.substr(0, colon);
    return kernel;
}

void noteGraphs(const std::string& g, CompileFacts& facts) {
    if (g == "aot_backward_graph" || g == "aot_joint_graph") {
        if (facts.backwardGraph.empty()) facts.backwardGraph = g;
    } else if (g == "aot_inference_graph") {
        facts.inferenceGraph = true;
    }
}

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

std::string regionKey(const std::string& compileId, bool backward) {
    return pyGraphKey(std::string(kineto::kCompiledRegion) + ": " + compileId, backward);
}

// Rules 2-4 for the artifacts rule 1 left open; each such decision becomes a note.
// noRule1(compile id) says why rule 1 did not decide.
template <class NoRule1>
void decide(std::vector<Artifact>& arts, const std::map<std::string, CompileFacts>& facts,
            const AutotuneMap& autotune, const std::string& source, NoRule1 noRule1,
            std::vector<std::string>& notes) {
    std::map<std::string, std::size_t> seen;
    for (Artifact& a : arts) {
        if (a.compileId.empty()) continue;
        std::size_t k = seen[a.compileId]++;
        if (a.backward) continue;
        std::string reason;
        if (!a.openCompilerSpan.empty()) {
            a.backward = contains(a.openCompilerSpan, "bw_compiler");
            reason = "it was logged inside the " + a.openCompilerSpan + " span";
        }
        if (!a.backward && a.stacks.is_object()) {
            std::set<bool> says;
            std::string names;
            for (auto it = a.stacks.begin(); it != a.stacks.end(); ++it) {
                auto found = autotune.find({a.compileId, withoutHandle(it.key())});
                if (found == autotune.end()) continue;
                says.insert(found->second.begin(), found->second.end());
                if (names.size() < 200) names += (names.empty() ? "" : ", ") + found->first.second;
            }
            if (says.size() == 1) {
                a.backward = *says.begin();
                reason = "the autotuning events of its kernels (" + names +
                         ") say is_backward=" + (*a.backward ? "true" : "false");
            }
        }
        if (!a.backward) {
            auto f = facts.find(a.compileId);
            const CompileFacts none;
            const CompileFacts& cf = f == facts.end() ? none : f->second;
            if (!cf.backwardGraph.empty()) {
                a.backward = k % 2 == 1;
                reason =
                    "compile " + a.compileId + " has a backward graph (" + cf.backwardGraph +
                    ") and this is its " + ordinal(k + 1) +
                    " kernel stack-trace artifact; the 1st, 3rd, ... are taken as forward and "
                    "the 2nd, 4th, ... as backward, the order in which AOTAutograd compiles them";
            } else {
                a.backward = false;
                reason = cf.inferenceGraph
                             ? "compile " + a.compileId +
                                   " has an inference graph only (aot_inference_graph)"
                             : "no AOT graph of compile " + a.compileId +
                                   " is logged, so it is taken as forward";
            }
        }
        notes.push_back(source + ": " + a.where + ": the kernel stack traces of compile " +
                        a.compileId + " are taken as the " +
                        (*a.backward ? "backward" : "forward") + " graph " +
                        regionKey(a.compileId, *a.backward) + ": " + noRule1(a.compileId) + "; " +
                        reason + ".");
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
            std::string key = regionKey(a.compileId, a.backward.value_or(false));
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

struct CompileState {
    int openInductorCompile = 0;
    std::vector<std::string> compilerSpans;  // open compile_fx.<locals>.*_compiler* spans
    std::vector<std::size_t> awaiting;       // artifacts waiting for inductor_compile's end
    OJ pendingMappings;                      // node mappings not yet paired with stack traces
};

bool isRegularFile(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}
bool isDirectory(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::vector<std::string> listDir(const std::string& dir) {
    std::vector<std::string> names;
    DIR* d = ::opendir(dir.c_str());
    if (!d) throw InputError(dir + ": cannot read the folder");
    while (dirent* e = ::readdir(d)) {
        std::string name = e->d_name;
        if (name != "." && name != "..") names.push_back(name);
    }
    ::closedir(d);
    std::sort(names.begin(), names.end());
    return names;
}

// tlparse's compile-id folder name "<compiled autograd>_<frame>_<frame compile>_<attempt>" ('-'
// for none) as PyTorch's compile id string; "unknown_<line>" has none. nullopt: not such a folder.
std::optional<std::string> compileIdOfFolder(std::string_view name) {
    if (startsWith(name, "unknown_") && allDigits(name.substr(8))) return std::string();
    std::vector<std::string_view> parts;
    for (std::size_t start = 0;;) {
        std::size_t us = name.find('_', start);
        parts.push_back(name.substr(start, us == std::string_view::npos ? us : us - start));
        if (us == std::string_view::npos) break;
        start = us + 1;
    }
    if (parts.size() != 4) return std::nullopt;
    for (std::string_view p : parts)
        if (p != "-" && !allDigits(p)) return std::nullopt;
    auto present = [](std::string_view p) { return p != "-"; };
    if (present(parts[0])) {
        std::string s = "!" + std::string(parts[0]);
        if (present(parts[1]) && present(parts[2]))
            s += "/" + std::string(parts[1]) + "/" + std::string(parts[2]);
        return s;
    }
    if (present(parts[1]) && present(parts[2]))
        return std::string(parts[1]) + "/" + std::string(parts[2]);
    return std::string();
}

// "<prefix>_<n>.json" -> n.
std::optional<long long> numberedFile(std::string_view name, std::string_view prefix,
                                      std::string_view ext) {
    if (!startsWith(name, prefix) || name.size() <= prefix.size() + 1 ||
        name[prefix.size()] != '_' || !endsWith(name, ext))
        return std::nullopt;
    std::string_view n =
        name.substr(prefix.size() + 1, name.size() - prefix.size() - 1 - ext.size());
    if (!allDigits(n) || n.size() > 15) return std::nullopt;
    return std::stoll(std::string(n));
}

std::string readText(const std::string& path) {
    TraceBytes bytes = TraceBytes::open(path);
    return std::string(bytes.text());
}

}  // namespace

std::string compileIdString(const OJ& env) {
    auto num = [&](const char* key) -> std::optional<long long> {
        auto it = env.find(key);
        if (it == env.end() || !it->is_number_integer()) return std::nullopt;
        return it->get<long long>();
    };
    std::optional<long long> ca = num("compiled_autograd_id"), frame = num("frame_id"),
                             fc = num("frame_compile_id");
    if (ca) {
        std::string s = "!" + std::to_string(*ca);
        if (frame && fc) s += "/" + std::to_string(*frame) + "/" + std::to_string(*fc);
        return s;
    }
    if (frame && fc) return std::to_string(*frame) + "/" + std::to_string(*fc);
    return {};
}

bool looksLikeStructuredLog(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size() && (text[i] == '\n' || text[i] == '\r')) ++i;
    std::size_t eol = text.find('\n', i);
    std::string_view line = text.substr(i, eol == std::string_view::npos ? eol : eol - i);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::optional<std::string_view> body = glogBody(line);
    return body && !body->empty() && (*body)[0] == '{';
}

RebuiltKernelInfo readTorchTraceLog(std::string_view text, const std::string& name) {
    std::vector<Artifact> arts;
    std::map<std::string, CompileState> state;
    std::map<std::string, CompileFacts> facts;
    AutotuneMap autotune;
    std::vector<std::string> notes;
    std::size_t strayLines = 0, nodeMappings = 0, badStackPayloads = 0;
    std::string firstBadStack;

    struct Record {
        std::size_t line = 0;
        std::string_view body;
        std::vector<std::string_view> payload;
    } rec;
    bool have = false;

    auto payloadText = [&] {
        std::string s;
        for (std::size_t i = 0; i < rec.payload.size(); ++i) {
            if (i) s += '\n';
            s.append(rec.payload[i]);
        }
        return s;
    };

    auto process = [&] {
        std::string_view b = rec.body;
        if (!contains(b, "inductor_provenance_tracking") && !contains(b, "chromium_event") &&
            !contains(b, "aot_"))
            return;
        std::optional<OJ> parsed = parseJson(b);
        if (!parsed || !parsed->is_object()) return;
        const OJ& env = *parsed;
        std::string cid = compileIdString(env);

        if (env.contains("chromium_event")) {
            std::optional<OJ> ev = parseJson(payloadText());
            if (!ev || !ev->is_object()) return;
            std::string evName = stringAt(*ev, "name");
            std::string ph = stringAt(*ev, "ph");
            OJ args = ev->value("args", OJ::object());
            if (!args.is_object()) args = OJ::object();
            std::string evCid = cid;
            auto c = args.find("compile_id");
            if (c != args.end() && c->is_string() && *c != "None" && !c->get<std::string>().empty())
                evCid = c->get<std::string>();
            if (evCid.empty()) return;
            CompileState& st = state[evCid];
            auto bw = args.find("is_backward");
            bool hasBw = bw != args.end() && bw->is_boolean();
            if (evName == "inductor_compile") {
                if (ph == "B") {
                    ++st.openInductorCompile;
                } else if (ph == "E") {
                    st.openInductorCompile = std::max(0, st.openInductorCompile - 1);
                    if (hasBw)
                        for (std::size_t idx : st.awaiting) arts[idx].backward = bw->get<bool>();
                    st.awaiting.clear();
                }
            } else if (isCompilerSpan(evName)) {
                if (ph == "B") {
                    st.compilerSpans.push_back(evName);
                } else if (ph == "E") {
                    auto it = std::find(st.compilerSpans.rbegin(), st.compilerSpans.rend(), evName);
                    if (it != st.compilerSpans.rend()) st.compilerSpans.erase(std::next(it).base());
                }
            } else if (evName == "CachingAutotuner.benchmark_all_configs" && hasBw) {
                auto k = args.find("kernel_name");
                if (k != args.end() && k->is_string())
                    autotune[{evCid, k->get<std::string>()}].insert(bw->get<bool>());
            }
            return;
        }

        for (const char* g : {"aot_backward_graph", "aot_joint_graph", "aot_inference_graph"})
            if (env.contains(g)) noteGraphs(g, facts[cid]);
        auto art = env.find("artifact");
        if (art == env.end() || !art->is_object()) return;
        std::string artName = stringAt(*art, "name");
        noteGraphs(artName, facts[cid]);
        if (artName == kNodeMappings) {
            ++nodeMappings;
            std::optional<OJ> m = parseJson(payloadText());
            state[cid].pendingMappings = m && m->is_object() ? *m : OJ();
        } else if (artName == kStackTraces) {
            std::optional<OJ> s = parseJson(payloadText());
            if (!s || !s->is_object()) {
                if (!badStackPayloads++) firstBadStack = "line " + std::to_string(rec.line);
                return;
            }
            CompileState& st = state[cid];
            Artifact a;
            a.compileId = cid;
            a.where = "line " + std::to_string(rec.line);
            a.stacks = std::move(*s);
            a.mappings = std::move(st.pendingMappings);
            st.pendingMappings = OJ();
            if (!cid.empty()) {
                if (st.openInductorCompile > 0) st.awaiting.push_back(arts.size());
                if (!st.compilerSpans.empty()) a.openCompilerSpan = st.compilerSpans.back();
            }
            arts.push_back(std::move(a));
        }
    };

    std::size_t lineno = 0;
    for (std::size_t pos = 0; pos < text.size();) {
        std::size_t eol = text.find('\n', pos);
        std::string_view line = text.substr(pos, eol == std::string_view::npos ? eol : eol - pos);
        pos = eol == std::string_view::npos ? text.size() : eol + 1;
        ++lineno;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty()) continue;  // tlparse drops blank lines too
        if (line[0] == '\t') {
            if (have)
                rec.payload.push_back(line.substr(1));
            else
                ++strayLines;
            continue;
        }
        if (have) process();
        have = false;
        std::optional<std::string_view> body = glogBody(line);
        if (!body) {
            ++strayLines;
            continue;
        }
        rec.line = lineno;
        rec.body = *body;
        rec.payload.clear();
        have = true;
    }
    if (have) process();

    if (arts.empty())
        throw InputError(
            name + ": no " + std::string(kStackTraces) + " artifact in this TORCH_TRACE log" +
            (nodeMappings ? " (it has " + std::to_string(nodeMappings) +
                                " node-mapping artifacts, which carry no stacks)"
                          : "") +
            (badStackPayloads ? "; the one at " + firstBadStack + " is not valid JSON" : "") +
            ". Kernel stack traces are logged by PyTorch versions with Inductor provenance "
            "tracking when TORCH_TRACE=<folder> is set together with INDUCTOR_PROVENANCE=1 (or "
            "TORCH_COMPILE_DEBUG=1)");
    if (strayLines)
        notes.push_back(name + ": " + std::to_string(strayLines) +
                        " lines are neither structured-log records nor their payload; skipped.");
    if (badStackPayloads)
        notes.push_back(name + ": " + std::to_string(badStackPayloads) + " " +
                        std::string(kStackTraces) + " artifacts (the first at " + firstBadStack +
                        ") have a payload that is not a JSON object; skipped.");
    decide(
        arts, facts, autotune, name,
        [](const std::string&) {
            return std::string(
                "no inductor_compile end event with is_backward closes the span it "
                "was logged in");
        },
        notes);
    return assemble(arts, name, std::move(notes));
}

RebuiltKernelInfo readTorchTraceFolder(const std::string& dirIn) {
    std::string dir = dirIn;
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    const std::string rawLog = dir + "/raw.log";  // tlparse copies the log it read here
    if (isRegularFile(rawLog)) {
        TraceBytes bytes = TraceBytes::open(rawLog);
        return readTorchTraceLog(bytes.text(), rawLog);
    }
    std::vector<std::string> names = listDir(dir);
    std::vector<std::string> logs;
    for (const std::string& n : names)
        if (startsWith(n, "dedicated_log_torch_trace") &&
            (endsWith(n, ".log") || endsWith(n, ".log.gz")) && isRegularFile(dir + "/" + n))
            logs.push_back(n);
    if (logs.size() == 1) {
        TraceBytes bytes = TraceBytes::open(dir + "/" + logs[0]);  // also inflates .log.gz
        return readTorchTraceLog(bytes.text(), dir + "/" + logs[0]);
    }
    if (logs.size() > 1) {
        std::string list;
        for (std::size_t i = 0; i < logs.size() && i < 6; ++i) list += (i ? ", " : "") + logs[i];
        throw InputError(dir + ": this TORCH_TRACE folder holds " + std::to_string(logs.size()) +
                         " logs (" + list + (logs.size() > 6 ? ", ..." : "") +
                         "), one per process or rank; open the one of the traced process");
    }

    // A tlparse output folder without raw.log: its compile-id folders.
    struct File {
        long long n;
        std::string folder, name, compileId;
    };
    std::vector<File> stackFiles, mappingFiles;
    std::map<std::string, CompileFacts> facts;
    for (const std::string& sub : names) {
        std::optional<std::string> cid = compileIdOfFolder(sub);
        if (!cid || !isDirectory(dir + "/" + sub)) continue;
        for (const std::string& f : listDir(dir + "/" + sub)) {
            if (auto n = numberedFile(f, kStackTraces, ".json"))
                stackFiles.push_back({*n, sub, f, *cid});
            else if (auto m = numberedFile(f, kNodeMappings, ".json"))
                mappingFiles.push_back({*m, sub, f, *cid});
            for (const char* g : {"aot_backward_graph", "aot_joint_graph", "aot_inference_graph"})
                if (numberedFile(f, g, ".txt")) noteGraphs(g, facts[*cid]);
        }
    }
    if (stackFiles.empty())
        throw InputError(
            dir +
            ": neither a tlparse output folder (no raw.log, no compile-id folder such "
            "as -_0_0_0 with " +
            std::string(kStackTraces) +
            "_<n>.json) nor a TORCH_TRACE folder (no dedicated_log_torch_trace_*.log)");
    auto byNumber = [](const File& a, const File& b) { return a.n < b.n; };
    std::sort(stackFiles.begin(), stackFiles.end(), byNumber);
    std::sort(mappingFiles.begin(), mappingFiles.end(), byNumber);

    std::vector<std::string> notes;
    std::vector<Artifact> arts;
    std::set<std::size_t> usedMappings;
    for (const File& f : stackFiles) {
        std::string rel = f.folder + "/" + f.name;
        std::optional<OJ> s = parseJson(readText(dir + "/" + rel));
        if (!s || !s->is_object()) {
            notes.push_back(dir + ": " + rel + " is not a JSON object; skipped.");
            continue;
        }
        Artifact a;
        a.compileId = f.compileId;
        a.where = rel;
        a.stacks = std::move(*s);
        // The node mappings are logged just before the stack traces of the same compile.
        for (std::size_t i = mappingFiles.size(); i-- > 0;) {
            const File& m = mappingFiles[i];
            if (m.n >= f.n || m.folder != f.folder) continue;
            if (usedMappings.insert(i).second) {
                if (std::optional<OJ> j = parseJson(readText(dir + "/" + m.folder + "/" + m.name));
                    j && j->is_object())
                    a.mappings = std::move(*j);
            }
            break;
        }
        arts.push_back(std::move(a));
    }

    // Rule 1 from chromium_events.json: the k-th inductor_compile end event of a compile id with
    // is_backward, for the k-th stack-trace artifact of that compile id, when the counts agree.
    AutotuneMap autotune;
    std::map<std::string, std::vector<bool>> compiles;
    const std::string eventsPath = dir + "/chromium_events.json";
    bool haveEvents = false;
    if (isRegularFile(eventsPath)) {
        std::optional<OJ> events = parseJson(readText(eventsPath));
        if (events && events->is_array()) {
            haveEvents = true;
            for (const OJ& ev : *events) {
                if (!ev.is_object()) continue;
                OJ args = ev.value("args", OJ::object());
                if (!args.is_object()) continue;
                auto c = args.find("compile_id");
                auto bw = args.find("is_backward");
                if (c == args.end() || !c->is_string() || bw == args.end() || !bw->is_boolean())
                    continue;
                std::string name = stringAt(ev, "name"), ph = stringAt(ev, "ph");
                if (name == "inductor_compile" && ph == "E")
                    compiles[*c].push_back(bw->get<bool>());
                auto k = args.find("kernel_name");
                if (name == "CachingAutotuner.benchmark_all_configs" && k != args.end() &&
                    k->is_string())
                    autotune[{c->get<std::string>(), k->get<std::string>()}].insert(
                        bw->get<bool>());
            }
        }
    }
    std::map<std::string, std::size_t> artifactsOf;
    for (const Artifact& a : arts)
        if (!a.compileId.empty()) ++artifactsOf[a.compileId];
    std::map<std::string, std::size_t> next;
    for (Artifact& a : arts) {
        if (a.compileId.empty()) continue;
        auto c = compiles.find(a.compileId);
        if (c == compiles.end() || c->second.size() != artifactsOf[a.compileId]) continue;
        a.backward = c->second[next[a.compileId]++];
    }
    decide(
        arts, facts, autotune, dir,
        [&](const std::string& cid) -> std::string {
            if (!haveEvents) return "the folder has no chromium_events.json to tell";
            auto c = compiles.find(cid);
            std::size_t events = c == compiles.end() ? 0 : c->second.size();
            return "chromium_events.json has " + std::to_string(events) +
                   " inductor_compile end events with is_backward for it, and the folder " +
                   std::to_string(artifactsOf[cid]) + " kernel stack-trace artifacts";
        },
        notes);
    return assemble(arts, dir, std::move(notes));
}

bool isStackTraceArtifactFile(const std::string& path) {
    return startsWith(baseName(path), kStackTraces);
}

RebuiltKernelInfo readStackTraceArtifactFile(std::string_view text, const std::string& path) {
    std::optional<OJ> s = parseJson(text);
    if (!s || !s->is_object())
        throw InputError(path +
                         ": not a JSON object of kernel stack traces ({kernel: [stack strings]})");
    std::vector<Artifact> arts(1);
    Artifact& a = arts[0];
    a.compileId = compileIdOfFolder(parentName(path)).value_or(std::string());
    a.where = baseName(path);
    a.stacks = std::move(*s);
    std::vector<std::string> notes;
    if (!a.compileId.empty()) {
        a.backward = false;
        notes.push_back(path +
                        ": a single tlparse artifact file does not tell forward from backward; "
                        "it is taken as the forward graph " +
                        regionKey(a.compileId, false) + " of compile " + a.compileId +
                        " (its folder). Open the tlparse output "
                        "folder instead to have them told apart.");
    }
    return assemble(arts, path, std::move(notes));
}

}  // namespace stackline
