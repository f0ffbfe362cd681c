#include "cli_options.h"

#include <charconv>
#include <cstdlib>
#include <iostream>
#include <string_view>
#include <vector>

#include "commands.h"
#include "import/trace_formats.h"

namespace cli {

namespace {

// What every command shares, after the usage lines.
std::string operandsHelp() {
    return "\nTRACE is a trace in one of these formats:\n" + stackline::traceFormatsHelp("  ") +
           R"(KINFO is the kernel information: the registry (JSON, as stackline_handler.py saves it), a
TORCH_TRACE log (dedicated_log_torch_trace_*.log) or its folder, a tlparse output folder, or
AOTInductor's kernel_information.json. Without --kernel-info, TRACE's "<name>.kernel_info.json" or
"kernel_info.json" beside it is used when present. OUT is written as gzip when it ends in .gz.
)";
}

constexpr std::string_view kExitStatus =
    "exit status: 0 success (also with diagnostics), 1 output error, 2 bad input or usage.\n";

// "  stackline-cli NAME SYNOPSIS", its continuation lines indented under the first operand.
std::string usageLine(const Command& c) {
    std::string line = "  stackline-cli ";
    (line += c.name) += ' ';
    const std::size_t indent = line.size();
    for (char ch : c.synopsis) {
        line += ch;
        if (ch == '\n') line.append(indent, ' ');
    }
    return line += '\n';
}

// The usage lines: every command's, or one command's.
std::string usageLines(const Command* only) {
    std::string text = "usage:\n";
    for (const Command& c : commands())
        if (!only || &c == only) text += usageLine(c);
    return text;
}

// The usage lines, what the commands share, and each command's help (or one command's alone).
std::string help(const Command* only) {
    std::string text = usageLines(only) + operandsHelp();
    for (const Command& c : commands())
        if ((!only || &c == only) && !c.help.empty()) (text += "\n") += std::string(c.help) + "\n";
    return (text += "\n") += kExitStatus;
}

// The command being parsed, for a usage error's usage lines.
const Command* gCommand = nullptr;

std::string_view operandsText(Operands o) {
    switch (o) {
        case Operands::Trace:
            return " takes exactly one TRACE";
        case Operands::Traces:
            return " takes TRACE...";
        case Operands::TwoTraces:
            return " takes two traces, BASE and NEW";
        case Operands::KernelInfo:
        case Operands::KernelInfoAndKernels:
            return " takes exactly one KINFO";
        case Operands::Results:
            return " takes RESULT.json...";
    }
    return {};
}

}  // namespace

void usageError(const std::string& message) {
    std::cerr << "stackline-cli: " << message << "\n\n"
              << usageLines(gCommand) << "(stackline-cli --help tells more)\n";
    std::exit(kExitInput);
}

Args parseArgs(int argc, char** argv) {
    Args a;
    bool wantHelp = false;
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
            wantHelp = true;
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
    const Command* command = positional.empty() ? nullptr : findCommand(positional[0]);
    if (wantHelp) {  // "stackline-cli --help", or a command's own with "stackline-cli COMMAND
                     // --help"
        std::cout << help(command);
        std::exit(0);
    }
    if (positional.empty()) usageError("no command given");
    if (!command) usageError("unknown command " + positional[0]);
    gCommand = command;
    a.command = positional[0];
    a.run = command->run;
    const Operands operands = command->operands;
    if (operands == Operands::KernelInfoAndKernels && positional.size() >= 2) {
        a.kernels.assign(positional.begin() + 2, positional.end());
        positional.resize(2);
    }
    if (operands == Operands::TwoTraces) {
        if (positional.size() != 3) usageError(a.command + std::string(operandsText(operands)));
        a.newTrace = positional[2];
        positional.resize(2);
    }
    if ((operands == Operands::Traces || operands == Operands::Results) && positional.size() >= 2) {
        a.inputs.assign(positional.begin() + 1, positional.end());
        positional.resize(2);
    }
    if (positional.size() != 2) usageError(a.command + std::string(operandsText(operands)));
    a.trace = positional[1];
    return a;
}

}  // namespace cli
