#include "trace_generator.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "step_builder.h"
#include "trace_events.h"
#include "trace_model.h"
#include "trace_sink.h"

namespace stackline::bench {
namespace {

// pythonStacks: the profiler options that record Python frames and their nn.Modules were on.
void writeHeader(Sink& s, uint32_t seed, bool pythonStacks) {
    const std::string on = pythonStacks ? "1" : "0";
    const bool p = s.pretty();
    const std::string b2 = br(p, 2), b4 = br(p, 4), b6 = br(p, 6);
    char traceId[40];
    std::snprintf(traceId, sizeof traceId, "%016llX%016llX", (unsigned long long)mix(seed + 1),
                  (unsigned long long)mix(seed + 2));
    s.lit("{");
    s.lit(p ? b2 : "");
    s.lit("\"schemaVersion\": 1," + b2 + "\"deviceProperties\": [" + (p ? b4 : "") + "{" +
          (p ? b6 : "") +
          "\"id\": 0, \"name\": \"NVIDIA A100-SXM4-80GB\", \"totalGlobalMem\": 85097971712," + b6 +
          "\"computeMajor\": 8, \"computeMinor\": 0," + b6 +
          "\"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": 2048," + b6 +
          "\"regsPerBlock\": 65536, \"warpSize\": 32," + b6 +
          "\"sharedMemPerBlock\": 49152, \"numSms\": 108," + b6 +
          "\"regsPerMultiprocessor\": 65536, \"sharedMemPerBlockOptin\": 166912, "
          "\"sharedMemPerMultiprocessor\": 167936" +
          (p ? b4 : "") + "}" + (p ? b2 : "") + "]," + b2 + "\"cupti_version\": 24," + b2 +
          "\"cuda_runtime_version\": 12040," + b2 + "\"cuda_driver_version\": 12040," + b2 +
          "\"record_shapes\": 1," + b2 + "\"with_stack\": " + on + "," + b2 + "\"with_flops\": 0," +
          b2 + "\"with_modules\": " + on + "," + b2 + "\"profile_memory\": 0," + b2 +
          "\"trace_id\": \"" + traceId + "\"," + b2 + "\"displayTimeUnit\": \"ms\"," + b2 +
          "\"baseTimeNanoseconds\": 1727743122000000000," + b2 + "\"traceEvents\": [");
}

void writeTrailer(Sink& s, Emitter& e, uint64_t pid, uint64_t autogradTid, int64_t end,
                  const std::string& traceName) {
    const std::string cpuPid = std::to_string(pid), gradTid = std::to_string(autogradTid);
    const int64_t start = kTraceStartNs;
    e.meta("process_name", start, cpuPid, "0", "name", "\"python3\"");
    e.meta("process_labels", start, cpuPid, "0", "labels", "\"CPU\"");
    e.meta("process_sort_index", start, cpuPid, "0", "sort_index", cpuPid);
    e.meta("process_name", start, "0", "0", "name", "\"python3\"");
    e.meta("process_labels", start, "0", "0", "labels", "\"GPU 0\"");
    e.meta("process_sort_index", start, "0", "0", "sort_index", "5000000");
    e.meta("thread_name", start, cpuPid, cpuPid, "name", "\"thread " + cpuPid + " (python3)\"");
    e.meta("thread_sort_index", start, cpuPid, cpuPid, "sort_index", cpuPid);
    e.meta("thread_name", start, cpuPid, gradTid, "name",
           "\"thread " + gradTid + " (pt_autograd_0)\"");
    e.meta("thread_sort_index", start, cpuPid, gradTid, "sort_index", gradTid);
    e.meta("thread_name", start, "0", "7", "name", "\"stream 7 \"");
    e.meta("thread_sort_index", start, "0", "7", "sort_index", "7");
    e.profilerSpan(start, end, 0);
    e.meta("process_sort_index", start, "\"Spans\"", "0", "sort_index", "536870912");
    e.globalInstant("Iteration Start: PyTorch Profiler",
                    "\"pid\": \"Traces\", \"tid\": \"Trace PyTorch Profiler\"", start);
    e.globalInstant("Record Window End", "\"pid\": \"\", \"tid\": \"\"", end);
    s.lit(s.pretty() ? "\n  ],\n  \"traceName\": " : "\n], \"traceName\": ");
    s.lit(jsonQuote(traceName));
    s.lit(s.pretty() ? "\n}\n" : "}\n");
}

enum class Block { kAutograd, kMain, kPython, kGpu };

void emitBlock(Emitter& e, const Step& step, Block block, uint64_t pid, uint64_t autogradTid) {
    switch (block) {
        case Block::kAutograd:
            e.cpuOps(step.autograd, autogradTid);
            break;
        case Block::kMain:
            e.cpuOps(step.main, pid);
            break;
        case Block::kPython:
            e.pyFrames(step.autogradFrames, autogradTid);
            e.pyFrames(step.frames, pid);
            break;
        case Block::kGpu:
            e.launches(step.launches);
            break;
    }
}

// The blocks of the file in their order: Kineto writes each CPU thread's ops (the autograd thread
// first), then the Python frames, then the GPU and runtime events in launch order.
std::vector<Block> blocksOf(TraceShape shape) {
    if (shape == TraceShape::kDeepStacks) {
        return {Block::kAutograd, Block::kMain, Block::kPython, Block::kGpu};
    }
    return {Block::kAutograd, Block::kMain, Block::kGpu};
}

}  // namespace

std::optional<TraceShape> traceShapeNamed(std::string_view name) {
    if (name == "kineto") return TraceShape::kKineto;
    if (name == "deep") return TraceShape::kDeepStacks;
    return std::nullopt;
}

GeneratedTrace generateTrace(const std::string& dir, uint64_t targetBytes, uint32_t seed,
                             bool pretty, TraceShape shape) {
    std::filesystem::create_directories(dir);
    const bool deep = shape == TraceShape::kDeepStacks;
    if (deep) pretty = false;
    const Layout layout = deep ? Layout::kMinified : pretty ? Layout::kKineto : Layout::kOneLine;
    const std::string stem = dir + (deep ? "/bench_deep_" : "/bench_") +
                             std::to_string(targetBytes) + "_" + std::to_string(seed);
    GeneratedTrace out{stem + ".pt.trace.json", stem + ".kernel_info.json", 0, 0};
    const Model model(pretty);
    // A deep trace comes from a container, whose process ids are small.
    const uint64_t pid = deep ? 100 + mix(seed) % 900 : 1000000 + mix(seed) % 3000000;
    const uint64_t autogradTid = pid + 1 + mix(seed + 7) % 500;
    const std::vector<Block> blocks = blocksOf(shape);

    // Size the trace from the first steps, written to a counting sink.
    uint64_t steps = 0;
    {
        constexpr uint64_t kSample = 16;
        Sink counter(nullptr, layout);
        Emitter e(counter, pid);
        StepBuilder builder(model, seed, pid, autogradTid, deep);
        Step step;
        for (uint64_t i = 0; i < kSample; ++i) {
            builder.build(i, step);
            for (Block block : blocks) emitBlock(e, step, block, pid, autogradTid);
        }
        const double perStep = double(counter.written()) / double(kSample);
        steps = std::max<uint64_t>(1, uint64_t(std::llround(double(targetBytes) / perStep)));
    }

    std::FILE* file = std::fopen(out.tracePath.c_str(), "wb");
    if (!file) {
        throw std::runtime_error("cannot create " + out.tracePath + ": " + std::strerror(errno));
    }
    try {
        Sink sink(file, layout);
        writeHeader(sink, seed, deep);
        Emitter e(sink, pid);
        // Each block is one pass over regenerated steps.
        int64_t end = 0;
        Step step;
        for (Block block : blocks) {
            StepBuilder builder(model, seed, pid, autogradTid, deep);
            // The frames around all steps come first; the passes before this one found the end.
            if (block == Block::kPython) e.pyFrames(builder.outerFrames(end - 10 * kUs), pid);
            for (uint64_t i = 0; i < steps; ++i) {
                builder.build(i, step);
                emitBlock(e, step, block, pid, autogradTid);
            }
            end = builder.now() + 20 * kUs;
        }
        writeTrailer(sink, e, pid, autogradTid, end, out.tracePath);
        sink.flush();
        out.bytes = sink.written();
        out.events = e.events();
    } catch (...) {
        std::fclose(file);
        throw;
    }
    if (std::fclose(file) != 0) {
        throw std::runtime_error("cannot write " + out.tracePath + ": " + std::strerror(errno));
    }

    std::FILE* info = std::fopen(out.kernelInfoPath.c_str(), "wb");
    const std::string json = model.kernelInfoJson();
    if (!info || std::fwrite(json.data(), 1, json.size(), info) != json.size() ||
        std::fclose(info) != 0) {
        throw std::runtime_error("cannot write " + out.kernelInfoPath);
    }
    return out;
}

}  // namespace stackline::bench
