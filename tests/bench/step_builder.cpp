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

// Python frames of a torch.compile training script, as with_stack=True records them. Builtins carry
// the address of their object, as CPython's repr does.
constexpr std::string_view kOuterFrames[] = {"train.py(118): <module>", "train.py(101): main",
                                             "train.py(77): train"};
constexpr std::string_view kTrainStep = "train.py(42): train_step";
constexpr std::string_view kModuleCall[] = {"torch/nn/modules/module.py(1751): _wrapped_call_impl",
                                            "torch/nn/modules/module.py(1762): _call_impl"};
constexpr std::string_view kDynamoFn = "torch/_dynamo/eval_frame.py(655): _fn";
constexpr std::string_view kModelModule = "nn.Module: Model_0";
constexpr std::string_view kLossModule = "nn.Module: MSELoss_0";
constexpr std::string_view kToDevice = "<built-in method to of Tensor object at 0x7f3b2c5e1a90>";
constexpr std::string_view kAotForward[] = {
    "model.py(94): forward",
    "torch/_dynamo/external_utils.py(46): inner",
    "torch/_functorch/aot_autograd.py(1201): forward",
    "torch/_functorch/_aot_autograd/runtime_wrappers.py(338): runtime_wrapper",
    "torch/_functorch/_aot_autograd/utils.py(126): call_func_at_runtime_with_args",
    "torch/autograd/function.py(575): apply",
    "<built-in method apply of FunctionMeta object at 0x5581a3c0e8f0>"};
constexpr std::string_view kCompiledForward[] = {
    "torch/_functorch/_aot_autograd/runtime_wrappers.py(1812): forward",
    "torch/_functorch/_aot_autograd/runtime_wrappers.py(489): wrapper",
    "torch/_inductor/output_code.py(460): __call__", "torch/_inductor/utils.py(2226): run",
    "/tmp/torchinductor_user/kq/ckqrnw6x4vjz3yqgmhx5wkbzzdtb4jxrfb7hkz3ofx7ysqfu2d2g.py(812): "
    "call"};
constexpr std::string_view kCompiledBackward[] = {
    "torch/autograd/function.py(307): apply",
    "torch/_functorch/_aot_autograd/runtime_wrappers.py(2096): backward",
    "torch/_functorch/_aot_autograd/runtime_wrappers.py(2180): call_compiled_backward",
    "torch/_functorch/_aot_autograd/utils.py(126): call_func_at_runtime_with_args",
    "torch/_inductor/output_code.py(460): __call__",
    "torch/_inductor/utils.py(2226): run",
    "/tmp/torchinductor_user/3m/c3mzeyl2bp6fzt4hyjv7ck5cqurpdbiy3slgkaxn2r6agezl7wbn.py(1024): "
    "call"};
constexpr std::string_view kAssertSizeStride = "<built-in function assert_size_stride>";
constexpr std::string_view kEmptyStrided =
    "<built-in method empty_strided of type object at 0x7f3c0b41df60>";
constexpr std::string_view kRawStream = "<built-in function _cuda_getCurrentRawStream>";
constexpr std::string_view kTritonRun = "torch/_inductor/runtime/triton_heuristics.py(1283): run";
constexpr std::string_view kTritonLaunch[] = {
    "triton/backends/nvidia/driver.py(529): __call__",
    "<built-in method launch of PyCapsule object at 0x7f3a8c1d3e40>"};
constexpr std::string_view kMm = "<built-in method mm of type object at 0x7f3c0b41df60>";
constexpr std::string_view kCustomOp[] = {
    "torch/_ops.py(1123): __call__",
    "<built-in method fused_rms_norm of PyCapsule object at 0x7f3a9e2b7c30>"};
constexpr std::string_view kLossForward[] = {"torch/nn/modules/loss.py(610): forward",
                                             "torch/nn/functional.py(3884): mse_loss",
                                             "<built-in function mse_loss>"};
constexpr std::string_view kBackward[] = {"torch/_tensor.py(648): backward",
                                          "torch/autograd/__init__.py(353): backward"};
constexpr std::string_view kMakeGrads[] = {
    "torch/autograd/__init__.py(221): _make_grads",
    "<built-in method ones_like of type object at 0x7f3c0b41df60>"};
constexpr std::string_view kRunBackward[] = {
    "torch/autograd/graph.py(824): _engine_run_backward",
    "<built-in method run_backward of torch._C._EngineBase object at 0x7f3c01d2e5a0>"};
constexpr std::string_view kOptimizerWrapper = "torch/optim/optimizer.py(485): wrapper";
constexpr std::string_view kOptimizerStep[] = {
    "torch/optim/optimizer.py(79): _use_grad", "torch/optim/adam.py(213): step",
    "torch/optim/optimizer.py(149): maybe_fallback", "torch/optim/adam.py(865): adam",
    "torch/optim/adam.py(596): _multi_tensor_adam"};
