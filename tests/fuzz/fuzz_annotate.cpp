// libFuzzer target: load -> process -> export, as `stackline-cli annotate` does. The input is a
// trace, optionally followed by "#KI#" and kernel information. Each trace that loads is processed
// with a small fixed kernel information covering forward, backward and extern lookups, and with the
// input's own kernel information when it has one that loads.
// Properties, besides no crash and no sanitizer report: the report and summary are produced; and
// when the trace is strict JSON (nlohmann parses it), the export parses too and differs from the
// input only by what the processor decided: "uid" on each event object and "uid_assigned": true
// (when uids are assigned), args.stack on the events it wrote (equal to the stack it chose).
#include <nlohmann/json.hpp>
#include <string>

#include "annotate/exporter.h"
#include "annotate/provenance.h"
#include "annotate/summary_report.h"
#include "fuzz_support.h"
#include "import/trace_formats.h"
#include "json/json_depth.h"
#include "kernel_info/kernel_info.h"
#include "model/trace.h"

using namespace stackline;
using Json = nlohmann::json;

namespace {

const char kFixedInfo[] = R"KI({
 "('Torch-Compiled Region: 0/0', False)": {
  "triton_poi_fused_add_0": {"stack_traces": ["model.py:7 in forward"], "post_grad_nodes": ["add"]},
  "triton_poi_fused_add_0:1": {"stack_traces": ["model.py:8 in forward"]},
  "extern_kernels.mm": ["model.py:9 in forward"],
  "triton_poi_none": null,
  "triton_poi_no_stack": {"post_grad_nodes": []}
 },
 "('Torch-Compiled Region: 0/0', True)": {"triton_poi_bw": ["model.py:19 in backward"]},
 "('Torch-Compiled Region: 0/0_backward_1', True)": {"triton_poi_bw2": {"stack_traces": ["b.py:1"]}},
 "('Torch-Compiled Region: Backward 0/0', False)": {"triton_poi_bw": ["C"]},
 "('CompiledFunctionBackward', True)": {"k": ["z"]},
 "('Torch-Compiled Region: 1/0', False)": {"only": {"stack_traces": ["single.py:1"]}},
 "('Torch-Compiled Region: 2/0', False)": [1, 2],
 "{[]: 1}": {"x": ["raises"]}
})KI";

const KernelInfo& fixedInfo() {
    static const KernelInfo info = KernelInfo::parse(kFixedInfo, "fixed_kernel_info.json");
    return info;
}

std::string show(const Json& j) {
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// The export of a strict-JSON trace against the input, as described above.
void checkExport(const Trace& trace, const Provenance& p, const Json& in,
                 const std::string& exported) {
    Json out = Json::parse(exported, nullptr, false);
    FUZZ_CHECK(!out.is_discarded(), exported);
    FUZZ_CHECK(out.is_object() && out.contains("traceEvents") && out["traceEvents"].is_array());
    const Json& inEvents = in["traceEvents"];
    Json& outEvents = out["traceEvents"];
    FUZZ_CHECK(outEvents.size() == inEvents.size() && inEvents.size() == trace.events.size());
    for (uint32_t row = 0; row < trace.events.size(); ++row) {
        Json expected = inEvents[row];
        Json& got = outEvents[row];
        if (p.assignUids && expected.is_object()) {
            FUZZ_CHECK(got.is_object() && got.contains("uid") && got["uid"] == Json(row),
                       show(got));
            got.erase("uid");
            expected.erase("uid");
        }
        if (p.written[row]) {
            Json stack = Json::parse(p.stacks.json(p.stackOf(row)));
            FUZZ_CHECK(got.is_object() && got.contains("args") && got["args"].is_object() &&
                           got["args"].contains("stack") && got["args"]["stack"] == stack,
                       show(got));
            got["args"].erase("stack");
            if (expected.contains("args"))
                expected["args"].erase("stack");
            else if (got["args"].empty())
                got.erase("args");
        }
        FUZZ_CHECK(got == expected,
                   "row " + std::to_string(row) + "\n" + show(expected) + "\n" + show(got));
    }
    Json inRest = in, outRest = out;
    inRest.erase("traceEvents");
    outRest.erase("traceEvents");
    if (p.assignUids) {
        FUZZ_CHECK(outRest.contains("uid_assigned") && outRest["uid_assigned"] == Json(true));
        inRest.erase("uid_assigned");
        outRest.erase("uid_assigned");
    }
    FUZZ_CHECK(inRest == outRest, show(inRest) + "\n" + show(outRest));
}

void annotate(const Trace& trace, const KernelInfo& info, const Json* strict) {
    Provenance p = runProvenance(trace, info);
    FUZZ_CHECK(p.stack.size() >= p.annotatedCount && p.written.size() == trace.events.size());
    for (const Diagnostic& d : p.diagnostics)
        FUZZ_CHECK(d.row == kNoRow || d.row < trace.events.size(), std::string(d.kindName()));
    (void)reportJson(trace, p).dump(1, ' ', false, OrderedJson::error_handler_t::replace);
    (void)summaryJson(summarize(trace, p)).dump();
    std::string exported = exportToString(trace, p);
    if (strict) checkExport(trace, p, *strict, exported);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view input = stackline::fuzz::asText(data, size);
    std::string_view traceText = input, infoText;
    bool hasInfo = false;
    if (std::size_t sep = input.find("#KI#"); sep != std::string_view::npos) {
        traceText = input.substr(0, sep);
        infoText = input.substr(sep + 4);
        hasInfo = true;
    }
    LoadOptions one;
    one.threads = 1;
    std::optional<Trace> trace;
    try {
        trace = parseTrace(TraceBytes::fromString(traceText), "fuzz.json", one);
    } catch (const InputError&) {
        return 0;
    }
    Json strict;
    bool isStrict = false;
    if (traceText.find('\0') == std::string_view::npos &&
        !stackline::json::tooDeep(traceText, 299)) {
        strict = Json::parse(traceText.begin(), traceText.end(), nullptr, false);
        isStrict = !strict.is_discarded();
    }
    annotate(*trace, fixedInfo(), isStrict ? &strict : nullptr);
    annotate(*trace, KernelInfo(), isStrict ? &strict : nullptr);
    if (hasInfo) {
        try {
            KernelInfo own = KernelInfo::parse(infoText, "fuzz_kernel_info.json");
            annotate(*trace, own, isStrict ? &strict : nullptr);
        } catch (const InputError&) {
        }
    }
    return 0;
}
