// kernel-code: what Inductor generated for each kernel, and with --trace how it ran there.
#include <algorithm>
#include <cmath>
#include <deque>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "annotate/provenance.h"
#include "base/file_system.h"
#include "cli_options.h"
#include "command_support.h"
#include "commands.h"
#include "import/trace_formats.h"
#include "kernel_info/kernel_code.h"
#include "kernel_info/output_code.h"
#include "kernel_info/torch_trace_log.h"
#include "model/kineto.h"
#include "model/trace.h"
#include "pipeline/display_indexes.h"
#include "python/python_values.h"

using namespace stackline;

namespace cli {

namespace {

// The generated code of KINFO. A TORCH_TRACE log without kernel stack traces is no kernel
// information, but its code is still worth showing.
struct Loaded {
    KernelInfo info;  // empty when KINFO is a log without kernel stack traces
    KernelCodeIndex code;
};

Loaded load(const std::string& path) {
    try {
        KernelInfo info = KernelInfo::load(path);
        printNotes(info);
        KernelCodeIndex code = info.code();
        return {std::move(info), std::move(code)};
    } catch (const InputError&) {
        if (isDirectory(path)) throw;
        TraceBytes bytes = TraceBytes::open(path);
        if (!looksLikeStructuredLog(bytes.text())) throw;
        return {KernelInfo(), readTorchTraceLog(bytes.text(), path, false).code};
    }
}

// What the trace shows of one kernel name.
struct OnTrace {
    std::vector<int64_t> durNs;
    std::map<std::string, std::size_t> launches;  // launch config (JSON) -> count
    std::vector<TritonLaunch> distinct;
    // Extern kernels: each launch's place among its region's calls of the same extern kernel.
    std::vector<std::optional<ExternCallOrder>> externOrder;
};

// "extern_kernels.mm" when the launch of row sits in such a launcher slice, else empty.
std::string externLauncherOf(const Trace& trace, const TrackIndex& tracks, const FlowIndex& flows,
                             uint32_t row) {
    uint32_t launch = runtimeLaunchOf(trace, flows, row);
    if (launch == kNoRow) return {};
    for (uint32_t r : tracks.enclosing(launch)) {
        std::string_view name = trace.events.nameOf(r);
        if (name.starts_with(std::string(reference::kExternKernelsMark) + "."))
            return std::string(name);
    }
    return {};
}

OrderedJson launchJson(const TritonLaunch& l) {
    OrderedJson j = OrderedJson::object();
    auto opt = [&](const char* key, const auto& v) {
        if (v) j[key] = *v;
    };
    if (!l.kernelKwargs.empty()) j["kernel_kwargs"] = l.kernelKwargs;
    opt("num_warps", l.numWarps);
    opt("num_stages", l.numStages);
    if (!l.kernelFile.empty()) j["kernel_file"] = l.kernelFile;
    if (!l.kernelHash.empty()) j["kernel_hash"] = l.kernelHash;
    opt("registers_per_thread", l.registersPerThread);
    opt("shared_memory", l.sharedMemory);
    opt("blocks_per_sm", l.blocksPerSm);
    opt("warps_per_sm", l.warpsPerSm);
    opt("occupancy_pct", l.occupancy);
    return j;
}

// (graph key, name) -> what the trace shows. The graph of a launch is the kernel-information
// entry the provenance processor matched it to; empty when it matched none.
using TraceKernels = std::map<std::pair<std::string, std::string>, OnTrace>;

TraceKernels readTrace(const std::string& path, const KernelInfo& info) {
    const Trace trace = loadTrace(path);
    const EventTable& ev = trace.events;
    const DisplayIndexes indexes = buildTraceIndexes(trace, 0, IndexSet::Flows);
    const TrackIndex& tracks = indexes.tracks;
    const FlowIndex& flows = indexes.flows;
    const Provenance provenance = runProvenance(trace, info);
    TraceKernels out;
    for (uint32_t r = 0; r < ev.size(); ++r) {
        if (ev.phase[r] != 'X' || !kineto::isGpuKernel(ev.catOf(r))) continue;
        const StackOrigin origin = provenance.origins.of(r);
        const StackSource* source =
            origin == StackOrigin::Matched || origin == StackOrigin::MatchedByName
                ? provenance.origins.sourceOf(r)
                : nullptr;
        const std::string graph = source ? source->graphKey : std::string();
        OnTrace& t = out[{graph, std::string(ev.nameOf(r))}];
        t.durNs.push_back(ev.durNs(r));
        TritonLaunch l = tritonLaunchOf(trace, tracks, flows, r);
        if (++t.launches[launchJson(l).dump()] == 1) t.distinct.push_back(l);
        // Extern kernels are known by their call, not by their (cuBLAS, ...) names.
        if (std::string ext = externLauncherOf(trace, tracks, flows, r); !ext.empty()) {
            // The processor may match a forward region's extern call to a backward graph's
            // entry (it looks the backward keys up first); the forward region names its graph.
            std::string externGraph = graph;
            uint32_t region = compiledRegionOf(ev, tracks, runtimeLaunchOf(trace, flows, r));
            if (region != kNoRow && ev.nameOf(region) != kineto::kCompiledFunctionBackward &&
                ev.nameOf(region).starts_with(kineto::kCompiledRegion))
                externGraph = pyGraphKey(ev.nameOf(region), false);
            OnTrace& e = out[{externGraph, ext}];
            e.durNs.push_back(ev.durNs(r));
            e.externOrder.push_back(externCallOrderOf(trace, tracks, flows, r, ext));
        }
    }
    return out;
}

OrderedJson timeJson(const OnTrace& t) {
    int64_t total = 0;
    for (int64_t d : t.durNs) total += d;
    OrderedJson j = OrderedJson::object();
    j["count"] = t.durNs.size();
    j["total_ns"] = total;
    // Rounded to the nearest nanosecond, as every time of the JSON is an integer.
    const auto count = int64_t(t.durNs.size());
    j["mean_ns"] = count == 0 ? 0 : (total + count / 2) / count;
    j["min_ns"] = t.durNs.empty() ? 0 : *std::min_element(t.durNs.begin(), t.durNs.end());
    j["max_ns"] = t.durNs.empty() ? 0 : *std::max_element(t.durNs.begin(), t.durNs.end());
    return j;
}

OrderedJson recordJson(const KernelCode& k) {
    OrderedJson j = OrderedJson::object();
    j["name"] = k.name;
    j["graph_key"] = k.graphKey;
    j["compile_id"] = k.compileId;
    j["triton"] = k.triton;
    j["module_file"] = k.moduleFile;
    j["kernel_path"] = k.kernelPath;
    j["first_line"] = k.firstLine;
    j["last_line"] = k.lastLine;
    j["source"] = k.source;
    OrderedJson sites = OrderedJson::array();
    for (const CodeLine& l : k.launchSites) sites.push_back({{"line", l.line}, {"text", l.text}});
    j["launch_sites"] = std::move(sites);
    j["autotune_cache_state"] = k.autotuneCacheState;
    j["configs"] = k.configs;
    j["num_configs"] = k.numConfigs ? OrderedJson(*k.numConfigs) : OrderedJson();
    j["compile_time_ns"] =
        k.compileTimeUs ? OrderedJson(std::llround(*k.compileTimeUs * 1000.0)) : OrderedJson();
    j["post_grad_nodes"] = k.postGradNodes;
    j["pre_grad_nodes"] = k.preGradNodes;
    return j;
}

std::string trimmed(const std::string& s) {
    std::size_t b = s.find_first_not_of(" \t");
    return b == std::string::npos ? std::string() : s.substr(b);
}

std::string list(const std::vector<std::string>& v) {
    std::string s;
    for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
    return s.empty() ? "-" : s;
}

void printRecord(std::ostream& o, const KernelCode& k) {
    o << k.name << (k.triton ? "" : " (extern kernel)") << "\n";
    o << "  graph: " << (k.graphKey.empty() ? "-" : k.graphKey) << "\n";
    o << "  module: " << (k.moduleFile.empty() ? "-" : k.moduleFile);
    if (k.firstLine) o << " lines " << k.firstLine << "-" << k.lastLine;
    o << "\n";
    for (const CodeLine& l : k.launchSites)
        o << "  launched at line " << l.line << ": " << trimmed(l.text) << "\n";
    if (!k.autotuneCacheState.empty() || k.compileTimeUs) {
        o << "  autotune: " << (k.autotuneCacheState.empty() ? "-" : k.autotuneCacheState);
        if (k.numConfigs) o << ", " << *k.numConfigs << " configs";
        if (k.compileTimeUs) o << ", compiled in " << *k.compileTimeUs / 1000.0 << " ms";
        o << "\n";
    }
    for (const std::string& c : k.configs) o << "  config: " << c << "\n";
    o << "  post-grad nodes: " << list(k.postGradNodes) << "\n";
    o << "  pre-grad nodes: " << list(k.preGradNodes) << "\n";
    if (!k.source.empty()) {
        std::istringstream in(k.source);
        std::string line;
        for (int n = k.firstLine; std::getline(in, line); ++n)
            o << "  " << n << "| " << line << "\n";
    }
}

// How many of the trace's launches each call site of an extern record made, by order within
// their region; the rest could not be told apart.
std::pair<std::map<int, std::size_t>, std::size_t> externSites(const KernelCode& k,
                                                               const OnTrace& t) {
    std::map<int, std::size_t> bySite;
    std::size_t unmatched = 0;
    for (const std::optional<ExternCallOrder>& o : t.externOrder) {
        const CodeLine* site = o ? externCallSite(k, *o) : nullptr;
        if (site)
            ++bySite[site->line];
        else
            ++unmatched;
    }
    return {bySite, unmatched};
}

void printTrace(std::ostream& o, const OnTrace& t) {
    OrderedJson j = timeJson(t);
    o << "  on the trace: " << j["count"].get<std::size_t>() << " launches, total "
      << j["total_ns"].get<int64_t>() / 1000.0 << " us, mean "
      << (t.durNs.empty() ? 0.0 : double(j["total_ns"].get<int64_t>()) / double(t.durNs.size())) /
             1000.0
      << " us, min " << j["min_ns"].get<int64_t>() / 1000.0 << " us, max "
      << j["max_ns"].get<int64_t>() / 1000.0 << " us\n";
    if (!t.externOrder.empty()) return;
    for (const TritonLaunch& l : t.distinct) {
        OrderedJson lj = launchJson(l);
        if (!lj.empty()) o << "  launch: " << lj.dump() << "\n";
    }
}

}  // namespace

int kernelCode(const Args& a) {
    const Loaded loaded = load(a.trace);
    const KernelCodeIndex& code = loaded.code;
    TraceKernels onTrace;
    if (!a.codeTrace.empty()) onTrace = readTrace(a.codeTrace, loaded.info);
    // The launches of a name in a graph and those of no known graph; every graph's when graph is
    // null.
    std::deque<OnTrace> merged;
    auto traceOf = [&](const std::string& name, const std::string* graph) -> const OnTrace* {
        OnTrace all;
        bool any = false;
        for (const auto& [key, t] : onTrace) {
            if (key.second != name || (graph && !key.first.empty() && key.first != *graph))
                continue;
            any = true;
            all.durNs.insert(all.durNs.end(), t.durNs.begin(), t.durNs.end());
            for (const TritonLaunch& l : t.distinct) {
                const std::string config = launchJson(l).dump();
                const std::size_t n = t.launches.at(config);
                if ((all.launches[config] += n) == n) all.distinct.push_back(l);
            }
            all.externOrder.insert(all.externOrder.end(), t.externOrder.begin(),
                                   t.externOrder.end());
        }
        if (!any) return nullptr;
        merged.push_back(std::move(all));
        return &merged.back();
    };

    // The kernels asked for; else every record, and every Triton launch on the trace.
    std::vector<std::string> names = a.kernels;
    if (names.empty()) {
        std::set<std::string> seen;
        for (const KernelCode& k : code.kernels())
            if (seen.insert(k.name).second) names.push_back(k.name);
        for (const auto& [key, t] : onTrace)
            for (const TritonLaunch& l : t.distinct)
                if (!l.kernelKwargs.empty() || !l.kernelHash.empty()) {
                    if (seen.insert(key.second).second) names.push_back(key.second);
                    break;
                }
    }

    if (names.empty())
        throw InputError(
            a.trace +
            ": no generated code (inductor_output_code) in it: a TORCH_TRACE log "
            "(dedicated_log_torch_trace_*.log, or a tlparse folder with its raw.log) holds it" +
            (a.codeTrace.empty() ? std::string() : ", and no Triton launch on " + a.codeTrace));
    OrderedJson out = OrderedJson::array();
    std::ostringstream text;
    for (const std::string& name : names) {
        std::vector<const KernelCode*> records = code.named(name);
        const OnTrace* t = traceOf(name, nullptr);
        std::optional<KernelCode> fromFile;
        std::string kernelFile;
        if (t)
            for (const TritonLaunch& l : t->distinct)
                if (!l.kernelFile.empty()) kernelFile = l.kernelFile;
        if (records.empty() && (fromFile = codeFromKernelFile(name, kernelFile)))
            records.push_back(&*fromFile);
        if (records.empty()) {
            std::string why = missingCodeReason(a.trace, !code.empty(), kernelFile);
            OrderedJson j = {{"name", name}, {"missing", why}};
            if (t) {
                j["gpu_time"] = timeJson(*t);
                OrderedJson launches = OrderedJson::array();
                for (const TritonLaunch& l : t->distinct) launches.push_back(launchJson(l));
                j["launches"] = std::move(launches);
            }
            out.push_back(std::move(j));
            text << name << "\n  " << why << "\n";
            if (t) printTrace(text, *t);
            text << "\n";
            continue;
        }
        for (const KernelCode* k : records) {
            if (!fromFile) t = traceOf(k->name, &k->graphKey);
            OrderedJson j = recordJson(*k);
            if (!a.codeTrace.empty()) {
                if (records.size() > 1)
                    j["gpu_time_note"] =
                        "the trace's launches of this name are counted for every "
                        "graph that defines it";
                j["gpu_time"] = t ? timeJson(*t) : timeJson(OnTrace());
                OrderedJson launches = OrderedJson::array();
                if (t)
                    for (const TritonLaunch& l : t->distinct) launches.push_back(launchJson(l));
                j["launches"] = std::move(launches);
                if (t && !t->externOrder.empty()) {
                    auto [bySite, unmatched] = externSites(*k, *t);
                    OrderedJson sites = OrderedJson::array();
                    for (const auto& [line, n] : bySite)
                        sites.push_back({{"line", line}, {"launches", n}});
                    j["launches_by_call_site"] = std::move(sites);
                    j["launches_without_call_site"] = unmatched;
                }
            }
            out.push_back(std::move(j));
            printRecord(text, *k);
            if (!a.codeTrace.empty()) {
                if (t) {
                    printTrace(text, *t);
                    if (!t->externOrder.empty()) {
                        auto [bySite, unmatched] = externSites(*k, *t);
                        for (const auto& [line, n] : bySite)
                            text << "  " << n << " launches from line " << line << "\n";
                        if (unmatched)
                            text << "  " << unmatched
                                 << " launches not told apart (their region calls it a different "
                                    "number of times than this module): any call site above\n";
                    }
                } else
                    text << "  not launched on the trace\n";
            }
            text << "\n";
        }
    }
    std::cout << (a.json ? dumpJson(out, 1) + "\n" : text.str());
    return 0;
}

}  // namespace cli
