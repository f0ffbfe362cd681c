// The CPU side of the synthetic traces: the cpu_ops of the main and autograd threads and the
// runtime calls that launch GPU work, built one training step at a time.
#pragma once

#include <cstdint>
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
    std::vector<CpuOp> autograd, main;  // each in ts order
    std::vector<Launch> launches;       // in ts order, over both threads
};

// Builds the steps of a trace one at a time. Two builders with the same arguments produce the same
// steps, which lets each block of the file be written in its own pass.
class StepBuilder {
public:
    StepBuilder(const Model& model, uint32_t seed, uint64_t pid, uint64_t autogradTid)
        : model_(model), rng_(mix(seed)), pid_(pid), autogradTid_(autogradTid) {}

    void build(uint64_t index, Step& step);
    int64_t now() const { return cpuClock_; }

private:
    struct Thread {
        std::vector<CpuOp>* ops;
        uint64_t tid;
        int64_t clock;
        std::vector<size_t> open;  // indices of the ops that enclose the clock
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
};

}  // namespace stackline::bench
