// The model of the synthetic traces: what one torch.compile training step runs (eager kernels,
// the forward and backward compiled graphs) and the kernel information Inductor writes for it.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "trace_sink.h"

namespace stackline::bench {

// A GPU activity; `tail` holds its args after "correlation", which do not change between launches.
struct GpuDef {
    std::string name;
    std::string_view cat;
    std::string tail;
    int64_t durNs;
};

enum class Launcher : uint8_t { kTriton, kExtern, kCustom };

// One kernel launch of a compiled graph.
struct GraphItem {
    Launcher how;
    const GpuDef* kernel;
    std::string cpuArgs;   // args of the launching cpu_op, after "Ev Idx"
    bool mayDrop = false;  // CUPTI loses this launch's correlation on some steps
};

struct KernelInfoEntry {
    std::string key;  // kernel name ':' debug handle
    std::vector<std::string> stacks;
    std::vector<std::string> postGradNodes;
    std::vector<std::string> preGradNodes;
};

struct Shape {
    uint64_t rows, inner, cols;
};

class Model {
public:
    explicit Model(bool pretty) : pretty_(pretty) {
        buildEager();
        buildForward();
        buildBackward();
    }

    const std::vector<GraphItem>& forward() const { return fwd_; }
    const std::vector<GraphItem>& backward() const { return bwd_; }
    std::string kernelInfoJson() const;

    // Eager kernels and copies, outside the compiled regions.
    const GpuDef* memcpyHtoD;
    const GpuDef* memcpyDtoH;
    const GpuDef* meanKernel;
    const GpuDef* fillKernel;
    const GpuDef* mseBackwardKernel;
    const GpuDef* accumulateKernel;
    const GpuDef* foreachKernels[3];
    static constexpr std::string_view kForeachOps[3] = {
        "aten::_foreach_mul_", "aten::_foreach_addcmul_", "aten::_foreach_add_"};
    std::string toArgs, emptyArgs, mseArgs;

private:
    const GpuDef* addGpu(std::string name, std::string_view cat, std::string tail, int64_t durNs) {
        return &gpu_.emplace_back(GpuDef{std::move(name), cat, std::move(tail), durNs});
    }
    const GpuDef* addKernel(std::string name, int64_t durUs) {
        std::string tail = kernelTail(name);
        return addGpu(std::move(name), "kernel", std::move(tail), durUs * kUs);
    }
    std::string kernelTail(std::string_view name) const;
    static std::string tritonArgs(const std::string& name, uint64_t numel);
    static std::string mmArgs(Shape s);
    void buildEager();
    void buildForward();
    void buildBackward();
    // info == nullptr leaves the kernel out of the kernel info: its launches stay unannotated.
    GraphItem& triton(std::vector<GraphItem>& graph, std::vector<KernelInfoEntry>* info,
                      std::string name, int64_t durUs, uint64_t numel,
                      std::vector<std::string> stacks, std::vector<std::string> post,
                      std::vector<std::string> pre);
    void mm(std::vector<GraphItem>& graph, std::vector<KernelInfoEntry>& info, const GpuDef* gemm,
            Shape s, std::string stack, std::string node, std::string preNode);

    bool pretty_;
    std::deque<GpuDef> gpu_;  // a deque: GraphItem and the step builder keep pointers into it
    std::vector<GraphItem> fwd_, bwd_;
    std::vector<KernelInfoEntry> fwdInfo_, bwdInfo_;
    int debugHandle_ = 0;  // Inductor's provenance handle counter, shared by all graphs
    int node_ = 0;         // suffix of post-grad node names
};

}  // namespace stackline::bench
