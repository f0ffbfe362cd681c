// Why kernel information cannot apply to a trace: the reference looks kernels up only from the
// compiled regions ("Torch-Compiled Region", CompiledFunctionBackward) of the trace, so a trace
// without any gets no stack from it, whatever it holds. Seen on real traces when a CUDA/HIP graph
// replays the compiled kernels (vLLM's full-graph decode: one hipGraphLaunch, no region), when
// the compiled code runs outside Dynamo, or in an Nsight Systems export profiled without
// --pytorch=autograd-nvtx. Stackline's rule by name (annotate/matched_by_name.h) then places what
// it can; these warnings are about the Triton kernels left without a stack. Stackline's own
// warnings (no_compiled_region): they never change what is exported.
#pragma once

#include <vector>

#include "annotate/diagnostic.h"
#include "annotate/provenance.h"
#include "kernel_info/kernel_info.h"
#include "model/trace.h"

namespace stackline {

// Whether the trace has a compiled region as the reference finds them (cpu_op, region name).
bool hasCompiledRegion(const EventTable& events);

// Nothing when the kernel information is empty or the trace has a compiled region. Otherwise,
// over the Triton kernels without a stack in provenance (after the rule by name): one warning per
// graph launch (cudaGraphLaunch, hipGraphLaunch, cuGraphLaunch) whose correlation id reaches
// them, at the launch; one about those without any launch (no External id, no runtime call of
// their correlation id), at the first of them; one about those launched one by one, at the
// first, with the trace format's advice (TraceFormat::recordRegions, a text of diagnostics); and,
// when the trace has no Triton kernel at all, one about the trace.
std::vector<Diagnostic> noCompiledRegionWarnings(const Trace& trace, const KernelInfo& kernelInfo,
                                                 const Provenance& provenance,
                                                 Diagnostics& diagnostics);

}  // namespace stackline
