// Stackline's own rule for a trace without compiled regions, where the reference's rules cannot
// apply the kernel information at all (a CUDA/HIP graph replay, an Nsight Systems export profiled
// without --pytorch=autograd-nvtx; any format): a Triton kernel without a stack is shown the
// stack of the entry of the only graph of the kernel information that names it. A name in
// several graphs (kernel names restart in every graph) is ambiguous and gets none. The stacks are
// Provenance::stack rows of origin MatchedByName, never written (Provenance::written stays false,
// annotatedCount does not count them): annotate's output stays the reference's.
#pragma once

#include <vector>

#include "annotate/diagnostic.h"
#include "annotate/provenance.h"
#include "kernel_info/kernel_info.h"
#include "model/trace.h"

namespace stackline {

// Runs the rule on the processor's result; nothing when the kernel information is empty or the
// trace has a compiled region. Returns its diagnostics (matched_by_name): how many kernels got a
// stack, at the first of them, and how many were named by several graphs, at the first.
std::vector<Diagnostic> matchByName(const Trace& trace, const KernelInfo& kernelInfo,
                                    Provenance& provenance);

}  // namespace stackline
