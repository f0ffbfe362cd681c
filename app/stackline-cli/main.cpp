// stackline-cli: the headless entry point, for cluster nodes. Links the core only. Runs the
// command the command table names (commands.h) and turns its errors into exit statuses.
#include <iostream>
#include <new>

#include "base/errors.h"
#include "cli_options.h"
#include "io/memory_budget.h"

using namespace cli;
using stackline::InputError;
using stackline::OutputError;

int main(int argc, char** argv) {
    stackline::returnFreedBlocksPromptly();
    Args a = parseArgs(argc, argv);
    try {
        return a.run(a);
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
