#include "worst_case_trace.h"

#include <array>
#include <cstdio>
#include <memory>
#include <stdexcept>

namespace stackline::bench {

namespace {

constexpr std::array kShapes = {
    WorstShape::Nested,  WorstShape::Zero,     WorstShape::Staircase, WorstShape::OneThread,
    WorstShape::OneFlow, WorstShape::Counters, WorstShape::Backward,  WorstShape::DeepLaunches};
constexpr std::array<std::string_view, kShapes.size()> kNames = {
    "nested",   "zero",     "staircase", "one_thread",
    "one_flow", "counters", "backward",  "deep_launches"};

class Writer {
public:
    explicit Writer(const std::string& path) : path_(path), f_(std::fopen(path.c_str(), "wb")) {
        if (!f_) throw std::runtime_error(path + ": cannot be written");
        put("{\"traceEvents\": [\n");
    }
    ~Writer() {
        if (f_) std::fclose(f_);
    }
    void event(const char* format, auto... values) {
        if (count_++) put(",\n");
        if constexpr (sizeof...(values) == 0)
            put(format);
        else if (std::fprintf(f_, format, values...) < 0)
            fail();
    }
    void finish() {
        put("\n]}\n");
        const bool ok = std::fclose(f_) == 0;
        f_ = nullptr;
        if (!ok) fail();
    }

private:
    void put(const char* s) {
        if (std::fputs(s, f_) < 0) fail();
    }
    [[noreturn]] void fail() const { throw std::runtime_error(path_ + ": cannot be written"); }
    std::string path_;
    FILE* f_;
    uint64_t count_ = 0;
};

// The compiled region around the slices of thread 1, from 0 to end us.
void region(Writer& w, double end) {
    w.event(R"({"ph": "X", "cat": "cpu_op", "name": "Torch-Compiled Region: 0/0", "pid": 1, )"
            R"("tid": 1, "ts": 0.0, "dur": %.3f, "args": {"External id": 1}})",
            end);
}

// A runtime launch on thread 1 and its kernel on tid (stream 7 unless all is on one thread), linked
// by an ac2g flow with this id and by correlation.
void launch(Writer& w, uint64_t i, double ts, double kernelTs, uint64_t flowId, int tid) {
    w.event(R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, )"
            R"("ts": %.3f, "dur": 1.0, "args": {"External id": %llu, "correlation": %llu}})",
            ts, (unsigned long long)(i + 2), (unsigned long long)(i + 2));
    const int pid = tid == 1 ? 1 : 0;
    w.event(R"({"ph": "X", "cat": "kernel", "name": "triton_poi_fused_%llu", "pid": %d, )"
            R"("tid": %d, "ts": %.3f, "dur": 2.0, "args": {"External id": %llu, )"
            R"("correlation": %llu, "stream": 7, "device": 0}})",
            (unsigned long long)(i % 7), pid, tid, kernelTs, (unsigned long long)(i + 2),
            (unsigned long long)(i + 2));
    w.event(R"({"ph": "s", "id": %llu, "pid": 1, "tid": 1, "ts": %.3f, "cat": "ac2g", )"
            R"("name": "ac2g"})",
            (unsigned long long)flowId, ts);
    w.event(R"({"ph": "f", "id": %llu, "pid": %d, "tid": %d, "ts": %.3f, "cat": "ac2g", )"
            R"("name": "ac2g", "bp": "e"})",
            (unsigned long long)flowId, pid, tid, kernelTs);
}

// Python frames and ops in turn, as with_stack=True traces nest them.
void slice(Writer& w, uint64_t i, double ts, double dur) {
    if (i % 2)
        w.event(R"({"ph": "X", "cat": "python_function", "name": "model.py(%llu): forward", )"
                R"("pid": 1, "tid": 1, "ts": %.3f, "dur": %.3f, "args": {"Python id": %llu}})",
                (unsigned long long)(i % 50), ts, dur, (unsigned long long)i);
    else
        w.event(R"({"ph": "X", "cat": "cpu_op", "name": "aten::op%llu", "pid": 1, "tid": 1, )"
                R"("ts": %.3f, "dur": %.3f, "args": {"External id": %llu, )"
                R"("Sequence number": %llu}})",
                (unsigned long long)(i % 13), ts, dur, (unsigned long long)(i + 2),
                (unsigned long long)i);
}

}  // namespace

std::span<const WorstShape> worstShapes() {
    return kShapes;
}

std::string_view worstShapeName(WorstShape shape) {
    return kNames[size_t(shape)];
}

std::optional<WorstShape> worstShapeNamed(std::string_view name) {
    for (size_t i = 0; i < kNames.size(); ++i)
        if (kNames[i] == name) return kShapes[i];
    return std::nullopt;
}

