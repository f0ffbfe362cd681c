#include "kernel_info/kernel_code.h"

#include <algorithm>

#include "model/event_args.h"
#include "model/kineto.h"

namespace stackline {

namespace {

// "triton_poi_fused_mul_1:2" -> "triton_poi_fused_mul_1": the provenance processor matches a
// registry key "name:handle" to the kernel "name"; the handle is digits after the last ':'.
std::string_view withoutHandle(std::string_view name) {
    std::size_t colon = name.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == name.size()) return name;
    for (std::size_t i = colon + 1; i < name.size(); ++i)
        if (name[i] < '0' || name[i] > '9') return name;
    return name.substr(0, colon);
}

}  // namespace

KernelCodeIndex::KernelCodeIndex(std::vector<KernelCode> kernels,
                                 std::vector<std::pair<std::string, std::string>> modules)
    : kernels_(std::move(kernels)), modules_(std::move(modules)) {}

std::vector<const KernelCode*> KernelCodeIndex::named(std::string_view name) const {
    std::vector<const KernelCode*> out;
    for (std::string_view n : {name, withoutHandle(name)}) {
        for (const KernelCode& k : kernels_)
            if (k.name == n) out.push_back(&k);
        if (!out.empty()) break;
    }
    return out;
}

const KernelCode* KernelCodeIndex::find(std::string_view graphKey, std::string_view name) const {
    std::vector<const KernelCode*> all = named(name);
    if (graphKey.empty()) return all.size() == 1 ? all.front() : nullptr;
    auto it = std::find_if(all.begin(), all.end(),
                           [&](const KernelCode* k) { return k->graphKey == graphKey; });
    return it == all.end() ? nullptr : *it;
}

const KernelCode* KernelCodeIndex::findByKernelFile(std::string_view fileOrHash) const {
    if (fileOrHash.empty()) return nullptr;
    for (const KernelCode& k : kernels_) {
        if (k.kernelPath.empty()) continue;
        std::string_view path = k.kernelPath;
        if (path == fileOrHash) return &k;
        std::size_t slash = path.rfind('/');
        std::string_view stem = path.substr(slash == std::string_view::npos ? 0 : slash + 1);
        if (stem.ends_with(".py")) stem.remove_suffix(3);
        if (stem == fileOrHash) return &k;
    }
    return nullptr;
}

std::string_view KernelCodeIndex::moduleOf(const KernelCode& k) const {
    return k.module >= 0 && std::size_t(k.module) < modules_.size()
               ? std::string_view(modules_[std::size_t(k.module)].second)
               : std::string_view();
}

uint32_t runtimeLaunchOf(const Trace& trace, const FlowIndex& flows, uint32_t kernelRow) {
    if (uint32_t from = flows.sourceOf(kernelRow); from != kNoRow) return from;
    std::optional<int64_t> corr = trace.args(kernelRow).integer(kineto::kCorrelationArg);
    if (!corr) return kNoRow;
    const EventTable& ev = trace.events;
    // The launch shares the kernel's External id when it has one: a cheap filter before the args.
    const KeyId external = ev.externalId.empty() ? kNoKey : ev.externalId[kernelRow];
    for (uint32_t r = 0; r < ev.size(); ++r)
        if (r != kernelRow && ev.phase[r] == 'X' &&
            (external == kNoKey || ev.externalId[r] == external) &&
            kineto::categoryOf(ev.catOf(r)) == kineto::Category::Runtime &&
            trace.args(r).integer(kineto::kCorrelationArg) == corr)
            return r;
    return kNoRow;
}

