#include "analysis/range_summary.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "model/event_categories.h"
#include "model/kineto.h"

namespace stackline {

namespace {

using Interval = std::pair<int64_t, int64_t>;  // [begin, end) ns

// Sorted, disjoint intervals covering the same time as the given ones.
std::vector<Interval> unite(std::vector<Interval> v) {
    std::sort(v.begin(), v.end());
    std::vector<Interval> out;
    for (const Interval& i : v) {
        if (i.second <= i.first) continue;
        if (!out.empty() && i.first <= out.back().second)
            out.back().second = std::max(out.back().second, i.second);
        else
            out.push_back(i);
    }
    return out;
}

int64_t length(const std::vector<Interval>& v) {
    int64_t n = 0;
    for (const Interval& i : v) n += i.second - i.first;
    return n;
}

// Time covered by both sets of disjoint sorted intervals.
int64_t intersection(const std::vector<Interval>& a, const std::vector<Interval>& b) {
    int64_t n = 0;
    for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
        n += std::max<int64_t>(
            0, std::min(a[i].second, b[j].second) - std::max(a[i].first, b[j].first));
        if (a[i].second < b[j].second)
            ++i;
        else
            ++j;
    }
    return n;
}

struct Slice {
    int64_t start, end;
    uint32_t row;
};

// Adds one track's slices to totals, keyed by (process, name).
void addTrackSlices(const EventTable& events, const Track& track, const TimeRange& range,
                    std::map<std::pair<uint32_t, std::string_view>, SliceTotals>& totals) {
    std::vector<Slice> slices;
    for (const TrackLevel& l : track.levels) {
        for (size_t i = l.firstEndingAtOrAfter(range.start); i < l.size() && l.start[i] < range.end;
             ++i)
            if (range.overlaps(l.start[i], l.end[i] - l.start[i]))
                slices.push_back({l.start[i], l.end[i], l.row[i]});
    }
    // Parents before their children: by start, longest first; equal spans in trace order.
    std::sort(slices.begin(), slices.end(), [](const Slice& a, const Slice& b) {
        return std::tie(a.start, b.end, a.row) < std::tie(b.start, a.end, b.row);
    });
    std::vector<int64_t> childNs(slices.size(), 0);
    std::vector<size_t> open;  // slices that may still enclose later ones, by start
    for (size_t i = 0; i < slices.size(); ++i) {
        const Slice& s = slices[i];
        while (!open.empty() && slices[open.back()].end < s.start) open.pop_back();
        // The innermost open slice enclosing s is its parent; slices overlapping without nesting
        // (concurrent kernels on one stream) are not.
        for (size_t k = open.size(); k-- > 0;) {
            const Slice& p = slices[open[k]];
            if (p.start <= s.start && s.end <= p.end) {
                childNs[open[k]] += range.clip(s.start, s.end - s.start);
                break;
            }
        }
        open.push_back(i);
    }
    for (size_t i = 0; i < slices.size(); ++i) {
        const Slice& s = slices[i];
        SliceTotals& t = totals[{track.process, events.nameOf(s.row)}];
        const int64_t wall = range.clip(s.start, s.end - s.start);
        ++t.count;
        t.wallNs += wall;
        t.selfNs += std::max<int64_t>(0, wall - childNs[i]);
    }
}

}  // namespace

