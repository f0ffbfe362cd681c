// What the CLI and the viewer tell about a processed trace: the JSON report of annotate, and the
// figures of summary.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "annotate/provenance.h"
#include "kernel_info/kernel_info.h"
#include "model/trace.h"

namespace stackline {

// {"annotated_kernels", "unresolved_kernels": [{uid, name, ts}], "warnings": [{kind, message,
// count, uids}], "errors": [the same]}: one entry per distinct message, in first-report order,
// with the uid of each occurrence in order (null for one about no event). Its size goes with the
// distinct messages plus one number per occurrence, whatever the messages' length.
OrderedJson reportJson(const Trace& trace, const Provenance& provenance);

struct Summary {
    uint64_t events = 0;
    uint64_t tracks = 0;
    uint64_t kernels = 0;           // GPU kernel events, of every category spelling
    uint64_t compiledRegions = 0;   // Torch-Compiled Region / CompiledFunctionBackward cpu_ops
    uint64_t annotatedKernels = 0;  // GPU kernels carrying a stack (matched by name too)
    // Of those, stacks of Stackline's rule by name (StackOrigin::MatchedByName), which annotate
    // does not write; "matched_by_name_kernels" is written only when there are any.
    uint64_t matchedByName = 0;
    uint64_t unresolvedKernels = 0;
    // Kernels with a Python stack read from the trace (EagerStacks::count). Finding them needs the
    // timeline's tracks, which annotate never builds: set only by callers that have them
    // (summary, the viewer), and "eager_stacks" is written only then.
    std::optional<uint64_t> eagerStacks;
    std::map<std::string, uint64_t> diagnostics;  // by kind name, as printed
    // Messages of Stackline's own warnings about the kernel information (kernel_info_source,
    // no_compiled_region, matched_by_name).
    std::vector<std::string> kernelInfoNotes;
};

Summary summarize(const Trace& trace, const Provenance& provenance);
OrderedJson summaryJson(const Summary& s);

// Microseconds as the trace writes them, from exact nanoseconds ("2413669096141.794").
std::string formatMicros(int64_t ns);

}  // namespace stackline