constexpr std::string_view kForeachCalls[3] = {
    "<built-in method _foreach_mul_ of type object at 0x7f3c0b41df60>",
    "<built-in method _foreach_addcmul_ of type object at 0x7f3c0b41df60>",
    "<built-in method _foreach_add_ of type object at 0x7f3c0b41df60>"};
constexpr std::string_view kZeroGrad[] = {"torch/_compile.py(51): inner",
                                          "torch/optim/optimizer.py(955): zero_grad"};
constexpr std::string_view kItem = "<built-in method item of Tensor object at 0x7f3b2c5e3f60>";
constexpr std::string_view kSynchronize[] = {"torch/cuda/__init__.py(1040): synchronize",
                                             "<built-in function _cuda_synchronize>"};
// Small calls between the ops: most events of a with_stack trace are these.
constexpr std::string_view kLen = "<built-in function len>";
constexpr std::string_view kRunChecks[] = {
    kLen,
    "<built-in function isinstance>",
    "<built-in function getattr>",
    "<built-in method get of dict object at 0x7f3a5d2c8e40>",
    "<built-in function hasattr>",
    "<built-in method items of dict object at 0x7f3a5d2c8e40>"};
constexpr std::string_view kDataPtr =
    "<built-in method data_ptr of Tensor object at 0x7f3b2c5e4b30>";

constexpr int64_t kModelModuleId = 0, kLossModuleId = 1;

}  // namespace

StepBuilder::StepBuilder(const Model& model, uint32_t seed, uint64_t pid, uint64_t autogradTid,
                         bool pythonStacks)
    : model_(model),
      rng_(mix(seed)),
      pid_(pid),
      autogradTid_(autogradTid),
      pythonStacks_(pythonStacks),
      nextPythonId_(std::size(kOuterFrames) + 1) {
    if (pythonStacks_) nextEvIdx_ = std::size(kOuterFrames);  // the outer frames come first
}

std::vector<PyFrame> StepBuilder::outerFrames(int64_t end) const {
    // They start before the first step and end after the last one, each inside the one before.
    std::vector<PyFrame> frames;
    for (size_t i = 0; i < std::size(kOuterFrames); ++i) {
        const int64_t margin = int64_t(i + 1) * kUs;
        const int64_t ts = kTraceStartNs + margin;
        frames.push_back({kOuterFrames[i], ts, end - margin - ts, i + 1, i, i, -1});
    }
    return frames;
}

void StepBuilder::call(Thread& t, std::string_view name, int64_t moduleId) {
    if (!pythonStacks_) return;
    t.clock += rand(100, 700);
    const uint64_t parent =
        t.openFrames.empty() ? t.outerFrame : (*t.frames)[t.openFrames.back()].id;
    t.openFrames.push_back(t.frames->size());
    t.frames->push_back({name, t.clock, 0, nextPythonId_++, parent, nextEvIdx_++, moduleId});
}

void StepBuilder::ret(Thread& t, size_t frames) {
    if (!pythonStacks_) return;
    for (size_t i = 0; i < frames; ++i) {
        t.clock += rand(100, 500);
        PyFrame& frame = (*t.frames)[t.openFrames.back()];
        frame.dur = t.clock - frame.ts;
        t.openFrames.pop_back();
    }
}

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
    // The generated module checks each input's layout; a graph has about as many as kernels.
    for (size_t i = 0; i < graph.size(); ++i) builtin(t, kAssertSizeStride);
    // Inductor's wrapper allocates its buffers first; the allocator checks for stream capture.
    call(t, kEmptyStrided);
    begin(t, "aten::empty_strided", model_.emptyArgs);
    launch(t, kCudaStreamIsCapturing, Flow::kEndOnly);
    end(t);
    ret(t);
    for (size_t i = 0; i < graph.size(); ++i) {
        const GraphItem& item = graph[i];
        switch (item.how) {
            case Launcher::kTriton:
                builtin(t, kRawStream);
                call(t, kTritonRun);
                for (std::string_view check : kRunChecks) builtin(t, check);
                begin(t, item.kernel->name, item.cpuArgs);
                t.clock += rand(6000, 14000);  // Triton's Python launcher
                call(t, kTritonLaunch[0]);
                for (int arg = 0; arg < 3; ++arg) builtin(t, kDataPtr);
                call(t, kTritonLaunch[1]);
                launch(t, kCuLaunchKernel,
                       item.mayDrop && step % 16 == 5 ? Flow::kStartOnly : Flow::kPair,
                       item.kernel);
                ret(t, std::size(kTritonLaunch));
                end(t);
                ret(t);
                break;
            case Launcher::kExtern:
                begin(t, "extern_kernels.mm");
                call(t, kMm);
                begin(t, "aten::mm", item.cpuArgs);
                launch(t, kCudaLaunchKernel, Flow::kPair, item.kernel);
                end(t);
                ret(t);
                end(t);
                break;
            case Launcher::kCustom:
                if (step % 8 != 3) break;  // a rarely taken branch of the model
                calls(t, kCustomOp);
                begin(t, "mylib::fused_rms_norm", item.cpuArgs);
                launch(t, kCudaLaunchKernel, Flow::kPair, item.kernel);
                end(t);
                ret(t, std::size(kCustomOp));
                break;
        }
        if (i % 6 == 5) {
            call(t, kEmptyStrided);
            leaf(t, "aten::empty_strided", model_.emptyArgs);
            ret(t);
        }
    }
}

