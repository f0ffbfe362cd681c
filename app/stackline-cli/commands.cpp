#include "commands.h"

#include <algorithm>

namespace cli {

namespace {

constexpr Command kCommands[] = {
    {"annotate",
     "TRACE [--kernel-info KINFO] -o OUT [--report REPORT.json] [--in-place]\n[--timings] "
     "[--threads N]",
     Operands::Trace,
     R"(annotate writes TRACE to OUT with each GPU kernel's Python stack in its args.stack, as PyTorch's
post-processor does (OUT may be TRACE itself only with --in-place). --report writes the summary
and every diagnostic as JSON; --timings prints each phase's wall and CPU time; --threads N loads
and writes with N threads (default: one per core).)",
     annotate},
    {"summary", "TRACE [--kernel-info KINFO] [--range START_US:END_US] [--json]", Operands::Trace,
     R"(summary counts the trace's events, kernels, annotated and unresolved kernels and diagnostics.
summary --range summarizes [START_US, END_US): microseconds (up to 3 decimals) from the trace's
origin, the smallest ts of its events other than metadata (ph "M"), which is also the zero of the
viewer's ruler. Per name and process: the X slices overlapping the range, clipped to it (count,
wall, average and self time, share of the range); per GPU stream: busy and idle time and the time
its compute kernels overlap NCCL/RCCL kernels; GPU kernel time by Python line. --json gives
integer nanoseconds.)",
     summary},
    {"hotspots",
     "TRACE... [--kernel-info KINFO] [--top N] [--json | --folded] [--eager]\n[--jobs N] "
     "[--threads N]",
     Operands::Traces,
     R"(hotspots lists GPU kernel time by Python source line: self time (each annotated kernel's time
split among the innermost lines of its stacks) and total time (in full for every line of them).
With --folded it writes GPU time by Python call path as folded stacks ("frame;frame;frame NS",
frames outermost first as "file:line function", time in integer nanoseconds), the input of
flamegraph.pl, speedscope and Perfetto.
--json gives every line whatever --top says (which limits the text), with times in integer
nanoseconds (self_ns, total_ns, annotated_gpu_ns, unresolved_gpu_ns) that add up exactly: a
kernel's self time is split among its innermost lines in whole nanoseconds.
Given several TRACEs, hotspots reads --jobs of them at once (default: one per core), each with its
own kernel information found beside it, or with --kernel-info KINFO for all of them (ranks of one
compiled model), and releases each trace once its lines are counted; each loads with --threads
threads (default: the cores divided among the jobs). It prints each trace's result and their total
({"traces": [...], "total": {...}} with --json). --folded takes one TRACE.
With --eager, kernels outside compiled regions count too, with their eager stack: the
python_function slices around their launch in a trace recorded with with_stack=True.)",
     hotspots},
    {"steps", "TRACE... [--json] [--jobs N] [--threads N]", Operands::Traces,
     R"(steps gives, per profiler step (ProfilerStep#N) and rank, the step's duration, its GPU compute and
collective time (each the union over streams of its kernels' spans; a step's kernels are those its
CPU launched) and its idle GPU time (the span less the time any kernel runs), and names the
straggler: the rank whose matched collectives start last on the ranks' clocks
(baseTimeNanoseconds + ts), which the others wait for. A step's collectives match across ranks by
their Comms Id arg when every one has it, else by (process group, Seq), else by their order in the
step. It prints the ranks without steps or collectives and those that do not overlap the others
in time, then a line per step, as "step 10: straggler rank 7 ...", with the straggler's figures
and the ranks' spread. --json gives each rank's summary and the job: per step the straggler and per
collective its name, process group, size, each rank's start and duration and the skew (last start
minus first), in integer nanoseconds. One TRACE gives a single-rank result. Several load --jobs at
once (default: one per core), each released once summarized; traces of different world sizes, or
a rank given twice, exit 2. The viewer's Steps tab shows the same figures.)",
     steps},
    {"merge", "RESULT.json... [--top N] [--json]", Operands::Results,
     R"(merge adds up RESULTs that hotspots --json or steps --json wrote elsewhere (for one trace or
several), exactly, and prints what that command would have printed for all their traces at once:
with --json, byte for byte its output over the same traces in the same order. Steps results of any
subset of a job's ranks merge (a partial job says so). A RESULT that is not such JSON, is
inconsistent, repeats a trace or a rank already given, is of another job (its world size) or of
the other command exits 2, naming it, and nothing is printed.)",
     merge},
    {"kernel-info", "KINFO [-o OUT]", Operands::KernelInfo,
     R"(kernel-info reads KINFO in any of its forms and writes it as a registry file (to stdout without
-o): save it as "<trace without .json>.kernel_info.json" and the trace opens with its stacks.)",
     kernelInfo},
    {"kernel-code", "KINFO [KERNEL...] [--trace TRACE] [--json]", Operands::KernelInfoAndKernels,
     R"(kernel-code lists what Inductor generated for each kernel (KERNEL names, else all), read from
KINFO when it is a TORCH_TRACE log or folder: the Triton source and its lines in the generated
module, where the wrapper launches it, autotuning (cache state, configs, compile time), post- and
pre-grad nodes; extern kernels (extern_kernels.mm, ...) with their call sites. With --trace, each
kernel's GPU time on TRACE (count, total, mean, min, max) and the launch config that ran
(kernel_kwargs, num_warps, num_stages, kernel_file, kernel_hash, occupancy); a kernel launched
on TRACE whose code KINFO lacks is listed with the reason. --json gives every field (times in
integer nanoseconds).)",
     kernelCode},
    {"diff",
     "BASE NEW [--kernel-info-base KINFO] [--kernel-info-new KINFO] [--eager]\n[--top N] [--json]",
     Operands::TwoTraces,
     R"(diff compares two runs (traces BASE and NEW) by Python source line: self and total GPU time in
each run (as hotspots counts them), the change and the ratio, launches, the line number in each.
Lines match by file, function and code text, so that lines moved by an edit still match (by line
number when the stack carries no code, as eager stacks). Then per kernel name, count and GPU time
in each run; a kernel present in one run only is matched with one of the other that differs only
in its trailing index (Inductor renames kernels when it recompiles) when both are charged to the
same lines and fuse the same ops, and marked renamed. When both runs have ProfilerStep#N spans
and their numbers differ, times are compared per step. --top N limits the tables printed; --json
gives every line and kernel, times in integer nanoseconds.)",
     diff},
};  // namespace cli

}  // namespace

std::span<const Command> commands() {
    return kCommands;
}

const Command* findCommand(std::string_view name) {
    const auto* c = std::find_if(std::begin(kCommands), std::end(kCommands),
                                 [&](const Command& c) { return c.name == name; });
    return c == std::end(kCommands) ? nullptr : c;
}

}  // namespace cli
