// Why kernel information cannot apply to a trace: the reference looks kernels up only from the
// compiled regions ("Torch-Compiled Region", CompiledFunctionBackward) of the trace, so a trace
// without any gets no stack from it, whatever it holds. Seen on real traces when a CUDA/HIP graph
// replays the compiled kernels (vLLM's full-graph decode: one hipGraphLaunch, no region) or when
// the compiled code runs outside Dynamo. Stackline's own warnings (no_compiled_region): they
// never change what is exported.
#pragma once

#include <vector>

#include "annotate/diagnostic.h"
#include "kernel_info/kernel_info.h"
#include "model/trace.h"

namespace stackline {

// Nothing when the kernel information is empty or the trace has a compiled region. Otherwise:
// one warning per graph launch (cudaGraphLaunch, hipGraphLaunch, cuGraphLaunch) whose correlation
// id reaches Triton kernels, at the launch; one about the Triton kernels without any launch, at
// the first of them; one about the Triton kernels launched one by one, at the first; and, when
// the trace has no Triton kernel at all, one about the trace.
std::vector<Diagnostic> noCompiledRegionWarnings(const Trace& trace, const KernelInfo& kernelInfo);

}  // namespace stackline
