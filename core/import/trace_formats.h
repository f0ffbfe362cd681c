// The formats Stackline reads, in the order they are asked to recognise a file, and what is
// derived from them.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "import/trace_format.h"

namespace stackline {

std::span<const TraceFormat> traceFormats();
// The format whose id is id; nullptr when none is.
const TraceFormat* formatById(std::string_view id);
// The format of a loaded trace.
const TraceFormat& formatOf(const Trace& trace);
// The format that reads these bytes: the first whose sniff accepts their head, else the fallback.
const TraceFormat& formatFor(const TraceBytes& bytes);

// Opens a trace of any format (inflating gzip) and reads it. Throws InputError naming the file
// and position.
Trace loadTrace(const std::string& path, const LoadOptions& options = {});
// Reads bytes already in memory; name is used in messages.
Trace parseTrace(TraceBytes bytes, const std::string& name, const LoadOptions& options = {});

// Every format's file patterns, once each, in table order ("*.json", "*.json.gz", ...).
std::vector<std::string_view> traceFilePatterns();
// The same joined: "*.json, *.json.gz", for messages.
std::string traceFilePatternsText();
// Whether a file name matches one of them (the traces of a folder).
bool isTraceFileName(std::string_view fileName);
// "PyTorch profiler trace (Kineto JSON): *.json, *.json.gz" per format, one per line, for help
// texts.
std::string traceFormatsHelp(std::string_view indent);

}  // namespace stackline
