#include "cli_options.h"

#include <charconv>
#include <cstdlib>
#include <iostream>
#include <vector>

namespace cli {

namespace {

const char* kUsage = R"(usage:
  stackline-cli annotate TRACE [--kernel-info KINFO] -o OUT [--report REPORT.json] [--in-place]
                              [--timings] [--threads N]
  stackline-cli summary TRACE [--kernel-info KINFO] [--range START_US:END_US] [--json]
  stackline-cli hotspots TRACE... [--kernel-info KINFO] [--top N] [--json | --folded] [--eager]
                                 [--jobs N] [--threads N]
  stackline-cli merge RESULT.json... [--top N] [--json]
  stackline-cli kernel-info KINFO [-o OUT]
  stackline-cli kernel-code KINFO [KERNEL...] [--trace TRACE] [--json]
  stackline-cli diff BASE NEW [--kernel-info-base KINFO] [--kernel-info-new KINFO] [--eager]
                              [--top N] [--json]

TRACE is a Chrome/Kineto trace (.json or .json.gz). KINFO is the kernel information: the
registry (JSON, as stackline_handler.py saves it), a TORCH_TRACE log (dedicated_log_torch_trace_*.log)
or its folder, a tlparse output folder, or AOTInductor's kernel_information.json. Without
--kernel-info, TRACE's "<name>.kernel_info.json" or "kernel_info.json" beside it is used when
present. OUT is written as gzip when it ends in .gz.

kernel-info reads KINFO in any of these forms and writes it as a registry file (to stdout without
-o): save it as "<trace without .json>.kernel_info.json" and the trace opens with its stacks.

kernel-code lists what Inductor generated for each kernel (KERNEL names, else all), read from
KINFO when it is a TORCH_TRACE log or folder: the Triton source and its lines in the generated
module, where the wrapper launches it, autotuning (cache state, configs, compile time), post- and
pre-grad nodes; extern kernels (extern_kernels.mm, ...) with their call sites. With --trace, each
kernel's GPU time on TRACE (count, total, mean, min, max) and the launch config that ran
(kernel_kwargs, num_warps, num_stages, kernel_file, kernel_hash, occupancy); a kernel launched
on TRACE whose code KINFO lacks is listed with the reason. --json gives every field (times in
integer nanoseconds).

summary --range summarizes [START_US, END_US): microseconds (up to 3 decimals) from the trace's
origin, the smallest ts of its events other than metadata (ph "M"), which is also the zero of the
viewer's ruler. Per name and process: the X slices overlapping the range, clipped to it (count,
wall, average and self time, share of the range); per GPU stream: busy and idle time and the time
its compute kernels overlap NCCL/RCCL kernels; GPU kernel time by Python line. --json gives
integer nanoseconds.

hotspots lists GPU kernel time by Python source line: self time (each annotated kernel's time
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
python_function slices around their launch in a trace recorded with with_stack=True.

diff compares two runs (traces BASE and NEW) by Python source line: self and total GPU time in
each run (as hotspots counts them), the change and the ratio, launches, the line number in each.
Lines match by file, function and code text, so that lines moved by an edit still match (by line
number when the stack carries no code, as eager stacks). Then per kernel name, count and GPU time
in each run; a kernel present in one run only is matched with one of the other that differs only
in its trailing index (Inductor renames kernels when it recompiles) when both are charged to the
same lines and fuse the same ops, and marked renamed. When both runs have ProfilerStep#N spans
and their numbers differ, times are compared per step. --top N limits the tables printed; --json
gives every line and kernel, times in integer nanoseconds.

merge adds up RESULTs that hotspots --json wrote elsewhere (for one trace or several), exactly,
and prints what hotspots would have printed for all their traces at once: with --json, byte for
byte the output of a multi-trace hotspots --json over the same traces in the same order. A RESULT
that is not such JSON, is inconsistent, or repeats a trace already given exits 2.

exit status: 0 success (also with diagnostics), 1 output error, 2 bad input or usage.
)";

}  // namespace

void usageError(const std::string& message) {
    std::cerr << "stackline-cli: " << message << "\n\n" << kUsage;
    std::exit(kExitInput);
}

Args parseArgs(int argc, char** argv) {
    Args a;
    std::vector<std::string> positional;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) usageError(arg + " needs a value");
            return argv[++i];
        };
        auto count = [&](unsigned long max) -> unsigned long {
            std::string v = value();
            unsigned long n = 0;
            auto [end, error] = std::from_chars(v.data(), v.data() + v.size(), n);
            if (error != std::errc() || end != v.data() + v.size() || v.empty() || n > max)
                usageError(arg + " needs a whole number up to " + std::to_string(max) + ", not '" +
                           v + "'");
            return n;
        };
        if (arg == "-h" || arg == "--help") {
            std::cout << kUsage;
            std::exit(0);
        } else if (arg == "--kernel-info" || arg == "--kernel-info-base") {
            a.kernelInfo = value();
        } else if (arg == "--kernel-info-new") {
            a.newKernelInfo = value();
        } else if (arg == "-o" || arg == "--output") {
            a.out = value();
        } else if (arg == "--trace") {
            a.codeTrace = value();
        } else if (arg == "--range") {
            a.range = value();
        } else if (arg == "--report") {
            a.report = value();
        } else if (arg == "--eager") {
            a.eager = true;
        } else if (arg == "--json") {
            a.json = true;
        } else if (arg == "--folded") {
            a.folded = true;
        } else if (arg == "--in-place") {
            a.inPlace = true;
        } else if (arg == "--timings") {
            a.timings = true;
        } else if (arg == "--top") {
            a.top = count(1000000000);
        } else if (arg == "--threads") {
            a.threads = unsigned(count(1024));
        } else if (arg == "--jobs") {
            a.jobs = unsigned(count(1024));
            if (a.jobs == 0) usageError("--jobs needs at least 1");
        } else if (arg.size() > 1 && arg[0] == '-') {
            usageError("unknown option " + arg);
        } else {
            positional.push_back(arg);
        }
    }
    if (positional.empty()) usageError("no command given");
    a.command = positional[0];
    if (a.command == "kernel-code" && positional.size() >= 2) {
        a.kernels.assign(positional.begin() + 2, positional.end());
        positional.resize(2);
    }
    if (a.command == "diff") {
        if (positional.size() != 3) usageError("diff takes two traces, BASE and NEW");
        a.newTrace = positional[2];
        positional.resize(2);
    }
    if ((a.command == "hotspots" || a.command == "merge") && positional.size() >= 2) {
        a.inputs.assign(positional.begin() + 1, positional.end());
        positional.resize(2);
    }
    if (positional.size() != 2)
        usageError(a.command + (a.command.starts_with("kernel-") ? " takes exactly one KINFO"
                                : a.command == "hotspots"        ? " takes TRACE..."
                                : a.command == "merge"           ? " takes RESULT.json..."
                                                                 : " takes exactly one TRACE"));
    a.trace = positional[1];
    return a;
}

}  // namespace cli
