#include "analysis/hotspot_totals.h"

#include <algorithm>
#include <tuple>

#include "io/trace_bytes.h"

namespace stackline {
namespace {

void sortLines(std::vector<LineTotals>& lines) {
    std::sort(lines.begin(), lines.end(), [](const LineTotals& a, const LineTotals& b) {
        if (a.selfNs != b.selfNs) return a.selfNs > b.selfNs;
        if (a.totalNs != b.totalNs) return a.totalNs > b.totalNs;
        return std::tie(a.file, a.line) < std::tie(b.file, b.line);
    });
}

const OrderedJson& member(const OrderedJson& j, const char* name) {
    auto it = j.find(name);
    if (it == j.end()) throw InputError(std::string("no \"") + name + "\"");
    return *it;
}

std::string text(const OrderedJson& j, const char* name) {
    const OrderedJson& v = member(j, name);
    if (!v.is_string()) throw InputError(std::string("\"") + name + "\" is not a string");
    return v.get<std::string>();
}

// A count or a time in nanoseconds: a non-negative integer.
uint64_t count(const OrderedJson& j, const char* name) {
    const OrderedJson& v = member(j, name);
    if (!v.is_number_integer() || (v.is_number_unsigned() && v.get<uint64_t>() > INT64_MAX) ||
        (!v.is_number_unsigned() && v.get<int64_t>() < 0))
        throw InputError(std::string("\"") + name +
                         "\" is not a whole number of nanoseconds or "
                         "launches (made by an older stackline-cli?)");
    return v.get<uint64_t>();
}

}  // namespace

HotspotTotals hotspotTotalsOf(const Hotspots& h) {
    HotspotTotals t;
    t.annotatedGpuNs = h.annotatedGpuNs;
    t.unresolvedGpuNs = h.unresolvedGpuNs;
    t.byNameGpuNs = h.byNameGpuNs;
    for (const SourceLine& l : h.lines)
        t.lines.push_back({l.file, l.line, l.function, l.code, l.selfNs, l.totalNs, l.launches,
                           l.byNameLaunches,
                           std::set<std::string>(l.kernels.begin(), l.kernels.end())});
    return t;
}

void HotspotSum::add(const HotspotTotals& t) {
    annotatedGpuNs_ += t.annotatedGpuNs;
    unresolvedGpuNs_ += t.unresolvedGpuNs;
    byNameGpuNs_ += t.byNameGpuNs;
    for (const LineTotals& l : t.lines) {
        LineTotals& sum = lines_[{l.file, l.line}];
        if (sum.file.empty()) {
            sum.file = l.file;
            sum.line = l.line;
        }
        if (sum.function.empty()) sum.function = l.function;
        if (sum.code.empty()) sum.code = l.code;
        sum.selfNs += l.selfNs;
        sum.totalNs += l.totalNs;
        sum.launches += l.launches;
        sum.byNameLaunches += l.byNameLaunches;
        sum.kernels.insert(l.kernels.begin(), l.kernels.end());
    }
}

HotspotTotals HotspotSum::result() const {
    HotspotTotals t;
    t.annotatedGpuNs = annotatedGpuNs_;
    t.unresolvedGpuNs = unresolvedGpuNs_;
    t.byNameGpuNs = byNameGpuNs_;
    for (const auto& [key, line] : lines_) t.lines.push_back(line);
    sortLines(t.lines);
    return t;
}

OrderedJson hotspotTotalsJson(const HotspotTotals& t) {
    auto us = [](int64_t ns) { return double(ns) / 1000.0; };
    OrderedJson lines = OrderedJson::array();
    for (const LineTotals& l : t.lines) {
        OrderedJson line = {{"file", l.file},           {"line", l.line},
                            {"function", l.function},   {"code", l.code},
                            {"self_us", us(l.selfNs)},  {"total_us", us(l.totalNs)},
                            {"launches", l.launches},   {"kernels", l.kernels.size()},
                            {"self_ns", l.selfNs},      {"total_ns", l.totalNs},
                            {"kernel_names", l.kernels}};
        if (l.byNameLaunches) line["matched_by_name_launches"] = l.byNameLaunches;
        lines.push_back(std::move(line));
    }
    OrderedJson j = {{"lines", std::move(lines)},
                     {"annotated_gpu_us", us(t.annotatedGpuNs)},
                     {"unresolved_gpu_us", us(t.unresolvedGpuNs)},
                     {"annotated_gpu_ns", t.annotatedGpuNs},
                     {"unresolved_gpu_ns", t.unresolvedGpuNs}};
    if (t.byNameGpuNs) j["matched_by_name_gpu_ns"] = t.byNameGpuNs;
    return j;
}

HotspotTotals hotspotTotalsFromJson(const OrderedJson& j) {
    if (!j.is_object()) throw InputError("not a JSON object");
    HotspotTotals t;
    t.annotatedGpuNs = int64_t(count(j, "annotated_gpu_ns"));
    t.unresolvedGpuNs = int64_t(count(j, "unresolved_gpu_ns"));
    if (j.contains("matched_by_name_gpu_ns"))
        t.byNameGpuNs = int64_t(count(j, "matched_by_name_gpu_ns"));
    const OrderedJson& lines = member(j, "lines");
    if (!lines.is_array()) throw InputError("\"lines\" is not an array");
    std::set<std::pair<std::string, int>> seen;
    int64_t self = 0;
    for (const OrderedJson& line : lines) {
        if (!line.is_object()) throw InputError("a line is not a JSON object");
        LineTotals l;
        l.file = text(line, "file");
        const OrderedJson& number = member(line, "line");
        if (!number.is_number_integer() || number.get<int64_t>() < INT32_MIN ||
            number.get<int64_t>() > INT32_MAX)
            throw InputError("\"line\" is not a line number");
        l.line = number.get<int>();
        const std::string where = l.file + ":" + std::to_string(l.line);
        if (!seen.insert({l.file, l.line}).second) throw InputError(where + " is listed twice");
        try {
            l.function = text(line, "function");
            l.code = text(line, "code");
            l.selfNs = int64_t(count(line, "self_ns"));
            l.totalNs = int64_t(count(line, "total_ns"));
            l.launches = count(line, "launches");
            if (line.contains("matched_by_name_launches"))
                l.byNameLaunches = count(line, "matched_by_name_launches");
            const OrderedJson& names = member(line, "kernel_names");
            if (!names.is_array()) throw InputError("\"kernel_names\" is not an array");
            for (const OrderedJson& name : names) {
                if (!name.is_string()) throw InputError("a kernel name is not a string");
                l.kernels.insert(name.get<std::string>());
            }
        } catch (const InputError& e) {
            throw InputError(where + ": " + e.what());
        }
        if (l.selfNs > l.totalNs) throw InputError(where + ": self time exceeds total time");
        if (__builtin_add_overflow(self, l.selfNs, &self))
            throw InputError("the lines' self times overflow");
        t.lines.push_back(std::move(l));
    }
    if (self != t.annotatedGpuNs)
        throw InputError("the lines' self times add up to " + std::to_string(self) +
                         " ns, not annotated_gpu_ns " + std::to_string(t.annotatedGpuNs) +
                         " (lines left out?)");
    sortLines(t.lines);
    return t;
}

HotspotTotals sumOfTraces(const std::vector<TraceHotspots>& traces) {
    HotspotSum sum;
    for (const TraceHotspots& t : traces) sum.add(t.totals);
    return sum.result();
}

OrderedJson traceHotspotsJson(const TraceHotspots& t) {
    OrderedJson j = {{"trace", t.trace}};
    j.update(hotspotTotalsJson(t.totals));
    return j;
}

OrderedJson manyHotspotsJson(const std::vector<TraceHotspots>& traces) {
    OrderedJson each = OrderedJson::array();
    for (const TraceHotspots& t : traces) each.push_back(traceHotspotsJson(t));
    OrderedJson total = {{"trace_count", traces.size()}};
    total.update(hotspotTotalsJson(sumOfTraces(traces)));
    return {{"traces", std::move(each)}, {"total", std::move(total)}};
}

namespace {

TraceHotspots traceResult(const OrderedJson& j) {
    if (!j.is_object()) throw InputError("a trace's result is not a JSON object");
    auto trace = j.find("trace");
    if (trace == j.end() || !trace->is_string())
        throw InputError("not the output of stackline-cli hotspots --json: no \"trace\"");
    try {
        return {trace->get<std::string>(), hotspotTotalsFromJson(j)};
    } catch (const InputError& e) {
        throw InputError(trace->get<std::string>() + ": " + e.what());
    }
}

}  // namespace

std::vector<TraceHotspots> hotspotsResultTraces(const OrderedJson& j) {
    if (!j.is_object() || (!j.contains("trace") && !j.contains("traces")))
        throw InputError("not the output of stackline-cli hotspots --json or steps --json");
    auto each = j.find("traces");
    if (each == j.end()) return {traceResult(j)};
    if (!each->is_array() || !j.contains("total"))
        throw InputError("not the output of stackline-cli hotspots --json");
    std::vector<TraceHotspots> traces;
    for (const OrderedJson& t : *each) traces.push_back(traceResult(t));
    if (manyHotspotsJson(traces)["total"] != j["total"])
        throw InputError("\"total\" is not the sum of its traces");
    return traces;
}

}  // namespace stackline