RangeSummary summarizeRange(const Trace& trace, const Provenance& provenance,
                            const TrackIndex& tracks, TimeRange range,
                            const std::vector<uint32_t>& trackSet) {
    RangeSummary out;
    out.range = range;
    const EventTable& events = trace.events;
    std::vector<uint32_t> chosen = trackSet;
    if (chosen.empty())
        for (uint32_t t = 0; t < tracks.tracks().size(); ++t) chosen.push_back(t);
    std::sort(chosen.begin(), chosen.end());

    std::map<std::pair<uint32_t, std::string_view>, SliceTotals> totals;
    for (uint32_t t : chosen) addTrackSlices(events, tracks.tracks()[t], range, totals);
    for (auto& [key, t] : totals) {
        t.name = std::string(key.second);
        t.process = key.first;
        out.slices.push_back(std::move(t));
    }
    std::stable_sort(
        out.slices.begin(), out.slices.end(),
        [](const SliceTotals& a, const SliceTotals& b) { return a.wallNs > b.wallNs; });

    // GPU activity of every stream, clipped: busy, compute and communication intervals.
    struct StreamTime {
        std::vector<Interval> busy, compute, comm;
    };
    std::vector<StreamTime> time(tracks.tracks().size());
    std::vector<bool> stream(tracks.tracks().size(), false);
    std::vector<std::vector<Interval>> commOfProcess(tracks.processes().size());
    for (uint32_t t = 0; t < tracks.tracks().size(); ++t) {
        const Track& track = tracks.tracks()[t];
        if (!track.gpu) continue;
        for (const TrackLevel& l : track.levels) {
            for (uint32_t row : l.row)
                if (kineto::isGpuActivity(kineto::categoryOf(events.catOf(row))) &&
                    kineto::categoryOf(events.catOf(row)) != kineto::Category::GpuAnnotation)
                    stream[t] = true;
            for (size_t i = l.firstEndingAtOrAfter(range.start);
                 i < l.size() && l.start[i] < range.end; ++i) {
                const kineto::Category c = kineto::categoryOf(events.catOf(l.row[i]));
                if (c != kineto::Category::Kernel && c != kineto::Category::Memory) continue;
                const Interval clipped{std::max(l.start[i], range.start),
                                       std::min(l.end[i], range.end)};
                if (clipped.second <= clipped.first) continue;
                time[t].busy.push_back(clipped);
                if (c != kineto::Category::Kernel) continue;
                if (kineto::isCommunicationKernel(events.nameOf(l.row[i])))
                    commOfProcess[track.process].push_back(clipped);
                else
                    time[t].compute.push_back(clipped);
            }
        }
    }
    for (auto& c : commOfProcess) c = unite(std::move(c));
    for (uint32_t t : chosen) {
        const Track& track = tracks.tracks()[t];
        if (!stream[t]) continue;
        StreamTotals s;
        s.track = t;
        s.busyNs = length(unite(time[t].busy));
        s.idleNs = range.length() - s.busyNs;
        s.commOverlapNs = intersection(unite(time[t].compute), commOfProcess[track.process]);
        out.streams.push_back(s);
    }
    out.hotspots = computeHotspots(trace, provenance, KernelStacksOptions{range, nullptr});
    return out;
}

int64_t traceOriginNs(const EventTable& events) {
    int64_t origin = INT64_MAX;
    for (uint32_t row = 0; row < events.size(); ++row) {
        const PyNum::Kind k = events.kinds[row].ts;
        if (events.phase[row] != 'M' && (k == PyNum::Kind::Int || k == PyNum::Kind::Float))
            origin = std::min(origin, events.tsNs(row));
    }
    return origin == INT64_MAX ? 0 : origin;
}

OrderedJson rangeSummaryJson(const RangeSummary& s, const TrackIndex& tracks, int64_t origin,
                             std::size_t topLines) {
    OrderedJson j;
    j["origin_ns"] = origin;
    j["range"] = {{"start_ns", s.range.start - origin},
                  {"end_ns", s.range.end - origin},
                  {"length_ns", s.range.length()}};
    OrderedJson slices = OrderedJson::array();
    for (const SliceTotals& t : s.slices)
        slices.push_back({{"name", t.name},
                          {"pid", tracks.processes()[t.process].pid.label()},
                          {"count", t.count},
                          {"wall_ns", t.wallNs},
                          {"average_ns", t.averageNs()},
                          {"self_ns", t.selfNs},
                          {"share", double(t.wallNs) / double(s.range.length())}});
    j["slices"] = std::move(slices);
    OrderedJson streams = OrderedJson::array();
    for (const StreamTotals& st : s.streams) {
        const Track& track = tracks.tracks()[st.track];
        streams.push_back({{"pid", tracks.processes()[track.process].pid.label()},
                           {"tid", track.tid.label()},
                           {"name", track.name},
                           {"busy_ns", st.busyNs},
                           {"idle_ns", st.idleNs},
                           {"comm_overlap_ns", st.commOverlapNs}});
    }
    j["streams"] = std::move(streams);
    auto ns = [](double us) { return int64_t(std::llround(us * 1000)); };
    OrderedJson lines = OrderedJson::array();
    for (size_t i = 0; i < s.hotspots.lines.size() && i < topLines; ++i) {
        const SourceLine& l = s.hotspots.lines[i];
        lines.push_back({{"file", l.file},
                         {"line", l.line},
                         {"function", l.function},
                         {"self_ns", ns(l.selfUs)},
                         {"total_ns", ns(l.totalUs)},
                         {"launches", l.launches}});
    }
    j["gpu_by_python_line"] = {{"annotated_ns", ns(s.hotspots.annotatedGpuUs)},
                               {"unresolved_ns", ns(s.hotspots.unresolvedGpuUs)},
                               {"lines", std::move(lines)}};
    return j;
}

}  // namespace stackline
