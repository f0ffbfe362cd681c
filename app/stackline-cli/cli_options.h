// stackline-cli's command line: the options of every command, the usage (from the command table)
// and exit codes.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace cli {

constexpr int kExitOutput = 1;
constexpr int kExitInput = 2;

struct Args {
    std::string command, trace, kernelInfo, out, report, range;
    int (*run)(const Args&) = nullptr;    // the command's row's function
    std::string codeTrace;                // kernel-code --trace
    std::string newTrace, newKernelInfo;  // diff's NEW and --kernel-info-new (BASE: trace)
    std::vector<std::string> kernels;     // kernel-code's KERNEL arguments
    std::vector<std::string> inputs;      // hotspots' TRACEs, merge's RESULTs (trace: the first)
    bool json = false, inPlace = false, timings = false, folded = false, eager = false;
    unsigned threads = 0;
    unsigned jobs = 0;  // hotspots: traces processed at once; 0: one per core
    std::size_t top = 20;
};

// Prints message and the usage lines (the command's, once it is known) to stderr and exits with
// kExitInput.
[[noreturn]] void usageError(const std::string& message);

// -h/--help prints the usage (COMMAND --help: that command's) and exits; a malformed command line
// or an unknown command is a usageError.
Args parseArgs(int argc, char** argv);

}  // namespace cli
