#include "analysis/run_diff.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "analysis/job_steps.h"

namespace stackline {
namespace {

// A line of one run, as the hotspots name it: (file, line number), with the function and code of
// the first frame seen there (code from a later frame when the first had none).
struct RunLine {
    SourceFrame frame;
    int64_t selfNs = 0, totalNs = 0;
    uint64_t count = 0;
    std::vector<uint32_t> rows;
};

struct RunKernel {
    int64_t ns = 0;
    uint64_t count = 0;
    std::vector<uint32_t> rows;
    std::set<uint32_t> lines;  // RunLine ids of every frame of its stacks
};

struct Run {
    std::vector<RunLine> lines;
    std::map<std::string, RunKernel, std::less<>> kernels;  // by name
};

// Distinct line ids of one stack value, derived once per distinct stack.
struct StackLines {
    std::vector<uint32_t> innermost, all;
};

void addDistinct(std::vector<uint32_t>& ids, uint32_t id) {
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
}

Run collect(const RunInput& in) {
    Run run;
    std::map<std::pair<std::string, int>, uint32_t> ids;
    auto idOf = [&](const SourceFrame& f) {
        auto [it, added] = ids.emplace(std::pair(f.file, f.line), uint32_t(run.lines.size()));
        if (added) run.lines.push_back({f, 0, 0, 0, {}});
        SourceFrame& first = run.lines[it->second].frame;
        if (first.code.empty()) first.code = f.code;
        return it->second;
    };
    std::unordered_map<uint64_t, StackLines> byStack;
    std::unordered_map<std::string_view, RunKernel> kernels;
    const EventTable& t = in.trace->events;
    forEachKernelSample(*in.trace, *in.provenance, in.options, [&](const KernelSample& k) {
        RunKernel& kernel = kernels[t.nameOf(k.row)];
        kernel.ns += k.ns;
        ++kernel.count;
        kernel.rows.push_back(k.row);
        if (k.stacks->empty()) return;
        auto it = byStack.find(k.stackKey);
        if (it == byStack.end()) {
            StackLines s;
            for (const FrameStack& frames : *k.stacks) {
                for (const SourceFrame& f : frames) addDistinct(s.all, idOf(f));
                addDistinct(s.innermost, idOf(chargedFrame(frames)));
            }
            it = byStack.emplace(k.stackKey, std::move(s)).first;
        }
        const StackLines& s = it->second;
        const int64_t n = int64_t(s.innermost.size());
        for (int64_t i = 0; i < n; ++i) run.lines[s.innermost[i]].selfNs += selfShareNs(k.ns, n, i);
        for (uint32_t id : s.all) {
            RunLine& l = run.lines[id];
            l.totalNs += k.ns;
            ++l.count;
            l.rows.push_back(k.row);
            kernel.lines.insert(id);
        }
    });
    for (auto& [name, kernel] : kernels) run.kernels.emplace(std::string(name), std::move(kernel));
    return run;
}

// How lines match across runs: (file, function, code), or the line number when there is no code.
using MatchKey = std::tuple<std::string, std::string, std::string, int>;
MatchKey matchKey(const SourceFrame& f) {
    return {f.file, f.function, f.code, f.code.empty() ? f.line : 0};
}

RunSide sideOf(RunLine& l) {
    return {l.frame.line, l.selfNs, l.totalNs, l.count, std::move(l.rows)};
}

RunSide sideOf(RunKernel& k) {
    return {0, 0, k.ns, k.count, std::move(k.rows)};
}

// Pairs the lines of both runs; lineIndex[side][RunLine id] is the DiffLine's index.
std::vector<DiffLine> matchLines(Run& base, Run& next,
                                 std::vector<std::vector<std::size_t>>& lineIndex) {
    std::map<MatchKey, std::vector<uint32_t>> groups[2];
    Run* runs[2] = {&base, &next};
    for (int side = 0; side < 2; ++side) {
        for (uint32_t id = 0; id < runs[side]->lines.size(); ++id)
            groups[side][matchKey(runs[side]->lines[id].frame)].push_back(id);
        for (auto& [key, ids] : groups[side])
            std::sort(ids.begin(), ids.end(), [&](uint32_t a, uint32_t b) {
                return runs[side]->lines[a].frame.line < runs[side]->lines[b].frame.line;
            });
        lineIndex[side].assign(runs[side]->lines.size(), 0);
    }
    std::set<MatchKey> keys;
    for (auto& g : groups)
        for (auto& [key, ids] : g) keys.insert(key);
    std::vector<DiffLine> lines;
    for (const MatchKey& key : keys) {
        const std::vector<uint32_t>* ids[2];
        for (int side = 0; side < 2; ++side) {
            static const std::vector<uint32_t> none;
            auto it = groups[side].find(key);
            ids[side] = it == groups[side].end() ? &none : &it->second;
        }
        for (std::size_t i = 0; i < std::max(ids[0]->size(), ids[1]->size()); ++i) {
            DiffLine d;
            d.file = std::get<0>(key);
            d.function = std::get<1>(key);
            d.code = std::get<2>(key);
            for (int side = 0; side < 2; ++side) {
                if (i >= ids[side]->size()) continue;
                const uint32_t id = (*ids[side])[i];
                (side ? d.next : d.base) = sideOf(runs[side]->lines[id]);
                lineIndex[side][id] = lines.size();
            }
            lines.push_back(std::move(d));
        }
    }
    return lines;
}

// The name without Inductor's trailing "_<index>"; empty when it has none.
std::string_view stemOf(std::string_view name) {
    std::size_t end = name.size();
    while (end && std::isdigit(static_cast<unsigned char>(name[end - 1]))) --end;
    if (end == name.size() || end < 2 || name[end - 1] != '_') return {};
    return name.substr(0, end - 1);
}

// The fused ops the kernel information lists for a kernel (every entry of that name, or
// "name:handle", in any graph): its post_grad_nodes without their own trailing index. None when
// no entry lists them.
std::optional<std::set<std::string>> fusedOpsOf(const KernelInfo* info, const std::string& name) {
    if (!info) return std::nullopt;
    std::set<std::string> ops;
    bool listed = false;
    auto visit = [&](const OrderedJson& kernels) {
        if (!kernels.is_object()) return;
        for (const auto& [key, entry] : kernels.items()) {
            const bool named = key == name || (key.starts_with(name) && key.size() > name.size() &&
                                               key[name.size()] == ':');
            if (!named || !entry.is_object()) continue;
            auto nodes = entry.find("post_grad_nodes");
            if (nodes == entry.end() || !nodes->is_array()) continue;
            listed = true;
            for (const OrderedJson& node : *nodes) {
                if (!node.is_string()) continue;
                const std::string& n = node.get_ref<const std::string&>();
                const std::string_view stem = stemOf(n);
                ops.emplace(stem.empty() ? std::string_view(n) : stem);
            }
        }
    };
    for (const auto& [graph, kernels] : info->registryJson().items()) visit(kernels);
    if (const OrderedJson* kernelOnly = info->kernelOnlyJson()) visit(*kernelOnly);
    return listed ? std::optional(std::move(ops)) : std::nullopt;
}

// What a kernel present in one run only must share with its renamed self in the other.
struct RenameKey {
    std::string_view stem;
    std::set<std::size_t> lines;  // DiffLine indices
    std::optional<std::set<std::string>> fusedOps;
    bool matches(const RenameKey& o) const {
        return !stem.empty() && stem == o.stem && !lines.empty() && lines == o.lines &&
               (!fusedOps || !o.fusedOps || *fusedOps == *o.fusedOps);
    }
};

RenameKey renameKey(const std::string& name, const RunKernel& k,
                    const std::vector<std::size_t>& lineIndex, const KernelInfo* info) {
    RenameKey key{stemOf(name), {}, std::nullopt};
    for (uint32_t id : k.lines) key.lines.insert(lineIndex[id]);
    if (!key.stem.empty()) key.fusedOps = fusedOpsOf(info, name);
    return key;
}

std::vector<DiffKernel> matchKernels(Run& base, Run& next, const RunInput& baseIn,
                                     const RunInput& nextIn,
                                     const std::vector<std::vector<std::size_t>>& lineIndex) {
    std::vector<DiffKernel> kernels;
    std::vector<std::pair<const std::string*, RenameKey>> nextOnly;
    for (auto& [name, k] : next.kernels)
        if (!base.kernels.count(name))
            nextOnly.emplace_back(&name, renameKey(name, k, lineIndex[1], nextIn.kernelInfo));
    std::vector<bool> taken(nextOnly.size());
    for (auto& [name, k] : base.kernels) {
        DiffKernel d{name, name, false, sideOf(k), {}};
        if (auto same = next.kernels.find(name); same != next.kernels.end()) {
            d.next = sideOf(same->second);
        } else {
            const RenameKey key = renameKey(name, k, lineIndex[0], baseIn.kernelInfo);
            for (std::size_t i = 0; i < nextOnly.size(); ++i) {
                if (taken[i] || !key.matches(nextOnly[i].second)) continue;
                taken[i] = true;
                d.nextName = *nextOnly[i].first;
                d.renamed = true;
                d.next = sideOf(next.kernels.at(d.nextName));
                break;
            }
        }
        kernels.push_back(std::move(d));
    }
    for (std::size_t i = 0; i < nextOnly.size(); ++i)
        if (!taken[i]) {
            const std::string& name = *nextOnly[i].first;
            kernels.push_back({name, name, false, {}, sideOf(next.kernels.at(name))});
        }
    return kernels;
}

OrderedJson sideJson(const RunDiff& diff, const RunSide& s, bool next, bool line) {
    if (!s.count) return nullptr;
    OrderedJson j;
    if (line) {
        j["line"] = s.line;
        j["self_ns"] = s.selfNs;
    }
    j["total_ns"] = s.totalNs;
    j[line ? "launches" : "count"] = s.count;
    if (diff.perStep()) {
        if (line) j["self_ns_per_step"] = diff.compared(s.selfNs, next);
        j["total_ns_per_step"] = diff.compared(s.totalNs, next);
    }
    return j;
}

OrderedJson ratioJson(int64_t base, int64_t next) {
    std::optional<double> r = ratioOf(base, next);
    return r ? OrderedJson(*r) : OrderedJson(nullptr);
}

}  // namespace

int64_t RunDiff::compared(int64_t ns, bool next) const {
    if (!perStep()) return ns;
    const int64_t steps = int64_t(next ? nextSteps : baseSteps);
    return (ns + steps / 2) / steps;  // nearest, halves up (times are not negative)
}

int64_t RunDiff::delta(const DiffLine& l) const {
    return compared(l.next.selfNs, true) - compared(l.base.selfNs, false);
}

int64_t RunDiff::delta(const DiffKernel& k) const {
    return compared(k.next.totalNs, true) - compared(k.base.totalNs, false);
}

std::optional<double> ratioOf(int64_t base, int64_t next) {
    if (!base) return std::nullopt;
    return double(next) / double(base);
}

RunDiff diffRuns(const RunInput& base, const RunInput& next) {
    RunDiff diff;
    diff.baseSteps = profilerSteps(*base.trace).size();
    diff.nextSteps = profilerSteps(*next.trace).size();
    Run b = collect(base), n = collect(next);
    std::vector<std::vector<std::size_t>> lineIndex(2);
    diff.lines = matchLines(b, n, lineIndex);
    diff.kernels = matchKernels(b, n, base, next, lineIndex);
    auto larger = [&](int64_t deltaA, int64_t deltaB, int64_t sizeA, int64_t sizeB) {
        return std::abs(deltaA) != std::abs(deltaB) ? std::abs(deltaA) > std::abs(deltaB)
                                                    : sizeA > sizeB;
    };
    auto size = [&](const RunSide& a, const RunSide& b, bool self) {
        return std::max(diff.compared(self ? a.selfNs : a.totalNs, false),
                        diff.compared(self ? b.selfNs : b.totalNs, true));
    };
    std::stable_sort(diff.lines.begin(), diff.lines.end(),
                     [&](const DiffLine& x, const DiffLine& y) {
                         return larger(diff.delta(x), diff.delta(y), size(x.base, x.next, true),
                                       size(y.base, y.next, true));
                     });
    std::stable_sort(diff.kernels.begin(), diff.kernels.end(),
                     [&](const DiffKernel& x, const DiffKernel& y) {
                         return larger(diff.delta(x), diff.delta(y), size(x.base, x.next, false),
                                       size(y.base, y.next, false));
                     });
    return diff;
}

OrderedJson runDiffJson(const RunDiff& diff, std::size_t top) {
    OrderedJson lines = OrderedJson::array(), kernels = OrderedJson::array();
    for (std::size_t i = 0; i < diff.lines.size() && i < top; ++i) {
        const DiffLine& l = diff.lines[i];
        lines.push_back({{"file", l.file},
                         {"function", l.function},
                         {"code", l.code},
                         {"base", sideJson(diff, l.base, false, true)},
                         {"new", sideJson(diff, l.next, true, true)},
                         {"delta_ns", diff.delta(l)},
                         {"ratio", ratioJson(diff.compared(l.base.selfNs, false),
                                             diff.compared(l.next.selfNs, true))}});
    }
    for (std::size_t i = 0; i < diff.kernels.size() && i < top; ++i) {
        const DiffKernel& k = diff.kernels[i];
        kernels.push_back({{"base_name", k.baseName},
                           {"new_name", k.nextName},
                           {"renamed", k.renamed},
                           {"base", sideJson(diff, k.base, false, false)},
                           {"new", sideJson(diff, k.next, true, false)},
                           {"delta_ns", diff.delta(k)},
                           {"ratio", ratioJson(diff.compared(k.base.totalNs, false),
                                               diff.compared(k.next.totalNs, true))}});
    }
    return {{"steps", {{"base", diff.baseSteps}, {"new", diff.nextSteps}}},
            {"per_step", diff.perStep()},
            {"lines", std::move(lines)},
            {"kernels", std::move(kernels)}};
}

}  // namespace stackline
