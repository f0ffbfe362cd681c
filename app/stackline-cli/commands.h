// stackline-cli's commands: one row each in commands(), which drives dispatch, the usage and the
// help, so that they cannot disagree. A command is its *_command.cpp, its function declared here
// and its row in commands.cpp.
#pragma once

#include <span>
#include <string_view>

namespace cli {

struct Args;

// What follows a command's name on the command line, and the message when it does not fit.
enum class Operands {
    Trace,                 // exactly one TRACE
    Traces,                // TRACE...
    TwoTraces,             // BASE NEW
    KernelInfo,            // exactly one KINFO
    KernelInfoAndKernels,  // KINFO [KERNEL...]
    Results,               // RESULT.json...
};

struct Command {
    std::string_view name;
    // The usage after the name; a '\n' starts a continuation line, indented under the first.
    std::string_view synopsis;
    Operands operands;
    // What --help says of the command (lines of at most 100 characters), or empty.
    std::string_view help;
    // Returns the exit status, or throws InputError / OutputError, which main() reports.
    int (*run)(const Args&);
};

std::span<const Command> commands();
// The row named name, or null.
const Command* findCommand(std::string_view name);

int annotate(const Args& a);
int diff(const Args& a);
int hotspots(const Args& a);
int kernelCode(const Args& a);
int kernelInfo(const Args& a);
int merge(const Args& a);
int steps(const Args& a);
int summary(const Args& a);

}  // namespace cli
