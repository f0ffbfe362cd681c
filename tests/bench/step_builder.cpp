#include "step_builder.h"

#include <algorithm>

namespace stackline::bench {
namespace {

constexpr ApiDef kCuLaunchKernel{"cuLaunchKernel", "cuda_driver", 307, 4000, 9000};
constexpr ApiDef kCudaLaunchKernel{"cudaLaunchKernel", "cuda_runtime", 211, 3000, 7000};
constexpr ApiDef kCudaMemcpyAsync{"cudaMemcpyAsync", "cuda_runtime", 41, 8000, 15000};
constexpr ApiDef kCudaStreamSynchronize{"cudaStreamSynchronize", "cuda_runtime", 131, 2000, 4000};
constexpr ApiDef kCudaStreamIsCapturing{"cudaStreamIsCapturing", "cuda_runtime", 317, 400, 1500};
constexpr ApiDef kCudaDeviceSynchronize{"cudaDeviceSynchronize", "cuda_runtime", 165, 3000, 6000};

}  // namespace

CpuOp& StepBuilder::begin(Thread& t, std::string_view name, std::string_view extra) {
    t.clock += rand(500, 3000);  // children start strictly after their parent
    t.open.push_back(t.ops->size());
    return t.ops->emplace_back(
        CpuOp{name, -1, t.clock, 0, nextExternalId_++, nextEvIdx_++, -1, 0, extra, 0, 0});
}

void StepBuilder::end(Thread& t) {
    t.clock += rand(500, 2500);  // and end strictly before it
    CpuOp& op = (*t.ops)[t.open.back()];
    op.dur = t.clock - op.ts;
    t.open.pop_back();
}

void StepBuilder::launch(Thread& t, const ApiDef& api, Flow flow, const GpuDef* gpu, bool linked) {
    t.clock += rand(300, 2000);
    const uint64_t externalId = linked ? (*t.ops)[t.open.back()].externalId : 0;
    Launch l{&api, t.tid, t.clock, rand(api.minNs, api.maxNs), externalId, nextCorrelation_++,
             flow, gpu};
    if (&api == &kCudaStreamSynchronize || &api == &kCudaDeviceSynchronize) {
        l.dur += std::max<int64_t>(0, gpuClock_ - l.ts);  // blocks until the stream drains
    }
    if (gpu) {
        l.gpuTs = std::max(gpuClock_ + rand(800, 2500), l.ts + rand(4000, 9000));
        l.gpuDur = gpu->durNs * rand(90, 110) / 100;
        gpuClock_ = l.gpuTs + l.gpuDur;
    }
    t.clock += l.dur;
    step_->launches.push_back(l);
}

void StepBuilder::runGraph(Thread& t, const std::vector<GraphItem>& graph, uint64_t step) {
    // Inductor's wrapper allocates its buffers first; the allocator checks for stream capture.
    begin(t, "aten::empty_strided", model_.emptyArgs);
    launch(t, kCudaStreamIsCapturing, Flow::kEndOnly);
    end(t);
    for (size_t i = 0; i < graph.size(); ++i) {
        const GraphItem& item = graph[i];
        switch (item.how) {
            case Launcher::kTriton:
                begin(t, item.kernel->name, item.cpuArgs);
                t.clock += rand(6000, 14000);  // Triton's Python launcher
                launch(t, kCuLaunchKernel,
                       item.mayDrop && step % 16 == 5 ? Flow::kStartOnly : Flow::kPair,
                       item.kernel);
                end(t);
                break;
            case Launcher::kExtern:
                begin(t, "extern_kernels.mm");
                begin(t, "aten::mm", item.cpuArgs);
                launch(t, kCudaLaunchKernel, Flow::kPair, item.kernel);
                end(t);
                end(t);
                break;
            case Launcher::kCustom:
                if (step % 8 != 3) break;  // a rarely taken branch of the model
                begin(t, "mylib::fused_rms_norm", item.cpuArgs);
                launch(t, kCudaLaunchKernel, Flow::kPair, item.kernel);
                end(t);
                break;
        }
        if (i % 6 == 5) leaf(t, "aten::empty_strided", model_.emptyArgs);
    }
}

void StepBuilder::build(uint64_t index, Step& step) {
    step.autograd.clear();
    step.main.clear();
    step.launches.clear();
    step_ = &step;
    Thread main{&step.main, pid_, cpuClock_ + rand(20000, 60000), {}};

    begin(main, "ProfilerStep#").nameNumber = int64_t(index);
    begin(main, "aten::to", model_.toArgs);
    begin(main, "aten::_to_copy");
    leaf(main, "aten::empty_strided", model_.emptyArgs);
    begin(main, "aten::copy_");
    launch(main, kCudaMemcpyAsync, Flow::kPair, model_.memcpyHtoD);
    end(main);
    end(main);
    end(main);
    leaf(main, "TorchDynamo Cache Lookup");

    const uint64_t compiledSeq = nextSeqNr_++, compiledFlow = nextFwdBwd_++;
    begin(main, "Torch-Compiled Region: 0/0");
    CpuOp& compiled = begin(main, "CompiledFunction");
    compiled.seqNr = int64_t(compiledSeq);
    compiled.flowPh = 's';
    compiled.flowId = compiledFlow;
    runGraph(main, model_.forward(), index);
    end(main);
    end(main);

    const uint64_t mseSeq = nextSeqNr_++, mseFlow = nextFwdBwd_++;
    CpuOp& mse = begin(main, "aten::mse_loss", model_.mseArgs);
    mse.seqNr = int64_t(mseSeq);
    mse.flowPh = 's';
    mse.flowId = mseFlow;
    launch(main, kCudaLaunchKernel, Flow::kPair, model_.meanKernel);
    end(main);
    begin(main, "aten::ones_like");
    leaf(main, "aten::empty_like");
    begin(main, "aten::fill_");
    launch(main, kCudaLaunchKernel, Flow::kPair, model_.fillKernel);
    end(main);
    end(main);

    // loss.backward(): the autograd engine's device thread runs it while the main thread waits.
    Thread grad{&step.autograd, autogradTid_, main.clock + rand(8000, 20000), {}};
    auto backwardOp = [&](std::string_view name, uint64_t seq) -> CpuOp& {
        CpuOp& op = begin(grad, name);
        op.seqNr = int64_t(seq);
        op.fwdThreadId = 1;
        return op;
    };
    backwardOp("autograd::engine::evaluate_function: MseLossBackward0", mseSeq);
    CpuOp& mseBackward = backwardOp("MseLossBackward0", mseSeq);
    mseBackward.flowPh = 'f';
    mseBackward.flowId = mseFlow;
    begin(grad, "aten::mse_loss_backward", model_.mseArgs);
    launch(grad, kCudaLaunchKernel, Flow::kPair, model_.mseBackwardKernel);
    end(grad);
    end(grad);
    end(grad);
    backwardOp("autograd::engine::evaluate_function: CompiledFunctionBackward", compiledSeq);
    CpuOp& compiledBackward = backwardOp("CompiledFunctionBackward", compiledSeq);
    compiledBackward.flowPh = 'f';
    compiledBackward.flowId = compiledFlow;
    runGraph(grad, model_.backward(), index);
    end(grad);
    end(grad);
    for (int p = 0; p < 2; ++p) {
        begin(grad, "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad");
        begin(grad, "torch::autograd::AccumulateGrad");
        begin(grad, "aten::add_");
        launch(grad, kCudaLaunchKernel, Flow::kPair, model_.accumulateKernel);
        end(grad);
        end(grad);
        end(grad);
    }
    main.clock = grad.clock + rand(5000, 15000);

    begin(main, "Optimizer.step#AdamW.step");
    for (int i = 0; i < 3; ++i) {
        begin(main, Model::kForeachOps[i]);
        launch(main, kCudaLaunchKernel, Flow::kPair, model_.foreachKernels[i]);
        end(main);
    }
    end(main);
    leaf(main, "Optimizer.zero_grad#AdamW.zero_grad");
    begin(main, "aten::item");
    begin(main, "aten::_local_scalar_dense");
    launch(main, kCudaMemcpyAsync, Flow::kPair, model_.memcpyDtoH);
    launch(main, kCudaStreamSynchronize, Flow::kNone);
    end(main);
    end(main);
    if (index % 8 == 7) launch(main, kCudaDeviceSynchronize, Flow::kStartOnly, nullptr, false);
    end(main);

    cpuClock_ = main.clock;
}

}  // namespace stackline::bench
