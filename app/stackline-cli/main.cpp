// stackline-cli: the headless entry point, for cluster nodes. Links the core only.
#include <iostream>
#include <new>

#include "cli_options.h"
#include "commands.h"
#include "io/atomic_file.h"
#include "io/memory_budget.h"
#include "io/trace_bytes.h"

using namespace cli;
using stackline::InputError;
using stackline::OutputError;

int main(int argc, char** argv) {
    stackline::returnFreedBlocksPromptly();
    Args a = parseArgs(argc, argv);
    try {
        if (a.command == "annotate") return annotate(a);
        if (a.command == "summary") return summary(a);
        if (a.command == "hotspots") return hotspots(a);
        if (a.command == "merge") return merge(a);
        if (a.command == "kernel-info") return kernelInfo(a);
        if (a.command == "kernel-code") return kernelCode(a);
        if (a.command == "diff") return diff(a);
        usageError("unknown command " + a.command);
    } catch (const InputError& e) {
        std::cerr << "stackline-cli: " << e.what() << "\n";
        return kExitInput;
    } catch (const OutputError& e) {
        std::cerr << "stackline-cli: " << e.what() << "\n";
        return kExitOutput;
    } catch (const std::bad_alloc&) {
        std::cerr << "stackline-cli: out of memory reading " << a.trace << "\n";
        return kExitInput;
    }
}
