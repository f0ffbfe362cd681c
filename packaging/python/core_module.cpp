// stackline._core: the Python module's native half. It runs the core's load pipeline and hands its
// results to Python as stackline-cli's JSON texts (parsed by the Python half) and as flat numpy
// columns (one array per column, strings as categorical codes plus their distinct values), so
// that the figures are the CLI's and no Python object is made per event.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/flame_graph.h"
#include "analysis/hotspot_totals.h"
#include "analysis/hotspots.h"
#include "analysis/kernel_stacks.h"
#include "analysis/range_option.h"
#include "analysis/range_summary.h"
#include "analysis/rank_steps.h"
#include "analysis/run_diff.h"
#include "analysis/step_results.h"
#include "annotate/exporter.h"
#include "base/errors.h"
#include "io/memory_budget.h"
#include "pipeline/load_pipeline.h"

namespace py = pybind11;
using namespace stackline;

namespace {

std::string dumpJson(const OrderedJson& j) {
    return j.dump(1, ' ', false, OrderedJson::error_handler_t::replace);  // as stackline-cli
}

// A vector handed to numpy without a copy: the array owns it through a capsule.
template <typename T>
py::array_t<T> toArray(std::vector<T>&& v) {
    auto* owned = new std::vector<T>(std::move(v));
    py::capsule free(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
    return py::array_t<T>(py::ssize_t(owned->size()), owned->data(), free);
}

// A string column: per row a code into the distinct strings in order of first use (-1: none,
// which pandas reads as NaN). A string already seen costs a hash lookup, no allocation.
class CategoricalColumn {
public:
    int32_t intern(std::string_view s) {
        auto at = codeOf_.find(s);
        if (at != codeOf_.end()) return at->second;
        const auto code = int32_t(values_.size());
        codeOf_.emplace(values_.emplace_back(s), code);
        return code;
    }
    void push(std::string_view s) { codes_.push_back(intern(s)); }
    void pushCode(int32_t code) { codes_.push_back(code); }  // intern's, or -1
    void pushNone() { codes_.push_back(-1); }
    py::tuple take() {
        py::list values;
        for (const std::string& v : values_) {
            PyObject* text = PyUnicode_DecodeUTF8(v.data(), py::ssize_t(v.size()), "replace");
            if (!text) throw py::error_already_set();
            values.append(py::reinterpret_steal<py::str>(text));
        }
        return py::make_tuple(toArray(std::move(codes_)), values);
    }

private:
    std::vector<int32_t> codes_;
    std::deque<std::string> values_;  // stable: codeOf_'s keys view them
    std::unordered_map<std::string_view, int32_t> codeOf_;
};

// Progress to a Python callable progress(done, total) with the GIL taken, at most once per
// percent. An exception from it cancels the load and is raised in its place.
class PythonObserver : public LoadObserver {
public:
    explicit PythonObserver(py::object callback) : callback_(std::move(callback)) {}
    void progress(uint64_t done, uint64_t total) override {
        if (callback_.is_none() || error_) return;
        const int percent = total ? int(done * 100 / total) : 100;
        if (percent == lastPercent_.exchange(percent)) return;
        py::gil_scoped_acquire gil;
        try {
            callback_(done, total);
        } catch (py::error_already_set& e) {
            error_ = std::make_unique<py::error_already_set>(std::move(e));
            cancel = true;
        }
    }
    void rethrow() {
        if (error_) throw std::move(*error_);
    }
    ~PythonObserver() override {
        py::gil_scoped_acquire gil;  // the saved exception and the callable drop references
        error_.reset();
        callback_ = py::object();
    }

private:
    py::object callback_;
    std::atomic<int> lastPercent_{-1};
    std::unique_ptr<py::error_already_set> error_;
};

class PyTrace {
public:
    explicit PyTrace(LoadedTrace loaded) : loaded_(std::move(loaded)) {}

    const Trace& trace() const { return *loaded_.trace; }

    std::string path() const { return trace().path; }
    std::string format() const { return std::string(trace().format); }
    std::string kernelInfoPath() const { return loaded_.kernelInfo.path; }
    std::vector<std::string> kernelInfoNotes() const { return loaded_.kernelInfo.info.notes(); }

    std::string summaryJson() const { return dumpJson(stackline::summaryJson(loaded_.summary)); }

    // hotspots TRACE --json, the trace named as given to load().
    std::string hotspotsJson(const std::string& name, bool eager) const {
        const HotspotTotals totals =
            hotspotTotalsOf(computeHotspots(trace(), loaded_.provenance, stacksOptions(eager)));
        return dumpJson(traceHotspotsJson({name, totals}));
    }

    // summary --range START_US:END_US --json.
    std::string rangeSummaryJson(const std::string& range, std::size_t top) const {
        std::string error;
        const std::optional<TimeRange> relative = parseRangeOption(range, &error);
        if (!relative) throw InputError(error);
        const TrackIndex& tracks = loaded_.indexes.tracks;
        const int64_t origin = loaded_.indexes.originNs;
        const RangeSummary s =
            summarizeRange(trace(), loaded_.provenance, tracks, fromOrigin(*relative, origin));
        return dumpJson(stackline::rangeSummaryJson(s, tracks, origin, top));
    }

    // hotspots TRACE --folded.
    std::string folded(bool eager) const {
        return foldedStacks(gpuFlameGraph(trace(), loaded_.provenance, stacksOptions(eager)));
    }

    // steps TRACE --json: this trace as one rank, named as given to load().
    std::string stepsJson(const std::string& name) const {
        std::vector<RankStepSummary> ranks{summarizeRankSteps(trace(), loaded_.indexes.flows)};
        ranks.front().trace = name;
        return writeSteps(ranks);
    }

    // The job of ranks as steps writes it: the result of one steps run over all their traces.
    static std::string writeSteps(const std::vector<RankStepSummary>& ranks) {
        if (const auto m = jobMismatch(ranks))
            throw InputError(ranks[m->rank].trace + ": " + m->why);
        std::ostringstream out;
        writeStepsResult(out, ranks, mergeRankSteps(ranks));
        return out.str();
    }

    // annotate --report's JSON.
    std::string reportJson() const {
        return dumpJson(stackline::reportJson(trace(), loaded_.provenance)) + "\n";
    }

    // annotate TRACE -o OUT [--in-place]: the same bytes, the GIL released; the CLI's error
    // without kernel information.
    void annotate(const std::string& out, bool inPlace) const {
        if (loaded_.kernelInfo.path.empty()) {
            PipelineInput in;
            in.tracePath = trace().path;
            in.requireKernelInfo = true;
            LoadObserver quiet;
            readKernelInfoStage(in, trace(), quiet);  // throws the CLI's InputError
        }
        py::gil_scoped_release nogil;
        ExportOptions options;
        options.allowOverwriteInput = inPlace;
        exportTrace(trace(), loaded_.provenance, out, options);
    }

    // The run as diff loads it.
    RunInput runInput(bool eager) const {
        RunInput in{loaded_.trace.get(), &loaded_.provenance, stacksOptions(eager),
                    &loaded_.kernelInfo.info};
        return in;
    }

    py::dict kernels(bool eager, bool withStack) const;
    py::dict events(const std::optional<std::string>& category) const;

private:
    KernelStacksOptions stacksOptions(bool eager) const {
        KernelStacksOptions options;
        if (eager) options.eager = &loaded_.indexes.eager;
        return options;
    }
    // The integer a pid/tid key holds; -1 when it is not one.
    int64_t keyInt(KeyId key) const { return trace().events.keys.asInt(key).value_or(-1); }

    LoadedTrace loaded_;
};

const char* statusName(KernelStatus s) {
    switch (s) {
        case KernelStatus::Annotated:
            return "annotated";
        case KernelStatus::Unresolved:
            return "unresolved";
        case KernelStatus::Outside:
            break;
    }
    return "outside";
}

py::dict PyTrace::kernels(bool eager, bool withStack) const {
    const EventTable& ev = trace().events;
    std::vector<uint32_t> uid;
    std::vector<int64_t> ts, dur, device, stream, line;
    std::vector<uint8_t> lineMissing;
    CategoricalColumn name, status, graph, file, function, stack;
    // The kernel-information graph each written stack came from, met in row order as the kernels.
    const auto sources = loaded_.provenance.origins.sourcesByRow();
    auto source = sources.begin();
    // Looked up once per distinct name and per distinct stack, not per kernel.
    std::vector<int32_t> nameCode(ev.strings.size(), -1);
    struct Charged {
        int32_t file = -1, function = -1;
        int64_t line = 0;
    };
    std::unordered_map<uint64_t, Charged> chargedOf;
    const int32_t statusCode[] = {status.intern(statusName(KernelStatus::Outside)),
                                  status.intern(statusName(KernelStatus::Annotated)),
                                  status.intern(statusName(KernelStatus::Unresolved))};
    forEachKernelSample(
        trace(), loaded_.provenance, stacksOptions(eager), [&](const KernelSample& k) {
            uid.push_back(k.row);
            ts.push_back(ev.tsNs(k.row));
            dur.push_back(k.ns);
            device.push_back(keyInt(ev.pid[k.row]));
            stream.push_back(keyInt(ev.tid[k.row]));
            if (ev.kinds[k.row].name == ValueKind::String) {
                int32_t& code = nameCode[ev.name[k.row]];
                if (code < 0) code = name.intern(ev.nameOf(k.row));
                name.pushCode(code);
            } else {
                name.push({});
            }
            status.pushCode(statusCode[uint8_t(k.status)]);
            while (source != sources.end() && source->first < k.row) ++source;
            if (source != sources.end() && source->first == k.row)
                graph.push(source->second->graphKey);
            else
                graph.pushNone();
            Charged c;
            if (k.stacks && !k.stacks->empty() && !k.stacks->front().empty()) {
                auto [at, isNew] = chargedOf.try_emplace(k.stackKey);
                if (isNew) {
                    const SourceFrame& f = chargedFrame(k.stacks->front());
                    at->second = {file.intern(f.file), function.intern(f.function), f.line};
                }
                c = at->second;
            }
            file.pushCode(c.file);
            function.pushCode(c.function);
            line.push_back(c.line);
            lineMissing.push_back(c.line == 0);
            if (!withStack) return;
            const uint32_t id = loaded_.provenance.stackOf(k.row);
            if (id == StackPool::kNone)
                stack.pushNone();
            else
                stack.push(loaded_.provenance.stacks.json(id));
        });
    py::dict columns;
    columns["uid"] = toArray(std::move(uid));
    columns["name"] = name.take();
    columns["ts_ns"] = toArray(std::move(ts));
    columns["dur_ns"] = toArray(std::move(dur));
    columns["device"] = toArray(std::move(device));
    columns["stream"] = toArray(std::move(stream));
    columns["status"] = status.take();
    columns["graph"] = graph.take();
    columns["file"] = file.take();
    columns["line"] = py::make_tuple(toArray(std::move(line)), toArray(std::move(lineMissing)));
    columns["function"] = function.take();
    if (withStack) columns["stack"] = stack.take();
    return columns;
}

py::dict PyTrace::events(const std::optional<std::string>& category) const {
    const EventTable& ev = trace().events;
    std::vector<uint32_t> uid;
    std::vector<int64_t> ts, dur, pid, tid;
    CategoricalColumn name, cat, phase;
    for (uint32_t row = 0; row < ev.size(); ++row) {
        if (category && ev.catOf(row) != *category) continue;
        uid.push_back(row);
        ts.push_back(ev.tsNs(row));
        dur.push_back(ev.durNs(row));
        pid.push_back(keyInt(ev.pid[row]));
        tid.push_back(keyInt(ev.tid[row]));
        name.push(ev.nameOf(row));
        cat.push(ev.catOf(row));
        if (ev.phase[row])
            phase.push(std::string_view(&ev.phase[row], 1));
        else
            phase.pushNone();
    }
    py::dict columns;
    columns["uid"] = toArray(std::move(uid));
    columns["name"] = name.take();
    columns["cat"] = cat.take();
    columns["ph"] = phase.take();
    columns["ts_ns"] = toArray(std::move(ts));
    columns["dur_ns"] = toArray(std::move(dur));
    columns["pid"] = toArray(std::move(pid));
    columns["tid"] = toArray(std::move(tid));
    return columns;
}

// Every stage of the pipeline, with the display indexes (the summary's eager count, --eager and
// --range need them), the GIL released.
std::unique_ptr<PyTrace> load(const std::string& path, const std::string& kernelInfo,
                              py::object progress, unsigned threads) {
    PipelineInput input;
    input.tracePath = path;
    input.kernelInfoPath = kernelInfo;
    input.displayIndexes = true;
    input.load.threads = threads;
    std::optional<LoadedTrace> loaded;
    PythonObserver observer(std::move(progress));
    try {
        py::gil_scoped_release nogil;
        loaded = runLoadPipeline(input, observer);
    } catch (const Cancelled&) {
        observer.rethrow();
        throw;
    }
    observer.rethrow();  // the callback failed after the last check for cancel
    return std::make_unique<PyTrace>(std::move(*loaded));
}

// diff BASE NEW --json [--eager].
std::string diffJson(const PyTrace& base, const PyTrace& next, bool eager) {
    const RunDiff d = diffRuns(base.runInput(eager), next.runInput(eager));
    return dumpJson(runDiffJson(d, std::numeric_limits<std::size_t>::max()));
}

// steps --json results merged as merge merges them: what steps over all their traces prints.
std::string mergeSteps(const std::vector<std::string>& results) {
    std::vector<RankStepSummary> ranks;
    for (const std::string& text : results) {
        const OrderedJson j = parseResultText(text);
        if (!isStepsResult(j)) throw InputError("not the output of stackline-cli steps --json");
        for (RankStepSummary& r : stepsResultRanks(j)) ranks.push_back(std::move(r));
    }
    return PyTrace::writeSteps(ranks);
}

// hotspots --json results summed as merge sums them in the order given: what hotspots TRACE...
// --json writes for all their traces.
std::string mergeHotspots(const std::vector<std::string>& results) {
    std::vector<TraceHotspots> traces;
    for (const std::string& text : results)
        for (TraceHotspots& t : hotspotsResultTraces(parseResultText(text)))
            traces.push_back(std::move(t));
    return dumpJson(manyHotspotsJson(traces));
}

}  // namespace

PYBIND11_MODULE(_core, m) {
    m.doc() = "Stackline's core: the load pipeline and its results (see the stackline package)";
    // As stackline-cli's main() does: without it the loader's freed chunk tables stay with the
    // process, and a load peaked 112 MiB above the CLI's on the 1 GB kineto trace.
    returnFreedBlocksPromptly();
    static py::exception<InputError> inputError(m, "InputError", PyExc_ValueError);
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const InputError& e) {
            PyErr_SetString(inputError.ptr(), e.what());
        } catch (const OutputError& e) {
            PyErr_SetString(PyExc_OSError, e.what());
        } catch (const Cancelled&) {
            PyErr_SetString(PyExc_KeyboardInterrupt, "loading cancelled");
        }
    });
    py::class_<PyTrace>(m, "Trace")
        .def_property_readonly("path", &PyTrace::path)
        .def_property_readonly("format", &PyTrace::format)
        .def_property_readonly("kernel_info_path", &PyTrace::kernelInfoPath)
        .def_property_readonly("kernel_info_notes", &PyTrace::kernelInfoNotes)
        .def("summary_json", &PyTrace::summaryJson)
        .def("hotspots_json", &PyTrace::hotspotsJson, py::arg("name"), py::arg("eager"))
        .def("range_summary_json", &PyTrace::rangeSummaryJson, py::arg("range"), py::arg("top"))
        .def("folded", &PyTrace::folded, py::arg("eager"))
        .def("report_json", &PyTrace::reportJson)
        .def("steps_json", &PyTrace::stepsJson, py::arg("name"))
        .def("annotate", &PyTrace::annotate, py::arg("out"), py::arg("in_place"))
        .def("kernel_columns", &PyTrace::kernels, py::arg("eager"), py::arg("stack"))
        .def("event_columns", &PyTrace::events, py::arg("category"));
    m.def("load", &load, py::arg("path"), py::arg("kernel_info"), py::arg("progress"),
          py::arg("threads"));
    m.def("diff_json", &diffJson, py::arg("base"), py::arg("new"), py::arg("eager"));
    m.def("merge_steps", &mergeSteps, py::arg("results"));
    m.def("merge_hotspots", &mergeHotspots, py::arg("results"));
}
