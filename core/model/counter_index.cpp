#include "model/counter_index.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>

#include "model/event_args.h"

namespace stackline {

namespace {

constexpr std::string_view kMemoryEvent = "[memory]";

std::string deviceLabel(int64_t type, int64_t id) {
    // Kineto's DeviceType: 0 CPU, 1 CUDA (ROCm reports as CUDA too).
    if (type == 0) return "CPU";
    return (type == 1 ? "GPU " : "device " + std::to_string(type) + ":") + std::to_string(id);
}

// delta: the points are changes (an old Kineto's Bytes without totals), summed in time order.
void finish(CounterSeries& s, bool delta) {
    std::vector<size_t> order(s.ts.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return s.ts[a] < s.ts[b]; });
    std::vector<int64_t> ts;
    std::vector<double> value;
    ts.reserve(order.size());
    value.reserve(order.size());
    for (size_t i : order) {
        ts.push_back(s.ts[i]);
        value.push_back(s.value[i]);
    }
    if (delta) std::partial_sum(value.begin(), value.end(), value.begin());
    s.ts = std::move(ts);
    s.value = std::move(value);
    auto [lo, hi] = std::minmax_element(s.value.begin(), s.value.end());
    s.min = *lo;
    s.max = *hi;
}

}  // namespace

size_t CounterSeries::firstAtOrAfter(int64_t t) const {
    return size_t(std::lower_bound(ts.begin(), ts.end(), t) - ts.begin());
}

std::optional<double> CounterSeries::valueAt(int64_t t) const {
    const size_t after = size_t(std::upper_bound(ts.begin(), ts.end(), t) - ts.begin());
    if (after == 0) return std::nullopt;
    return value[after - 1];
}

CounterIndex CounterIndex::build(const Trace& trace, const TrackIndex& tracks) {
    const EventTable& ev = trace.events;
    std::map<DisplayKey, uint32_t> processByPid;
    for (uint32_t i = 0; i < tracks.processes().size(); ++i)
        processByPid.emplace(tracks.processes()[i].pid, i);

    CounterIndex ix;
    // (pid, name, key) for C events; (pid, "[memory]", device and which total) for memory.
    std::map<std::tuple<DisplayKey, std::string, std::string>, uint32_t> byKey;
    std::vector<bool> delta;  // by series: its points are Bytes changes
    auto seriesFor = [&](const DisplayKey& pid, std::string name, std::string key,
                         std::string label, bool memory, bool changes = false) -> CounterSeries& {
        auto [it, inserted] =
            byKey.try_emplace({pid, std::move(name), std::move(key)}, uint32_t(ix.series_.size()));
        if (inserted) {
            CounterSeries s;
            s.name = std::move(label);
            s.memory = memory;
            if (auto p = processByPid.find(pid); p != processByPid.end()) s.process = p->second;
            ix.series_.push_back(std::move(s));
            delta.push_back(changes);
        }
        return ix.series_[it->second];
    };

    for (uint32_t row = 0, n = ev.size(); row < n; ++row) {
        const char ph = ev.phase[row];
        const bool counter = ph == 'C';
        if (!counter && !((ph == 'i' || ph == 'I') && ev.nameOf(row) == kMemoryEvent)) continue;
        const PyNum::Kind tk = ev.kinds[row].ts;
        if (tk != PyNum::Kind::Int && tk != PyNum::Kind::Float) continue;
        const nlohmann::ordered_json object = trace.args(row).object();
        if (!object.is_object()) continue;
        const nlohmann::json args = object;  // members by name: series are made in that order
        const DisplayKey pid = displayKey(ev.keys, ev.pid[row]);
        const int64_t ts = ev.tsNs(row);
        if (counter) {
            const std::string name(ev.nameOf(row));
            for (const auto& [key, v] : args.items()) {
                if (!v.is_number()) continue;
                CounterSeries& s = seriesFor(pid, name, key, name + " " + key, false);
                s.ts.push_back(ts);
                s.value.push_back(v.get<double>());
            }
            continue;
        }
        const auto type = args.find("Device Type"), id = args.find("Device Id");
        if (type == args.end() || id == args.end() || !type->is_number_integer() ||
            !id->is_number_integer())
            continue;
        const std::string device = deviceLabel(type->get<int64_t>(), id->get<int64_t>());
        if (args.find("Total Allocated") == args.end()) {
            // Kineto before 2022 wrote only the change: allocated is then counted from zero at
            // the trace's first event, as TensorBoard's memory view did.
            const auto bytes = args.find("Bytes");
            if (bytes == args.end() || !bytes->is_number()) continue;
            CounterSeries& s = seriesFor(pid, std::string(kMemoryEvent), device + "Bytes",
                                         device + " memory allocated (net)", true, true);
            s.ts.push_back(ts);
            s.value.push_back(bytes->get<double>());
            continue;
        }
        for (std::string_view total : {"Total Allocated", "Total Reserved"}) {
            const auto v = args.find(total);
            if (v == args.end() || !v->is_number()) continue;
            const bool allocated = total == "Total Allocated";
            CounterSeries& s =
                seriesFor(pid, std::string(kMemoryEvent), device + std::string(total),
                          device + (allocated ? " memory allocated" : " memory reserved"), true);
            s.ts.push_back(ts);
            s.value.push_back(v->get<double>());
        }
    }
    for (uint32_t i = 0; i < ix.series_.size(); ++i) finish(ix.series_[i], delta[i]);
    // Grouped by process (stable: first appearance within one).
    std::stable_sort(
        ix.series_.begin(), ix.series_.end(),
        [](const CounterSeries& a, const CounterSeries& b) { return a.process < b.process; });
    return ix;
}

std::vector<uint32_t> CounterIndex::ofProcess(uint32_t process) const {
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < series_.size(); ++i)
        if (series_[i].process == process) out.push_back(i);
    return out;
}

}  // namespace stackline
