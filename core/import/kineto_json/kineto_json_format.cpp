#include "import/kineto_json/kineto_json_format.h"

#include "import/kineto_json/kineto_json_loader.h"

namespace stackline {

const TraceFormat& kinetoJsonFormat() {
    static const TraceFormat format{
        .id = "kineto-json",
        .name = "PyTorch profiler trace (Kineto JSON)",
        .patterns = {"*.json", "*.json.gz"},
        // Kineto names its files "<worker>.<time_ns>.pt.trace.json"; the weight given to these
        // globs beats the generic *.json and *.gz ones.
        .mimeTypes = {{"application/x-stackline-trace", "PyTorch profiler trace", "*.pt.trace.json",
                       "application/json", "text-x-generic"},
                      {"application/x-stackline-trace-gzip",
                       "PyTorch profiler trace (gzip-compressed)", "*.pt.trace.json.gz",
                       "application/gzip", "package-x-generic"}},
        .sniff = nullptr,
        .read = readKinetoJson,
        .annotatedExport = AnnotatedExport::Splice,
    };
    return format;
}

}  // namespace stackline
