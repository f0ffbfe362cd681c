// Kernel information laid out in folders and artifact files rather than one log: tlparse's output
// folder, a TORCH_TRACE folder, and tlparse's single stack-trace artifact files, rebuilt into the
// registry's form as a TORCH_TRACE log is (torch_trace_log.h).
#pragma once

#include <string>
#include <string_view>

#include "kernel_info/torch_trace_log.h"

namespace stackline {

// A folder: a tlparse output folder (its raw.log is read as the log when present, else the
// inductor_provenance_tracking_*_<n>.json files of its compile-id folders such as "-_0_0_0",
// with chromium_events.json), or a TORCH_TRACE folder holding one dedicated_log_torch_trace_*.log.
RebuiltKernelInfo readTorchTraceFolder(const std::string& dir);

// One tlparse artifact file "inductor_provenance_tracking_kernel_stack_traces_<n>.json" (or the
// payload of one such artifact): its compile id comes from the folder it sits in.
bool isStackTraceArtifactFile(const std::string& path);
RebuiltKernelInfo readStackTraceArtifactFile(std::string_view text, const std::string& path);

}  // namespace stackline