void StepBuilder::build(uint64_t index, Step& step) {
    step.autograd.clear();
    step.main.clear();
    step.launches.clear();
    step.autogradFrames.clear();
    step.frames.clear();
    step_ = &step;
    Thread main{.ops = &step.main,
                .tid = pid_,
                .clock = cpuClock_ + rand(20000, 60000),
                .open = {},
                .frames = &step.frames,
                .outerFrame = std::size(kOuterFrames),
                .openFrames = {}};

    begin(main, "ProfilerStep#").nameNumber = int64_t(index);
    call(main, kTrainStep);
    call(main, kToDevice);
    begin(main, "aten::to", model_.toArgs);
    begin(main, "aten::_to_copy");
    leaf(main, "aten::empty_strided", model_.emptyArgs);
    begin(main, "aten::copy_");
    launch(main, kCudaMemcpyAsync, Flow::kPair, model_.memcpyHtoD);
    end(main);
    end(main);
    end(main);
    ret(main);
    calls(main, kModuleCall);
    call(main, kDynamoFn);
    calls(main, kModuleCall);
    call(main, kModelModule, kModelModuleId);
    leaf(main, "TorchDynamo Cache Lookup");

    const uint64_t compiledSeq = nextSeqNr_++, compiledFlow = nextFwdBwd_++;
    begin(main, "Torch-Compiled Region: 0/0");
    calls(main, kAotForward);
    CpuOp& compiled = begin(main, "CompiledFunction");
    compiled.seqNr = int64_t(compiledSeq);
    compiled.flowPh = 's';
    compiled.flowId = compiledFlow;
    calls(main, kCompiledForward);
    runGraph(main, model_.forward(), index);
    ret(main, std::size(kCompiledForward));
    end(main);
    ret(main, std::size(kAotForward));
    end(main);
    ret(main, 2 * std::size(kModuleCall) + 2);

    calls(main, kModuleCall);
    call(main, kLossModule, kLossModuleId);
    calls(main, kLossForward);
    const uint64_t mseSeq = nextSeqNr_++, mseFlow = nextFwdBwd_++;
    CpuOp& mse = begin(main, "aten::mse_loss", model_.mseArgs);
    mse.seqNr = int64_t(mseSeq);
    mse.flowPh = 's';
    mse.flowId = mseFlow;
    launch(main, kCudaLaunchKernel, Flow::kPair, model_.meanKernel);
    end(main);
    ret(main, std::size(kModuleCall) + 1 + std::size(kLossForward));
    calls(main, kBackward);
    calls(main, kMakeGrads);
    begin(main, "aten::ones_like");
    leaf(main, "aten::empty_like");
    begin(main, "aten::fill_");
    launch(main, kCudaLaunchKernel, Flow::kPair, model_.fillKernel);
    end(main);
    end(main);
    ret(main, std::size(kMakeGrads));
    calls(main, kRunBackward);

    // loss.backward(): the autograd engine's device thread runs it while the main thread waits.
    Thread grad{.ops = &step.autograd,
                .tid = autogradTid_,
                .clock = main.clock + rand(8000, 20000),
                .open = {},
                .frames = &step.autogradFrames,
                .outerFrame = 0,
                .openFrames = {}};
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
    calls(grad, kCompiledBackward);
    runGraph(grad, model_.backward(), index);
    ret(grad, std::size(kCompiledBackward));
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
    ret(main, std::size(kRunBackward) + std::size(kBackward));

    call(main, kOptimizerWrapper);
    begin(main, "Optimizer.step#AdamW.step");
    calls(main, kOptimizerStep);
    for (int i = 0; i < 3; ++i) {
        builtin(main, kLen);
        call(main, kForeachCalls[i]);
        begin(main, Model::kForeachOps[i]);
        launch(main, kCudaLaunchKernel, Flow::kPair, model_.foreachKernels[i]);
        end(main);
        ret(main);
    }
    ret(main, std::size(kOptimizerStep));
    end(main);
    ret(main);
    calls(main, kZeroGrad);
    leaf(main, "Optimizer.zero_grad#AdamW.zero_grad");
    ret(main, std::size(kZeroGrad));
    call(main, kItem);
    begin(main, "aten::item");
    begin(main, "aten::_local_scalar_dense");
    launch(main, kCudaMemcpyAsync, Flow::kPair, model_.memcpyDtoH);
    launch(main, kCudaStreamSynchronize, Flow::kNone);
    end(main);
    end(main);
    ret(main);
    if (index % 8 == 7) {
        calls(main, kSynchronize);
        launch(main, kCudaDeviceSynchronize, Flow::kStartOnly, nullptr, false);
        ret(main, std::size(kSynchronize));
    }
    ret(main);  // train_step
    end(main);

    cpuClock_ = main.clock;
}

}  // namespace stackline::bench
