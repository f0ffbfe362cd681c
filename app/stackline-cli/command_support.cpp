#include "command_support.h"

#include <iostream>

#include "cli_options.h"
#include "io/atomic_file.h"

using namespace stackline;

namespace cli {

std::string dumpJson(const OrderedJson& j, int indent) {
    return j.dump(indent, ' ', false, OrderedJson::error_handler_t::replace);
}

void writeFile(const std::string& path, std::string_view text) {
    AtomicFile file(path);
    file.write(text);
    file.commit();
}

void printNotes(const KernelInfo& info) {
    for (const std::string& note : info.notes())
        std::cerr << "kernel information: note: " << note << "\n";
}

void CliObserver::kernelInfoFound(const std::string& path) {
    std::cerr << "kernel information: " << path << "\n";
}

void CliObserver::kernelInfoRead(const LoadedKernelInfo& k) {
    printNotes(k.info);
}

PipelineInput pipelineInput(const Args& a) {
    PipelineInput in;
    in.tracePath = a.trace;
    in.kernelInfoPath = a.kernelInfo;
    return in;
}

}  // namespace cli
