// The CPU side of the synthetic traces: the cpu_ops of the main and autograd threads and the
// runtime calls that launch GPU work, built one training step at a time.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "trace_model.h"

namespace stackline::bench {

constexpr uint64_t kFirstCorrelation = 183412;  // far above fwdbwd ids: the two spaces never meet

struct ApiDef {
    std::string_view name;
    std::string_view cat;
    int cbid;
    int64_t minNs, maxNs;  // CPU time of the call (sync calls also wait for the GPU)
};

struct CpuOp {
    std::string_view name;
    int64_t nameNumber;  // >= 0: appended to the name (ProfilerStep#N)
    int64_t ts, dur;
    uint64_t externalId, evIdx;
    int64_t seqNr;  // >= 0: "Sequence number" and "Fwd thread id" are written
    int fwdThreadId;
    std::string_view extra;  // further args, each starting with ", "
    char flowPh;             // 's' or 'f': a fwdbwd flow event follows the op
    uint64_t flowId;
};

// A Python frame as the profiler records it with with_stack=True (cat "python_function").
struct PyFrame {
    std::string_view name;
    int64_t ts, dur;
    uint64_t id, parentId;  // "Python id"; "Python parent id", 0 for a thread's outermost frame
    uint64_t evIdx;
    int64_t moduleId;  // >= 0: an nn.Module's forward, written as "Python module id"
};

enum class Flow : uint8_t { kPair, kStartOnly, kEndOnly, kNone };

// A runtime or driver call and what it runs on the GPU.
struct Launch {
    const ApiDef* api;
    uint64_t tid;
    int64_t ts, dur;
    uint64_t externalId;  // 0: linked to no cpu_op
    uint64_t correlation;
    Flow flow;          // kStartOnly with a GPU activity: CUPTI lost the link
    const GpuDef* gpu;  // null: nothing runs on the GPU
    int64_t gpuTs = 0, gpuDur = 0;
};

struct Step {
    std::vector<CpuOp> autograd, main;            // each in ts order
    std::vector<Launch> launches;                 // in ts order, over both threads
    std::vector<PyFrame> autogradFrames, frames;  // Python frames of each thread, in ts order
};

// Builds the steps of a trace one at a time. Two builders with the same arguments produce the same
// steps, which lets each block of the file be written in its own pass. With pythonStacks, every op
// also runs under the Python frames that called it (with_stack=True); without, no random number is
// drawn for them, so the steps stay those of the traces made before frames existed.
class StepBuilder {
public:
    StepBuilder(const Model& model, uint32_t seed, uint64_t pid, uint64_t autogradTid,
                bool pythonStacks);

    void build(uint64_t index, Step& step);
    int64_t now() const { return cpuClock_; }
    // The main thread's frames around all steps (the script, its main, the training loop), which
    // end at `end`, after the last step.
    std::vector<PyFrame> outerFrames(int64_t end) const;

private:
    struct Thread {
        std::vector<CpuOp>* ops;
        uint64_t tid;
        int64_t clock;
        std::vector<size_t> open;  // indices of the ops that enclose the clock
        std::vector<PyFrame>* frames;
        uint64_t outerFrame;             // Python id of the frame around the step's frames, or 0
        std::vector<size_t> openFrames;  // indices of the frames that enclose the clock
    };

    int64_t rand(int64_t lo, int64_t hi) {
        return lo + int64_t(mix(rng_++) % uint64_t(hi - lo + 1));
    }
    CpuOp& begin(Thread& t, std::string_view name, std::string_view extra = {});
    void end(Thread& t);
    void leaf(Thread& t, std::string_view name, std::string_view extra = {}) {
        begin(t, name, extra);
        t.clock += rand(1500, 6000);
        end(t);
    }
    void launch(Thread& t, const ApiDef& api, Flow flow, const GpuDef* gpu = nullptr,
                bool linked = true);
    void runGraph(Thread& t, const std::vector<GraphItem>& graph, uint64_t step);
    // Python frames; no-ops without pythonStacks. Calls nest with begin/end like the ops they wrap.
    void call(Thread& t, std::string_view name, int64_t moduleId = -1);
    void calls(Thread& t, std::span<const std::string_view> names) {
        for (std::string_view name : names) call(t, name);
    }
    void ret(Thread& t, size_t frames = 1);
    void builtin(Thread& t, std::string_view name) {
        call(t, name);
        ret(t);
    }

    const Model& model_;
    uint64_t rng_;
    uint64_t pid_, autogradTid_;
    Step* step_ = nullptr;
    int64_t cpuClock_ = kTraceStartNs;
    int64_t gpuClock_ = kTraceStartNs;
    uint64_t nextExternalId_ = 1;
    uint64_t nextEvIdx_ = 0;
    uint64_t nextCorrelation_ = kFirstCorrelation;
    uint64_t nextSeqNr_ = 0;
    uint64_t nextFwdBwd_ = 1;
    bool pythonStacks_;
    uint64_t nextPythonId_;
};

}  // namespace stackline::bench