namespace {

std::optional<double> numberIn(const nlohmann::json& args, std::string_view key) {
    auto it = args.find(key);
    if (it == args.end() || !it->is_number()) return std::nullopt;
    return it->get<double>();
}
std::optional<int64_t> integerIn(const nlohmann::json& args, std::string_view key) {
    auto it = args.find(key);
    if (it == args.end() || !it->is_number_integer()) return std::nullopt;
    return it->get<int64_t>();
}
std::string stringIn(const nlohmann::json& args, std::string_view key) {
    auto it = args.find(key);
    return it != args.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

TritonLaunch tritonLaunchOf(const Trace& trace, const TrackIndex& tracks, const FlowIndex& flows,
                            uint32_t kernelRow) {
    TritonLaunch out;
    const nlohmann::json k = trace.args(kernelRow).object();
    if (k.is_object()) {
        out.registersPerThread = integerIn(k, kineto::kRegistersPerThreadArg);
        out.sharedMemory = integerIn(k, kineto::kSharedMemoryArg);
        out.blocksPerSm = numberIn(k, kineto::kBlocksPerSmArg);
        out.warpsPerSm = numberIn(k, kineto::kWarpsPerSmArg);
        out.occupancy = numberIn(k, kineto::kOccupancyArg);
    }
    uint32_t launch = runtimeLaunchOf(trace, flows, kernelRow);
    if (launch == kNoRow) return out;
    // The innermost enclosing slice whose args name the config is the launcher.
    for (uint32_t r : tracks.enclosing(launch)) {
        const nlohmann::json a = trace.args(r).object();
        if (!a.is_object() ||
            !(a.contains(kineto::kKernelKwargsArg) || a.contains(kineto::kKernelHashArg)))
            continue;
        out.kernelKwargs = stringIn(a, kineto::kKernelKwargsArg);
        out.numWarps = integerIn(a, kineto::kNumWarpsArg);
        out.numStages = integerIn(a, kineto::kNumStagesArg);
        out.kernelFile = stringIn(a, kineto::kKernelFileArg);
        out.kernelHash = stringIn(a, kineto::kKernelHashArg);
        break;
    }
    return out;
}

std::optional<ExternCallOrder> externCallOrderOf(const Trace& trace, const TrackIndex& tracks,
                                                 const FlowIndex& flows, uint32_t kernelRow,
                                                 std::string_view externName) {
    const EventTable& ev = trace.events;
    uint32_t launch = runtimeLaunchOf(trace, flows, kernelRow);
    if (launch == kNoRow || !ev.hasNanos) return std::nullopt;
    uint32_t region = compiledRegionOf(ev, tracks, launch);
    if (region == kNoRow) return std::nullopt;
    const std::vector<uint32_t> around = tracks.enclosing(launch);
    std::string aten = "aten::";
    if (std::size_t dot = externName.rfind('.'); dot != std::string_view::npos)
        aten += externName.substr(dot + 1);
    uint32_t launcher = kNoRow;
    for (std::string_view name : {externName, std::string_view(aten)}) {
        for (uint32_t r : around)
            if (ev.nameOf(r) == name) {
                launcher = r;
                break;
            }
        if (launcher != kNoRow) break;
    }
    if (launcher == kNoRow) return std::nullopt;
    const std::string_view name = ev.nameOf(launcher);
    const int64_t begin = ev.tsNs(region), end = ev.tsNs(region) + ev.durNs(region);
    ExternCallOrder order;
    for (uint32_t r = 0; r < ev.size(); ++r) {
        if (ev.phase[r] != 'X' || ev.pid[r] != ev.pid[launcher] || ev.tid[r] != ev.tid[launcher] ||
            ev.tsNs(r) < begin || ev.tsNs(r) >= end || ev.nameOf(r) != name)
            continue;
        if (ev.tsNs(r) < ev.tsNs(launcher) || (ev.tsNs(r) == ev.tsNs(launcher) && r < launcher))
            ++order.index;
        ++order.count;
    }
    return order;
}

const CodeLine* externCallSite(const KernelCode& record, const ExternCallOrder& order) {
    if (record.launchSites.size() != order.count || order.index >= order.count) return nullptr;
    return &record.launchSites[order.index];
}

}  // namespace stackline
