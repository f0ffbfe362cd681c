// What stackline-cli's commands share: loading a trace as they all do, and writing results.
#pragma once

#include <string>
#include <string_view>

#include "kernel_info/kernel_info.h"
#include "pipeline/load_pipeline.h"

namespace cli {

struct Args;

std::string dumpJson(const stackline::OrderedJson& j, int indent);

// Throws OutputError, which main() reports.
void writeFile(const std::string& path, std::string_view text);

void printNotes(const stackline::KernelInfo& info);

// What the commands tell while loading: the kernel information found beside the trace, and the
// notes of the one read.
struct CliObserver : stackline::LoadObserver {
    void kernelInfoFound(const std::string& path) override;
    void kernelInfoRead(const stackline::LoadedKernelInfo& k) override;
};

stackline::PipelineInput pipelineInput(const Args& a);

}  // namespace cli
