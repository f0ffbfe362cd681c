#include "import/perfetto/pftrace_format.h"

#include "import/perfetto/pftrace_decoder.h"
#include "import/perfetto/pftrace_importer.h"

namespace stackline {

const TraceFormat& pftraceFormat() {
    static const TraceFormat format{
        .id = "perfetto",
        .name = "Perfetto protobuf trace (PyTorch Cuspy, TrackEvent)",
        // Raw or gzip whatever the name: the bytes are sniffed after inflating.
        .patterns = {"*.pftrace", "*.pftrace.gz", "*.perfetto-trace", "*.pb"},
        .mimeTypes = {{"application/x-perfetto-trace", "Perfetto protobuf trace", "*.pftrace",
                       "application/octet-stream", "package-x-generic"},
                      {"application/x-perfetto-trace-gzip",
                       "Perfetto protobuf trace (gzip-compressed)", "*.pftrace.gz",
                       "application/gzip", "package-x-generic"}},
        .sniff = pftrace::looksLikePftrace,
        .read = readPftrace,
        .annotatedExport = AnnotatedExport::ChromeJson,
    };
    return format;
}

}  // namespace stackline
