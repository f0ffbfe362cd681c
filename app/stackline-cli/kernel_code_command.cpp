#include <algorithm>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "cli_options.h"
#include "command_support.h"
#include "commands.h"
#include "file_system.h"
#include "flow_index.h"
#include "kernel_code.h"
#include "kineto.h"
#include "output_code.h"
#include "torch_trace_log.h"
#include "trace.h"
#include "track_index.h"

using namespace stackline;

namespace cli {

namespace {

// The generated code of KINFO. A TORCH_TRACE log without kernel stack traces is no kernel
// information, but its code is still worth showing.
KernelCodeIndex codeOf(const std::string& path) {
    try {
        KernelInfo info = KernelInfo::load(path);
        printNotes(info);
        return info.code();
    } catch (const InputError&) {
        if (isDirectory(path)) throw;
        TraceBytes bytes = TraceBytes::open(path);
        if (!looksLikeStructuredLog(bytes.text())) throw;
        return readTorchTraceLog(bytes.text(), path, false).code;
    }
}

// What the trace shows of one kernel name.
struct OnTrace {
    std::vector<int64_t> durNs;
    std::map<std::string, std::size_t> launches;  // launch config (JSON) -> count
    std::vector<TritonLaunch> distinct;
};

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

std::map<std::string, OnTrace> readTrace(const std::string& path) {
    Trace trace = loadTrace(path);
    const EventTable& ev = trace.events;
    const TrackIndex tracks = TrackIndex::build(ev, trace.text());
    const FlowIndex flows = FlowIndex::build(ev, tracks);
    std::map<std::string, OnTrace> out;
    for (uint32_t r = 0; r < ev.size(); ++r) {
        if (ev.phase[r] != 'X' || !kineto::isGpuKernel(ev.catOf(r))) continue;
        OnTrace& t = out[std::string(ev.nameOf(r))];
        t.durNs.push_back(ev.durNs.empty() ? 0 : ev.durNs[r]);
        TritonLaunch l = tritonLaunchOf(trace, tracks, flows, r);
        if (++t.launches[launchJson(l).dump()] == 1) t.distinct.push_back(l);
    }
    return out;
}

OrderedJson timeJson(const OnTrace& t) {
    int64_t total = 0;
    for (int64_t d : t.durNs) total += d;
    OrderedJson j = OrderedJson::object();
    j["count"] = t.durNs.size();
    j["total_ns"] = total;
    j["mean_ns"] = t.durNs.empty() ? 0.0 : double(total) / double(t.durNs.size());
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
    j["first_line"] = k.firstLine;
    j["last_line"] = k.lastLine;
    j["source"] = k.source;
    OrderedJson sites = OrderedJson::array();
    for (const CodeLine& l : k.launchSites) sites.push_back({{"line", l.line}, {"text", l.text}});
    j["launch_sites"] = std::move(sites);
    j["autotune_cache_state"] = k.autotuneCacheState;
    j["configs"] = k.configs;
    j["num_configs"] = k.numConfigs ? OrderedJson(*k.numConfigs) : OrderedJson();
    j["compile_time_us"] = k.compileTimeUs ? OrderedJson(*k.compileTimeUs) : OrderedJson();
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

void printTrace(std::ostream& o, const OnTrace& t) {
    OrderedJson j = timeJson(t);
    o << "  on the trace: " << j["count"].get<std::size_t>() << " launches, total "
      << j["total_ns"].get<int64_t>() / 1000.0 << " us, mean "
      << j["mean_ns"].get<double>() / 1000.0 << " us, min " << j["min_ns"].get<int64_t>() / 1000.0
      << " us, max " << j["max_ns"].get<int64_t>() / 1000.0 << " us\n";
    for (const TritonLaunch& l : t.distinct) {
        OrderedJson lj = launchJson(l);
        if (!lj.empty()) o << "  launch: " << lj.dump() << "\n";
    }
}

// Why a kernel launched on the trace has no code, and where it would come from.
std::string missingCode(const std::string& kinfo, const OnTrace* t) {
    std::string why = "no generated code in " + kinfo +
                      " (a TORCH_TRACE log recorded with TORCH_TRACE=<folder> holds it)";
    if (t)
        for (const TritonLaunch& l : t->distinct)
            if (!l.kernelFile.empty()) {
                why += "; its kernel_file " + l.kernelFile + " is not on this machine";
                break;
            }
    return why;
}

// A Triton kernel's code from the kernel_file its launch names, when that file is here.
std::optional<KernelCode> fromKernelFile(const std::string& name, const OnTrace* t) {
    if (!t) return std::nullopt;
    for (const TritonLaunch& l : t->distinct) {
        if (l.kernelFile.empty() || !isRegularFile(l.kernelFile)) continue;
        for (KernelCode& k : parseOutputCode(readTextFile(l.kernelFile)))
            if (k.name == name) {
                k.moduleFile = l.kernelFile;
                return k;
            }
    }
    return std::nullopt;
}

}  // namespace

int kernelCode(const Args& a) {
    const KernelCodeIndex code = codeOf(a.trace);
    std::map<std::string, OnTrace> onTrace;
    if (!a.codeTrace.empty()) onTrace = readTrace(a.codeTrace);
    auto traceOf = [&](const std::string& name) -> const OnTrace* {
        auto it = onTrace.find(name);
        return it == onTrace.end() ? nullptr : &it->second;
    };

    // The kernels asked for; else every record, and every Triton launch on the trace.
    std::vector<std::string> names = a.kernels;
    if (names.empty()) {
        std::set<std::string> seen;
        for (const KernelCode& k : code.kernels())
            if (seen.insert(k.name).second) names.push_back(k.name);
        for (const auto& [name, t] : onTrace)
            for (const TritonLaunch& l : t.distinct)
                if (!l.kernelKwargs.empty() || !l.kernelHash.empty()) {
                    if (seen.insert(name).second) names.push_back(name);
                    break;
                }
    }

    if (names.empty())
        throw InputError(
            a.trace + ": no generated code (inductor_output_code) in it" +
            (a.codeTrace.empty() ? std::string() : ", and no Triton launch on " + a.codeTrace));
    OrderedJson out = OrderedJson::array();
    std::ostringstream text;
    for (const std::string& name : names) {
        std::vector<const KernelCode*> records = code.named(name);
        const OnTrace* t = traceOf(name);
        std::optional<KernelCode> fromFile;
        if (records.empty() && (fromFile = fromKernelFile(name, t))) records.push_back(&*fromFile);
        if (records.empty()) {
            std::string why = missingCode(a.trace, t);
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
            }
            out.push_back(std::move(j));
            printRecord(text, *k);
            if (!a.codeTrace.empty()) {
                if (t)
                    printTrace(text, *t);
                else
                    text << "  not launched on the trace\n";
            }
            text << "\n";
        }
    }
    std::cout << (a.json ? dumpJson(out, 1) + "\n" : text.str());
    return 0;
}

}  // namespace cli