std::string writeWorstTrace(const std::string& path, WorstShape shape, uint64_t events) {
    Writer w(path);
    const double n = double(events);
    switch (shape) {
        case WorstShape::Nested:
        case WorstShape::Zero:
            // One launch at the bottom of the stack, so that the kernel has a stack to take, and
            // an eager backward launch on an autograd thread without Python frames, whose kernel
            // takes the stack of the forward op with its Sequence number (every op is searched).
            region(w, 3.0);
            for (uint64_t i = 0; i + 8 < events; ++i)
                slice(w, i, 1.0, shape == WorstShape::Nested ? 1.0 : 0.0);
            launch(w, 0, 1.0, 2.0, 1, 7);
            w.event(R"({"ph": "X", "cat": "cpu_op", "name": "MulBackward0", "pid": 1, "tid": 2, )"
                    R"("ts": 5.0, "dur": 3.0, "args": {"Sequence number": %llu}})",
                    (unsigned long long)(events - 10) / 2 * 2);
            w.event(R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, )"
                    R"("tid": 2, "ts": 6.0, "dur": 1.0, "args": {"correlation": 1}})");
            w.event(R"({"ph": "X", "cat": "kernel", "name": "mul_backward_kernel", "pid": 0, )"
                    R"("tid": 7, "ts": 8.0, "dur": 1.0, "args": {"correlation": 1}})");
            break;
        case WorstShape::Staircase:
            region(w, 2 * n + 2);
            for (uint64_t i = 0; i + 1 < events; ++i) slice(w, i, 1.0 + double(i), n);
            break;
        case WorstShape::OneThread:
            region(w, 10 * n + 10);
            for (uint64_t i = 0; i + 5 < events; i += 5) {
                slice(w, 0, 10.0 * double(i) + 1, 5.0);
                launch(w, i, 10.0 * double(i) + 2, 10.0 * double(i) + 7, i + 1, 1);
            }
            break;
        case WorstShape::OneFlow:
            region(w, 10 * n + 10);
            for (uint64_t i = 0; i + 4 < events; i += 4)
                launch(w, i, 10.0 * double(i) + 1, 10.0 * double(i) + 5, 1, 7);
            break;
        case WorstShape::Backward: {
            // Forward regions on thread 1, then backward ones on thread 2, each with an op and the
            // finish of a fwdbwd flow (bound to the event before it) whose start follows a
            // CompiledFunction op on thread 3, after every region.
            const uint64_t m = events / 7;
            for (uint64_t i = 0; i < m; ++i)
                w.event(R"({"ph": "X", "cat": "cpu_op", "name": "Torch-Compiled Region: 0/0", )"
                        R"("pid": 1, "tid": 1, "ts": %.3f, "dur": 5.0, "args": {}})",
                        10.0 * double(i));
            const double later = 10.0 * double(m) + 100;
            for (uint64_t i = 0; i < m; ++i) {
                const double ts = later + 10.0 * double(i), source = 2 * later + 10.0 * double(i);
                w.event(R"({"ph": "X", "cat": "cpu_op", "name": "CompiledFunctionBackward", )"
                        R"("pid": 1, "tid": 2, "ts": %.3f, "dur": 5.0, "args": {}})",
                        ts);
                w.event(R"({"ph": "f", "id": %llu, "pid": 1, "tid": 2, "ts": %.3f, )"
                        R"("cat": "fwdbwd", "name": "fwdbwd", "bp": "e"})",
                        (unsigned long long)(i + 1), ts);
                w.event(R"({"ph": "X", "cat": "cpu_op", "name": "aten::mul", "pid": 1, "tid": 2, )"
                        R"("ts": %.3f, "dur": 1.0, "args": {}})",
                        ts + 1);
                w.event(R"({"ph": "X", "cat": "cpu_op", "name": "CompiledFunction", "pid": 1, )"
                        R"("tid": 3, "ts": %.3f, "dur": 1.0, "args": {}})",
                        source);
                w.event(R"({"ph": "s", "id": %llu, "pid": 1, "tid": 3, "ts": %.3f, )"
                        R"("cat": "fwdbwd", "name": "fwdbwd"})",
                        (unsigned long long)(i + 1), source);
            }
            break;
        }
        case WorstShape::DeepLaunches: {
            const uint64_t frames = events / 2, launches = events / 8;
            const double end = 10.0 * double(launches) + 10;
            for (uint64_t i = 0; i < frames; ++i)
                w.event(R"({"ph": "X", "cat": "python_function", "name": "model.py(%llu): f", )"
                        R"("pid": 1, "tid": 1, "ts": 1.0, "dur": %.3f, "args": {}})",
                        (unsigned long long)(i % 50), end);
            for (uint64_t i = 0; i < launches; ++i)
                launch(w, i, 2.0 + 10.0 * double(i), 5.0 + 10.0 * double(i), i + 1, 7);
            break;
        }
        case WorstShape::Counters:
            region(w, n + 1);
            for (uint64_t i = 0; i + 1 < events; ++i)
                w.event(R"({"ph": "C", "name": "Memory", "pid": 1, "ts": %.3f, )"
                        R"("args": {"bytes": %llu}})",
                        1.0 + double(i), (unsigned long long)(i * 37 % 1000));
            break;
    }
    w.finish();
    // "<trace without .json>.kernel_info.json", found beside the trace. The compiled region has
    // a registry entry, so that the processor runs; it holds no kernel.
    const std::string stem = path.ends_with(".json") ? path.substr(0, path.size() - 5) : path;
    const std::string kernelInfo = stem + ".kernel_info.json";
    const std::unique_ptr<FILE, int (*)(FILE*)> k(std::fopen(kernelInfo.c_str(), "wb"),
                                                  std::fclose);
    if (!k || std::fputs("{\"('Torch-Compiled Region: 0/0', False)\": {}}\n", k.get()) < 0)
        throw std::runtime_error(kernelInfo + ": cannot be written");
    return kernelInfo;
}

}  // namespace stackline::bench
