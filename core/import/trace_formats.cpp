#include "import/trace_formats.h"

#include <fnmatch.h>

#include <algorithm>

#include "import/kineto_json/kineto_json_format.h"
#include "import/nsight/nsight_format.h"
#include "import/perfetto/pftrace_format.h"

namespace stackline {

std::span<const TraceFormat> traceFormats() {
    // One line per format, in the order they are asked to recognise a file; the fallback last.
    static const std::vector<TraceFormat> formats = {
        nsightSqliteFormat(),
        pftraceFormat(),
        kinetoJsonFormat(),
    };
    return formats;
}

const TraceFormat* formatById(std::string_view id) {
    for (const TraceFormat& f : traceFormats())
        if (f.id == id) return &f;
    return nullptr;
}

const TraceFormat& formatOf(const Trace& trace) {
    const TraceFormat* f = formatById(trace.format);
    return f ? *f : traceFormats().back();
}

const TraceFormat& formatFor(const TraceBytes& bytes) {
    const std::string_view head = bytes.slice(0, kSniffBytes);
    for (const TraceFormat& f : traceFormats())
        if (f.sniff && f.sniff(head)) return f;
    for (const TraceFormat& f : traceFormats())
        if (!f.sniff) return f;
    return traceFormats().back();
}

Trace parseTrace(TraceBytes bytes, const std::string& name, const LoadOptions& options) {
    const TraceFormat& format = formatFor(bytes);
    Trace trace = format.read(std::move(bytes), name, options);
    trace.format = format.id;
    trace.events.hasNanos = options.nanoseconds;
    return trace;
}

Trace loadTrace(const std::string& path, const LoadOptions& options) {
    const std::string name = isStandardInput(path) ? std::string(kStandardInputName) : path;
    return parseTrace(TraceBytes::open(path), name, options);
}

std::vector<std::string_view> traceFilePatterns() {
    std::vector<std::string_view> out;
    for (const TraceFormat& f : traceFormats())
        for (std::string_view p : f.patterns)
            if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
    return out;
}

std::string traceFilePatternsText() {
    std::string out;
    for (std::string_view p : traceFilePatterns()) (out += out.empty() ? "" : ", ") += p;
    return out;
}

bool isTraceFileName(std::string_view fileName) {
    const std::string name(fileName);
    for (std::string_view p : traceFilePatterns())
        if (fnmatch(std::string(p).c_str(), name.c_str(), 0) == 0) return true;
    return false;
}

std::string traceFormatsHelp(std::string_view indent) {
    std::string out;
    for (const TraceFormat& f : traceFormats()) {
        out += indent;
        out += f.name;
        out += ":";
        for (size_t i = 0; i < f.patterns.size(); ++i) {
            out += i ? ", " : " ";
            out += f.patterns[i];
        }
        out += "\n";
    }
    return out;
}

}  // namespace stackline
