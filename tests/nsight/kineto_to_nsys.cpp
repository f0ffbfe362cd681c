#include "kineto_to_nsys.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <map>
#include <random>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include "base/errors.h"
#include "kineto_top_level.h"
#include "model/event_args.h"
#include "model/kineto.h"
#include "nsys_export_writer.h"
#include "nsys_names.h"

namespace stackline::nsys {

namespace {

enum class GpuKind : uint8_t { Kernel, Memcpy, Memset, Sync };

struct CpuItem {  // an NVTX range, an API call or a Python frame
    uint32_t row;
    int64_t start, end;  // absolute ns
    int64_t pid, tid;
    int64_t sequence = -1;  // NVTX ranges: the sequence number their name carries
};
struct ApiItem : CpuItem {
    int64_t correlation;
    bool driver;
    bool drop = false;
    std::string name;  // as written (graph launches renamed)
    int64_t callchain = -1;
};
struct GpuItem {
    uint32_t row;
    GpuKind kind;
    int64_t start, end;
    int64_t device, context, stream, correlation;
    int64_t graphNode = -1;
};

std::optional<int64_t> intOf(const nlohmann::json& args, const char* key) {
    auto it = args.find(key);
    if (it == args.end() || !it->is_number_integer()) return std::nullopt;
    return it->get<int64_t>();
}
int64_t dim(const nlohmann::json& args, const char* key, size_t i) {
    auto it = args.find(key);
    if (it == args.end() || !it->is_array() || it->size() <= i || !(*it)[i].is_number_integer())
        return 1;
    return (*it)[i].get<int64_t>();
}

std::string utcText(int64_t epochNs) {
    const std::time_t s = std::time_t(epochNs / 1000000000);
    std::tm tm{};
    gmtime_r(&s, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    return buf;
}

template <typename T>
void order(std::vector<T>& items, bool shuffle, uint64_t seed) {
    if (shuffle) {
        std::mt19937_64 rng(seed);
        std::shuffle(items.begin(), items.end(), rng);
    } else {
        std::stable_sort(items.begin(), items.end(),
                         [](const T& a, const T& b) { return a.start < b.start; });
    }
}

struct Reader {
    Reader(const Trace& t, int64_t baseNs) : trace(t), e(t.events), base(baseNs) {}
    const Trace& trace;
    const EventTable& e;
    int64_t base;
    std::vector<CpuItem> ranges, frames;
    std::vector<ApiItem> apis;
    std::vector<GpuItem> gpus;
    // fwdbwd flows: id -> (forward op's start, backward op's start), as (pid, tid, ts) keys.
    struct FlowEnds {
        std::optional<std::tuple<int64_t, int64_t, int64_t>> forward, backward;
    };
    std::unordered_map<int64_t, FlowEnds> flows;
    std::map<int64_t, std::string> processNames;
    std::map<std::pair<int64_t, int64_t>, std::string> threadNames;

    std::optional<int64_t> intKey(KeyId k) const { return e.keys.asInt(k); }

    void read() {
        for (uint32_t row = 0; row < e.size(); ++row) {
            const char ph = e.phase[row];
            if (ph == 'M') {
                readMetadata(row);
                continue;
            }
            const auto pid = intKey(e.pid[row]), tid = intKey(e.tid[row]);
            if ((ph == 's' || ph == 'f') && pid && tid &&
                kineto::categoryOf(e.catOf(row)) == kineto::Category::ForwardBackwardFlow &&
                e.kinds[row].flowId == FlowIdStatus::Ok) {
                FlowEnds& f = flows[e.flowIds.at(row, 0)];
                (ph == 's' ? f.forward : f.backward) = std::tuple{*pid, *tid, e.tsNs(row)};
            }
            if (ph != 'X' || !pid || !tid) continue;
            const int64_t start = base + e.tsNs(row), end = start + e.durNs(row);
            const std::string_view cat = e.catOf(row);
            const kineto::Category kind = kineto::categoryOf(cat);
            if (kind == kineto::Category::CpuOp || kind == kineto::Category::UserAnnotation) {
                ranges.push_back({row, start, end, *pid, *tid, -1});
            } else if (kind == kineto::Category::PythonFunction) {
                frames.push_back({row, start, end, *pid, *tid, -1});
            } else if (cat == "cuda_runtime" || cat == "cuda_driver") {
                const nlohmann::json args = trace.args(row).object();
                ApiItem a{{row, start, end, *pid, *tid, -1},
                          intOf(args, "correlation").value_or(0),
                          cat == "cuda_driver",
                          false,
                          std::string(e.nameOf(row))};
                apis.push_back(std::move(a));
            } else if (kind == kineto::Category::Kernel || kind == kineto::Category::Memory ||
                       cat == "cuda_sync") {
                const nlohmann::json args = trace.args(row).object();
                GpuKind g = GpuKind::Kernel;
                if (cat == "gpu_memcpy" || cat == "Memcpy") g = GpuKind::Memcpy;
                if (cat == "gpu_memset" || cat == "Memset") g = GpuKind::Memset;
                if (cat == "cuda_sync") g = GpuKind::Sync;
                gpus.push_back({row, g, start, end, intOf(args, "device").value_or(*pid),
                                intOf(args, "context").value_or(1),
                                intOf(args, "stream").value_or(*tid),
                                intOf(args, "correlation").value_or(0)});
            }
        }
    }

    void readMetadata(uint32_t row) {
        const std::string_view name = e.nameOf(row);
        if (name != kineto::kProcessName && name != kineto::kThreadName) return;
        const auto pid = intKey(e.pid[row]), tid = intKey(e.tid[row]);
        if (!pid) return;
        const nlohmann::json args = trace.args(row).object();
        auto it = args.find("name");
        if (it == args.end() || !it->is_string()) return;
        if (name == kineto::kProcessName)
            processNames.emplace(*pid, it->get<std::string>());
        else if (tid)
            threadNames.emplace(std::pair{*pid, *tid}, it->get<std::string>());
    }
};

// The sequence number of every NVTX range: the op's own "Sequence number", else, for a forward op
// that starts a fwdbwd flow, the number of the backward op the flow ends at (emit_nvtx names a
// forward op with the number its backward node gets; a Kineto trace may only link them by flow).
std::vector<int64_t> rangeSequenceNumbers(const Reader& r) {
    std::vector<int64_t> seq(r.ranges.size(), -1);
    std::map<std::tuple<int64_t, int64_t, int64_t>, uint32_t> byStart;
    for (uint32_t i = 0; i < r.ranges.size(); ++i) {
        const CpuItem& c = r.ranges[i];
        seq[i] = r.trace.args(c.row).integer("Sequence number").value_or(-1);
        byStart.emplace(std::tuple{c.pid, c.tid, r.e.tsNs(c.row)}, i);
    }
    for (const auto& [id, f] : r.flows) {
        if (!f.forward || !f.backward) continue;
        const auto fwd = byStart.find(*f.forward), bwd = byStart.find(*f.backward);
        if (fwd != byStart.end() && bwd != byStart.end() && seq[fwd->second] < 0)
            seq[fwd->second] = seq[bwd->second];
    }
    return seq;
}

// Marks the edge cases chosen by the options on the API calls and GPU activities.
void applyLaunchOptions(std::vector<ApiItem>& apis, std::vector<GpuItem>& gpus,
                        const ConvertOptions& o, std::vector<uint32_t>& graphRunLengths) {
    std::unordered_map<int64_t, std::vector<uint32_t>> gpuByCorrelation;
    for (uint32_t i = 0; i < gpus.size(); ++i)
        if (gpus[i].kind != GpuKind::Sync) gpuByCorrelation[gpus[i].correlation].push_back(i);
    std::vector<uint32_t> launches;  // API calls with GPU activity, in time order
    for (uint32_t i = 0; i < apis.size(); ++i)
        if (gpuByCorrelation.count(apis[i].correlation)) launches.push_back(i);
    std::stable_sort(launches.begin(), launches.end(),
                     [&](uint32_t a, uint32_t b) { return apis[a].start < apis[b].start; });
    std::vector<bool> dropGpu(gpus.size(), false);
    for (size_t n = 0; n < launches.size(); ++n) {
        ApiItem& a = apis[launches[n]];
        if (o.apiWithoutKernelEvery && n % o.apiWithoutKernelEvery == o.apiWithoutKernelEvery - 1)
            for (uint32_t g : gpuByCorrelation[a.correlation]) dropGpu[g] = true;
        else if (o.kernelWithoutLaunchEvery &&
                 n % o.kernelWithoutLaunchEvery == o.kernelWithoutLaunchEvery - 1)
            a.drop = true;
    }
    if (o.graphLaunchRun > 1) {
        // Per thread, runs of consecutive kernel launches become one graph launch.
        std::map<std::pair<int64_t, int64_t>, std::vector<uint32_t>> byThread;
        for (uint32_t i : launches) {
            const ApiItem& a = apis[i];
            if (a.drop || a.name.find("LaunchKernel") == std::string::npos) continue;
            bool kernelsOnly = true;
            for (uint32_t g : gpuByCorrelation[a.correlation])
                kernelsOnly = kernelsOnly && gpus[g].kind == GpuKind::Kernel && !dropGpu[g];
            if (kernelsOnly) byThread[{a.pid, a.tid}].push_back(i);
        }
        for (auto& [thread, list] : byThread) {
            for (size_t first = 0; first + o.graphLaunchRun <= list.size();
                 first += o.graphLaunchRun) {
                ApiItem& head = apis[list[first]];
                head.name = head.driver ? "cuGraphLaunch" : "cudaGraphLaunch";
                for (uint32_t k = 0; k < o.graphLaunchRun; ++k) {
                    ApiItem& member = apis[list[first + k]];
                    for (uint32_t g : gpuByCorrelation[member.correlation]) {
                        gpus[g].graphNode = int64_t(k) + 1;
                        gpus[g].correlation = head.correlation;
                    }
                    if (k) member.drop = true;
                }
                graphRunLengths.push_back(o.graphLaunchRun);
            }
        }
    }
    std::vector<GpuItem> kept;
    for (uint32_t i = 0; i < gpus.size(); ++i)
        if (!dropGpu[i]) kept.push_back(gpus[i]);
    gpus.swap(kept);
}

}  // namespace

ConvertCounts writeExport(const Trace& trace, const std::string& outPath, const ConvertOptions& o) {
    const EventTable& e = trace.events;
    if (!e.hasNanos) throw InputError(trace.path + ": loaded without nanoseconds");
    ConvertCounts counts;
    counts.baseTimeNs = baseTime(trace).value_or(0);
    Reader r(trace, counts.baseTimeNs);
    r.read();
    std::vector<uint32_t> graphRuns;
    applyLaunchOptions(r.apis, r.gpus, o, graphRuns);

    // The session starts 1 ms before the first event, on a whole microsecond.
    int64_t first = INT64_MAX, last = INT64_MIN;
    auto span = [&](int64_t s, int64_t t) {
        first = std::min(first, s);
        last = std::max(last, t);
    };
    for (const CpuItem& i : r.ranges) span(i.start, i.end);
    for (const ApiItem& i : r.apis) span(i.start, i.end);
    for (const GpuItem& i : r.gpus) span(i.start, i.end);
    if (first == INT64_MAX) first = last = counts.baseTimeNs;
    const int64_t session = std::max<int64_t>(0, (first - 1000000) / 1000 * 1000);
    counts.sessionStartUtcNs = session;

    // Correlation ids name their launching process.
    std::unordered_map<int64_t, int64_t> pidOfCorrelation;
    std::map<int64_t, uint64_t> apiCount;
    for (const ApiItem& a : r.apis) {
        pidOfCorrelation.emplace(a.correlation, a.pid);
        ++apiCount[a.pid];
    }
    int64_t mainPid = r.apis.empty() ? (r.ranges.empty() ? 0 : r.ranges.front().pid) : 0;
    uint64_t most = 0;
    for (auto [pid, n] : apiCount)
        if (n > most) most = n, mainPid = pid;

    // Python backtraces: the python_function frames open on the calling thread at each call.
    std::vector<std::vector<uint32_t>> chains;  // rows, innermost first
    if (o.pythonBacktraces && !r.frames.empty()) {
        std::map<std::vector<uint32_t>, int64_t> chainIds;
        std::map<std::pair<int64_t, int64_t>, std::vector<const CpuItem*>> framesByThread;
        for (const CpuItem& f : r.frames) framesByThread[{f.pid, f.tid}].push_back(&f);
        std::map<std::pair<int64_t, int64_t>, std::vector<ApiItem*>> apisByThread;
        for (ApiItem& a : r.apis) apisByThread[{a.pid, a.tid}].push_back(&a);
        for (auto& [thread, calls] : apisByThread) {
            auto& fs = framesByThread[thread];
            std::stable_sort(fs.begin(), fs.end(), [](const CpuItem* a, const CpuItem* b) {
                return a->start != b->start ? a->start < b->start : a->end > b->end;
            });
            std::stable_sort(calls.begin(), calls.end(), [](const ApiItem* a, const ApiItem* b) {
                return a->start < b->start;
            });
            std::vector<const CpuItem*> open;
            size_t next = 0;
            for (ApiItem* call : calls) {
                while (next < fs.size() && fs[next]->start <= call->start) {
                    while (!open.empty() && open.back()->end <= fs[next]->start) open.pop_back();
                    open.push_back(fs[next++]);
                }
                while (!open.empty() && open.back()->end < call->start) open.pop_back();
                if (open.empty()) continue;
                std::vector<uint32_t> chain;
                for (auto it = open.rbegin(); it != open.rend(); ++it)
                    if ((*it)->end >= call->start) chain.push_back((*it)->row);
                if (chain.empty()) continue;
                auto [it, added] = chainIds.try_emplace(chain, int64_t(chains.size()) + 1);
                if (added) chains.push_back(chain);
                call->callchain = it->second;
            }
        }
    }

    ExportWriter::Options wo;
    wo.version = o.version;
    wo.omitTables = o.omitTables;
    ExportWriter w(outPath, wo);

    const uint32_t copies = std::max<uint32_t>(1, o.processes);
    auto pidOf = [](int64_t pid, uint32_t k) { return pid + 1000 * int64_t(k); };
    auto tidOf = [](int64_t tid, uint32_t k) { return tid + 1000 * int64_t(k); };
    {
        // Sequence numbers travel with their ranges through the reordering.
        const std::vector<int64_t> seq = rangeSequenceNumbers(r);
        for (uint32_t i = 0; i < r.ranges.size(); ++i) r.ranges[i].sequence = seq[i];
    }
    order(r.ranges, o.shuffleRows, 1);
    order(r.apis, o.shuffleRows, 2);
    order(r.gpus, o.shuffleRows, 3);

    // NVTX: a domain for registered names, then one push/pop range per op.
    if (o.pytorchRanges && !r.ranges.empty()) {
        auto& nvtx = w.insert("NVTX_EVENTS", {"start", "end", "eventType", "text", "globalTid",
                                              "textId", "domainId"});
        for (uint32_t k = 0; k < copies; ++k) {
            if (o.registeredNames)
                nvtx.row({r.ranges.front().start - session, std::nullopt, kNvtxDomainCreate,
                          "NVTX registered", globalTid(pidOf(mainPid, k), tidOf(mainPid, k)),
                          std::nullopt, 1});
            for (const CpuItem& i : r.ranges) {
                const int64_t opId = e.keys.asInt(e.externalId[i.row]).value_or(0);
                const std::string name = nvtxRangeName(e.nameOf(i.row), i.sequence, opId);
                const int64_t gtid = globalTid(pidOf(i.pid, k), tidOf(i.tid, k));
                if (o.registeredNames)
                    nvtx.row({i.start - session, i.end - session, kNvtxPushPopRange, std::nullopt,
                              gtid, w.stringId(name), 1});
                else
                    nvtx.row({i.start - session, i.end - session, kNvtxPushPopRange,
                              std::string_view(name), gtid, std::nullopt, 0});
                ++counts.nvtxRanges;
            }
        }
    }

    // API calls.
    auto& runtime = w.insert("CUPTI_ACTIVITY_KIND_RUNTIME",
                             {"start", "end", "eventClass", "globalTid", "correlationId", "nameId",
                              "returnValue", "callchainId"});
    for (uint32_t k = 0; k < copies; ++k)
        for (const ApiItem& a : r.apis) {
            if (a.drop) continue;
            const std::string name = a.driver ? a.name : versionedRuntimeName(a.name);
            runtime.row({a.start - session, a.end - session,
                         a.driver ? kEventClassCudaDriver : kEventClassCudaRuntime,
                         globalTid(pidOf(a.pid, k), tidOf(a.tid, k)), a.correlation,
                         w.stringId(name), 0,
                         a.callchain > 0 ? std::optional<int64_t>(a.callchain) : std::nullopt});
            ++(a.driver ? counts.driverCalls : counts.runtimeCalls);
        }

    // GPU activities, on the launching process.
    auto& kernel = w.insert("CUPTI_ACTIVITY_KIND_KERNEL", {"start",
                                                           "end",
                                                           "deviceId",
                                                           "contextId",
                                                           "streamId",
                                                           "correlationId",
                                                           "globalPid",
                                                           "demangledName",
                                                           "shortName",
                                                           "mangledName",
                                                           "launchType",
                                                           "cacheConfig",
                                                           "registersPerThread",
                                                           "gridX",
                                                           "gridY",
                                                           "gridZ",
                                                           "blockX",
                                                           "blockY",
                                                           "blockZ",
                                                           "staticSharedMemory",
                                                           "dynamicSharedMemory",
                                                           "gridId",
                                                           "sharedMemoryExecuted",
                                                           "graphNodeId",
                                                           "sharedMemoryLimitConfig"});
    auto& memcpy = w.insert(
        "CUPTI_ACTIVITY_KIND_MEMCPY",
        {"start", "end", "deviceId", "contextId", "streamId", "correlationId", "globalPid", "bytes",
         "copyKind", "srcKind", "dstKind", "srcDeviceId", "dstDeviceId", "graphNodeId"});
    auto& memset = w.insert("CUPTI_ACTIVITY_KIND_MEMSET",
                            {"start", "end", "deviceId", "contextId", "streamId", "correlationId",
                             "globalPid", "value", "bytes", "graphNodeId", "memKind"});
    auto& sync = w.insert("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
                          {"start", "end", "deviceId", "contextId", "streamId", "correlationId",
                           "globalPid", "syncType", "eventId"});
    std::set<int64_t> devices;
    int64_t gridId = 0;
    for (uint32_t k = 0; k < copies; ++k)
        for (const GpuItem& g : r.gpus) {
            const nlohmann::json args = trace.args(g.row).object();
            const auto pidIt = pidOfCorrelation.find(g.correlation);
            const int64_t gpid =
                globalPid(pidOf(pidIt == pidOfCorrelation.end() ? mainPid : pidIt->second, k));
            const int64_t device = g.device + k;
            devices.insert(device);
            const std::string_view name = e.nameOf(g.row);
            const std::optional<int64_t> node =
                g.graphNode > 0 ? std::optional<int64_t>(g.graphNode) : std::nullopt;
            const int64_t start = g.start - session, end = g.end - session;
            if (g.kind == GpuKind::Kernel) {
                const int64_t shared = intOf(args, "shared memory").value_or(0);
                const std::string shortName = kernelShortName(name);
                const bool cName = name.find('(') == std::string_view::npos;
                kernel.row({start,
                            end,
                            device,
                            g.context,
                            g.stream,
                            g.correlation,
                            gpid,
                            w.stringId(name),
                            w.stringId(shortName),
                            cName ? std::optional<int64_t>(w.stringId(name)) : std::nullopt,
                            1,
                            0,
                            intOf(args, "registers per thread").value_or(0),
                            dim(args, "grid", 0),
                            dim(args, "grid", 1),
                            dim(args, "grid", 2),
                            dim(args, "block", 0),
                            dim(args, "block", 1),
                            dim(args, "block", 2),
                            0,
                            shared,
                            ++gridId,
                            shared,
                            node,
                            0});
                ++counts.kernels;
            } else if (g.kind == GpuKind::Memcpy) {
                const auto [src, dst] = memcpyEndpoints(name);
                memcpy.row({start, end, device, g.context, g.stream, g.correlation, gpid,
                            intOf(args, "bytes").value_or(0), memcpyKind(name), src, dst, device,
                            device, node});
                ++counts.memcpys;
            } else if (g.kind == GpuKind::Memset) {
                memset.row({start, end, device, g.context, g.stream, g.correlation, gpid, 0,
                            intOf(args, "bytes").value_or(0), node, memsetKind(name)});
                ++counts.memsets;
            } else {
                sync.row({start, end, device, g.context, g.stream, g.correlation, gpid,
                          syncType(name), 0});
                ++counts.syncs;
            }
        }

    // Graph nodes, created just before the session's first event, per copy.
    if (!graphRuns.empty()) {
        auto& graph = w.insert("CUDA_GRAPH_EVENTS", {"start", "end", "eventClass", "globalTid",
                                                     "nameId", "graphNodeId"});
        for (uint32_t k = 0; k < copies; ++k)
            for (uint32_t n = 1; n <= o.graphLaunchRun; ++n) {
                graph.row({int64_t(n), int64_t(n), kEventClassGraphNodeCreation,
                           globalTid(pidOf(mainPid, k), tidOf(mainPid, k)),
                           w.stringId("cudaGraphAddKernelNode_v10000"), int64_t(n)});
                ++counts.graphNodes;
            }
    }

    // Backtraces, innermost frame at depth 0 (see ConvertOptions::pythonBacktraces).
    if (!chains.empty()) {
        auto& callchains = w.insert("CUDA_CALLCHAINS", {"id", "symbol", "module", "unresolved",
                                                        "originalIP", "stackDepth"});
        for (size_t id = 0; id < chains.size(); ++id)
            for (size_t depth = 0; depth < chains[id].size(); ++depth) {
                const std::optional<PythonFrame> f = parsePythonFrame(e.nameOf(chains[id][depth]));
                const std::string function =
                    f ? f->function : std::string(e.nameOf(chains[id][depth]));
                callchains.row({int64_t(id) + 1, w.stringId(function),
                                w.stringId(f ? f->file : std::string()), std::nullopt,
                                f ? std::optional<int64_t>(f->line) : std::nullopt,
                                int64_t(depth)});
                ++counts.callchainFrames;
            }
    }

    // Processes, threads, devices, the session and the export's own record.
    std::set<std::pair<int64_t, int64_t>> threads;
    std::set<int64_t> pids;
    for (const CpuItem& i : r.ranges) threads.insert({i.pid, i.tid});
    for (const ApiItem& a : r.apis) threads.insert({a.pid, a.tid});
    for (auto [pid, tid] : threads) pids.insert(pid);
    auto& processes = w.insert("PROCESSES", {"globalPid", "pid", "name"});
    auto& threadNames = w.insert("ThreadNames", {"nameId", "priority", "globalTid"});
    for (uint32_t k = 0; k < copies; ++k) {
        for (int64_t pid : pids) {
            const auto it = r.processNames.find(pid);
            const std::string name = it == r.processNames.end() ? "python3" : it->second;
            processes.row({globalPid(pidOf(pid, k)), pidOf(pid, k), std::string_view(name)});
            ++counts.processes;
        }
        for (auto [pid, tid] : threads) {
            const auto it = r.threadNames.find({pid, tid});
            const std::string name =
                it == r.threadNames.end() ? "python3" : threadNameOf(it->second);
            threadNames.row({w.stringId(name), 20, globalTid(pidOf(pid, k), tidOf(tid, k))});
            ++counts.threads;
        }
    }
    const nlohmann::json props = deviceProperties(trace);
    auto& gpu = w.insert(
        "TARGET_INFO_GPU",
        {"vmId", "id", "name", "totalMemory", "smCount", "cuDevice", "maxRegistersPerBlock",
         "maxShmemPerBlock", "maxShmemPerBlockOptin", "maxShmemPerSm", "maxRegistersPerSm",
         "threadsPerWarp", "maxThreadsPerBlock", "computeMajor", "computeMinor"});
    for (int64_t device : devices) {
        // The device's own properties, else the first device's (copies of the run add devices).
        nlohmann::json p = nlohmann::json::object();
        for (const auto& d : props)
            if (d.is_object() && p.empty()) p = d;
        for (const auto& d : props)
            if (d.is_object() && d.value("id", int64_t(-1)) == device) p = d;
        const std::string name = p.value("name", std::string("NVIDIA GPU"));
        gpu.row({kLocalVm, device, std::string_view(name), intOf(p, "totalGlobalMem"),
                 intOf(p, "numSms"), device, intOf(p, "regsPerBlock"),
                 intOf(p, "sharedMemPerBlock"), intOf(p, "sharedMemPerBlockOptin"),
                 intOf(p, "sharedMemPerMultiprocessor"), intOf(p, "regsPerMultiprocessor"),
                 intOf(p, "warpSize"), intOf(p, "maxThreadsPerBlock"), intOf(p, "computeMajor"),
                 intOf(p, "computeMinor")});
        ++counts.devices;
    }
    const std::string utc = utcText(session);
    w.insert("TARGET_INFO_SESSION_START_TIME", {"utcEpochNs", "utcTime", "localTime"})
        .row({session, std::string_view(utc), std::string_view(utc)});
    w.insert("ANALYSIS_DETAILS", {"globalVid", "duration", "startTime", "stopTime"})
        .row({kLocalVm, last - session, 0, last - session});
    auto& meta = w.insert(std::string(metaDataTable(o.version)), {"name", "value"});
    const std::string schema(schemaVersionText(o.version));
    meta.row({"EXPORT_PRODUCT_NAME", "NVIDIA Nsight Systems"});
    meta.row({"EXPORT_PRODUCT_VERSION", productVersionText(o.version)});
    meta.row({"EXPORT_SCHEMA_VERSION", std::string_view(schema)});
    meta.row({"EXPORT_SCHEMA_VERSION_MAJOR", std::string_view(schema).substr(0, 1)});
    meta.row({"EXPORT_SCHEMA_VERSION_MINOR", std::string_view(schema).substr(2, 1)});
    meta.row({"EXPORT_SCHEMA_VERSION_MICRO", std::string_view(schema).substr(4, 1)});
    meta.row({"EXPORT_INPUT_FILE", "generated from a Kineto trace by Stackline's tests"});
    counts.strings = w.stringCount();
    w.finish();
    return counts;
}

}  // namespace stackline::nsys
