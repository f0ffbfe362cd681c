"""What the bundled example profiles: the constants of the recorded run, the traceback frames
built from model.py, and the kernels of the compiled graphs and of the eager code, in launch
order. make_example.py lays them out as a Kineto trace and a kernel-information registry."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.join(HERE, "model.py")
RECORDED_PATH = "/home/alice/proj/model.py"  # where model.py lived when the trace was recorded

PID = 1234          # python3 process = main thread id
MAIN_TID = 1234
BWD_TID = 1289      # autograd engine's CUDA device thread
GPU_PID, STREAM = 0, 7
FWD_KEY = "('Torch-Compiled Region: 0/0', False)"
BWD_KEY = "('Torch-Compiled Region: 0/0', True)"
BASE_TIME_NS = 1729999000000000000  # unix ns = baseTimeNanoseconds + ts * 1000
US = 1000           # ns per microsecond; all times are integer ns internally

# ----------------------------------------------------------------------------------------------
# Source frames: every stack string is derived from model.py


def _load_model():
    with open(MODEL, encoding="utf-8") as f:
        lines = f.read().split("\n")
    funcs = []  # (first line, name, indent)
    for i, text in enumerate(lines, 1):
        s = text.lstrip()
        if s.startswith("def "):
            funcs.append((i, s[4:s.index("(")], len(text) - len(s)))
    return lines, funcs


LINES, FUNCS = _load_model()


def frame(func, snippet):
    """The traceback frame of the unique line of `func` in model.py that contains `snippet`."""
    hits = []
    for k, (first, name, indent) in enumerate(FUNCS):
        if name != func:
            continue
        last = len(LINES)
        for first2, _, indent2 in FUNCS[k + 1:]:
            if indent2 <= indent:
                last = first2 - 1
                break
        hits += [n for n in range(first + 1, last + 1) if snippet in LINES[n - 1]]
    if len(hits) != 1:
        raise SystemExit(f"model.py: {len(hits)} lines of {func}() contain {snippet!r}")
    n = hits[0]
    return f'  File "{RECORDED_PATH}", line {n}, in {func}\n    {LINES[n - 1].strip()}\n'


S_RES = "x = x + self.attention(self.norm1(x))"
S_H = "h = F.gelu(self.fc1(self.norm2(x)))"
S_RET = "return x + self.fc2(h)"
S_QKV = "q, k, v = self.qkv(x)"
S_Q = "q = q * (C // self.heads)"
S_SC = "scores = q @ k.transpose(-2, -1)"
S_SM = "probs = scores.softmax(dim=-1)"
S_OUT = "out = (probs @ v)"
S_PROJ = "return self.proj(out)"


def F(snippet):  # a line of Block.forward
    return frame("forward", snippet)


def A(snippet):  # a line of Block.attention, called from forward
    return frame("forward", S_RES) + frame("attention", snippet)


RMS = frame("forward", "x = rms_scale(x)") + frame("rms_scale", "rms_scale_kernel[(rows,)]")

# ----------------------------------------------------------------------------------------------
# The compiled graphs, in Inductor's launch order.
# (kind, name, debug handle or None = left out of the kernel information, GPU µs, stacks,
#  post-grad nodes, pre-grad nodes, launch shape)
# kind: "triton" (Inductor kernel), "user" (hand-written Triton kernel), or an extern op
# ("mm", "addmm", "bmm"), whose name is then the cuBLAS kernel.

TF32_TN = "sm80_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x16_stage4_warpsize2x2x1_tensor16x8x8_kernel"
TF32_NN = "sm80_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x16_stage4_warpsize2x2x1_tensor16x8x8_kernel"
TF32_NT = "sm80_xmma_gemm_f32f32_tf32f32_f32_nt_n_tilesize128x128x16_stage4_warpsize2x2x1_tensor16x8x8_kernel"
SGEMM_TN = "ampere_sgemm_64x64_tn"
SGEMM_NN = "ampere_sgemm_128x64_nn"
SGEMM_NT = "ampere_sgemm_128x64_nt"

# launch shapes: (grid x, grid y, grid z, threads per block, registers, shared memory bytes)
POI = (4096, 1, 1, 128, 20, 0)
PER = (4096, 1, 1, 64, 32, 0)
RED = (256, 1, 1, 256, 40, 2048)
GEMM = (6, 32, 1, 256, 158, 49152)
BGEMM = (16, 16, 8, 256, 158, 49152)
SG = (4, 64, 1, 128, 122, 16384)

FORWARD = [
    ("user", "rms_scale_kernel_0", 1, 8.1, [RMS],
     ["triton_kernel_wrapper_functional_proxy"], ["triton_kernel_wrapper_functional"], (4096, 1, 1, 128, 26, 0)),
    ("triton", "triton_per_fused_native_layer_norm_0", 2, 7.4, [F(S_RES)],
     ["var_mean", "sub", "add", "rsqrt", "mul", "mul_1", "add_1"], ["layer_norm"], PER),
    ("addmm", TF32_TN, 3, 27.9, [A(S_QKV)], ["addmm"], ["linear"], GEMM),
    ("triton", "triton_poi_fused_clone_mul_1", 4, 4.6, [A(S_Q), A(S_QKV)],
     ["mul_2", "clone"], ["mul", "permute"], POI),
    ("triton", "triton_poi_fused_clone_2", 5, 4.3, [A(S_QKV)], ["clone_1"], ["permute"], POI),
    ("triton", "triton_poi_fused_clone_3", None, 4.4, [A(S_QKV)], ["clone_2"], ["permute"], POI),
    ("bmm", TF32_NT, 7, 91.8, [A(S_SC)], ["bmm"], ["matmul"], BGEMM),
    ("triton", "triton_red_fused__softmax_4", 8, 447.3, [A(S_SM)],
     ["amax", "sub_1", "exp", "sum_1", "div"], ["softmax"], (16384, 1, 1, 256, 46, 4096)),
    ("bmm", TF32_NN, 9, 89.6, [A(S_OUT)], ["bmm_1"], ["matmul_1"], BGEMM),
    ("triton", "triton_poi_fused_clone_5", None, 4.5, [A(S_OUT)], ["clone_3"], ["reshape"], POI),
    ("mm", SGEMM_TN, 11, 11.2, [A(S_PROJ)], ["mm"], ["linear_1"], SG),
    ("triton", "triton_per_fused_add_native_layer_norm_6", 12, 9.3, [F(S_H), A(S_PROJ), F(S_RES)],
     ["var_mean_1", "add_2", "add_3", "rsqrt_1", "sub_2", "mul_3", "mul_4", "add_4"],
     ["layer_norm_1", "linear_1", "add"], PER),
    ("mm", TF32_TN, 13, 33.0, [F(S_H)], ["mm_1"], ["linear_2"], GEMM),
    ("triton", "triton_poi_fused_addmm_gelu_7", 14, 13.4, [F(S_H)],
     ["add_5", "mul_5", "mul_6", "erf", "add_6", "mul_7"], ["linear_2", "gelu"], (16384, 1, 1, 128, 24, 0)),
    ("mm", TF32_TN, 15, 32.6, [F(S_RET)], ["mm_2"], ["linear_3"], GEMM),
    ("triton", "triton_poi_fused_add_addmm_8", 16, 6.2, [F(S_RET)], ["add_7", "add_8"], ["linear_3", "add_1"], POI),
]

BACKWARD = [
    ("triton", "triton_red_fused_sum_0", 17, 6.3, [F(S_RET)], ["sum_2"], ["linear_3"], RED),
    ("mm", TF32_NN, 18, 33.4, [F(S_RET)], ["mm_3"], ["linear_3"], GEMM),
    ("mm", TF32_NT, 19, 35.1, [F(S_RET)], ["mm_4"], ["linear_3"], GEMM),
    ("triton", "triton_poi_fused_gelu_gelu_backward_1", 20, 17.6, [F(S_H)],
     ["mul_9", "mul_10", "mul_11", "exp_1", "mul_12", "add_10", "mul_13"], ["gelu"], (16384, 1, 1, 128, 28, 0)),
    ("triton", "triton_red_fused_sum_2", 21, 9.2, [F(S_H)], ["sum_3"], ["linear_2"], RED),
    ("mm", TF32_NN, 22, 33.9, [F(S_H)], ["mm_5"], ["linear_2"], GEMM),
    ("mm", TF32_NT, 23, 35.4, [F(S_H)], ["mm_6"], ["linear_2"], GEMM),
    ("triton", "triton_per_fused_add_native_layer_norm_backward_3", 24, 14.2, [F(S_H), F(S_RES)],
     ["mul_15", "sum_4", "mul_16", "sum_5", "sub_4", "mul_17", "add_11"], ["layer_norm_1", "add"], PER),
    ("triton", "triton_red_fused_native_layer_norm_backward_4", 25, 11.8, [F(S_H)],
     ["mul_18", "sum_6", "sum_7"], ["layer_norm_1"], RED),
    ("triton", "triton_red_fused_sum_5", 26, 6.1, [A(S_PROJ)], ["sum_8"], ["linear_1"], RED),
    ("mm", SGEMM_NN, 27, 11.4, [A(S_PROJ)], ["mm_7"], ["linear_1"], SG),
    ("mm", SGEMM_NT, 28, 12.3, [A(S_PROJ)], ["mm_8"], ["linear_1"], SG),
    ("triton", "triton_poi_fused_clone_6", None, 5.0, [A(S_OUT)], ["clone_4"], ["reshape"], POI),
    ("bmm", TF32_NT, 30, 90.7, [A(S_OUT)], ["bmm_2"], ["matmul_1"], BGEMM),
    ("bmm", TF32_TN, 31, 88.9, [A(S_OUT)], ["bmm_3"], ["matmul_1"], BGEMM),
    ("triton", "triton_red_fused__softmax_backward_data_7", 32, 556.8, [A(S_SM)],
     ["mul_19", "sum_9", "neg", "fma"], ["softmax"], (16384, 1, 1, 256, 48, 4096)),
    ("bmm", TF32_NN, 33, 92.4, [A(S_SC)], ["bmm_4"], ["matmul"], BGEMM),
    ("bmm", TF32_TN, 34, 90.2, [A(S_SC)], ["bmm_5"], ["matmul"], BGEMM),
    ("triton", "triton_poi_fused_cat_clone_mul_8", 35, 10.3, [A(S_Q), A(S_QKV)],
     ["mul_20", "cat", "clone_5"], ["mul", "permute"], (12288, 1, 1, 128, 22, 0)),
    ("triton", "triton_red_fused_sum_9", 36, 8.4, [A(S_QKV)], ["sum_10"], ["linear"], RED),
    ("mm", TF32_NN, 37, 28.7, [A(S_QKV)], ["mm_9"], ["linear"], GEMM),
    ("mm", TF32_NT, 38, 30.2, [A(S_QKV)], ["mm_10"], ["linear"], GEMM),
    ("triton", "triton_red_fused_native_layer_norm_backward_10", 39, 12.1, [F(S_RES)],
     ["mul_22", "sum_11", "sum_12"], ["layer_norm"], RED),
]

# Eager (not compiled) CUDA kernels of the training loop.
K_MSE = ("void at::native::vectorized_elementwise_kernel<4, at::native::mse_kernel_cuda(at::TensorIteratorBase&)"
         "::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float, float)#1}, "
         "at::detail::Array<char*, 3> >(int, at::native::mse_kernel_cuda(at::TensorIteratorBase&)::{lambda()#1}"
         "::operator()() const::{lambda()#2}::operator()() const::{lambda(float, float)#1}, at::detail::Array<char*, 3>)")
K_MEAN = ("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, "
          "float>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, "
          "unsigned int, float, 4>)")
K_FILL = ("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, at::detail::Array<char*, 1> >"
          "(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)")
K_MSE_BWD = ("void at::native::vectorized_elementwise_kernel<4, at::native::mse_backward_cuda_kernel(at::TensorIterator&, "
             "c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float, float, "
             "float)#1}, at::detail::Array<char*, 4> >(int, at::native::mse_backward_cuda_kernel(at::TensorIterator&, "
             "c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float, float, "
             "float)#1}, at::detail::Array<char*, 4>)")
K_FOREACH_ADD = ("void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::"
                 "TensorListMetadata<1>, at::native::(anonymous namespace)::UnaryOpScalarFunctor<float, 1, 1, 0>, "
                 "std::plus<float>, float>(at::native::(anonymous namespace)::TensorListMetadata<1>, at::native::"
                 "(anonymous namespace)::UnaryOpScalarFunctor<float, 1, 1, 0>, std::plus<float>, float)")
K_ADAMW = ("void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::"
           "FusedOptimizerTensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor<float, 4, "
           "(at::native::ADAM_MODE)1, false>, float*, double, double, double, double, double, bool, float*, float*>"
           "(at::native::(anonymous namespace)::FusedOptimizerTensorListMetadata<4>, at::native::(anonymous namespace)::"
           "FusedAdamMathFunctor<float, 4, (at::native::ADAM_MODE)1, false>, float*, double, double, double, double, "
           "double, bool, float*, float*)")

BATCH_BYTES = 2 * 2048 * 256 * 4   # one (batch, seq, dim) float32 tensor
N_PARAMS = 12                      # weights and biases of norm1, qkv, proj, norm2, fc1, fc2
