#include "trace_model.h"

namespace stackline::bench {
namespace {

constexpr int kLayers = 4;
constexpr uint64_t kTokens = 4096;  // batch 8 x sequence 512
constexpr uint64_t kHidden = 1024;
constexpr uint64_t kFfn = 4096;

std::string frame(int line, std::string_view code) {
    return "  File \"/home/user/model.py\", line " + std::to_string(line) + ", in forward\n    " +
           std::string(code) + "\n";
}

// A line of Block.forward, called from Model.forward: FX records both frames.
std::string blockFrame(int line, std::string_view code) {
    return frame(97, "x = block(x)") + frame(line, code);
}

constexpr std::string_view kGemmPrefix = "sm80_xmma_gemm_f16f16_f16f32_f32_";
constexpr std::string_view kGemmSuffix =
    "_n_tilesize128x128x32_stage4_warpsize2x2x1_tensor16x8x16_kernel";

}  // namespace

std::string Model::kernelTail(std::string_view name) const {
    // Launch geometry and occupancy vary between kernels, not between launches of one kernel.
    const uint64_t h = mix(hashName(name));
    const uint64_t block = 128u << (h % 3);
    const uint64_t grid = 108 * (1 + (h >> 8) % 64);
    const uint64_t regs = 16 + 8 * ((h >> 16) % 12);
    const uint64_t smem = ((h >> 24) % 4) * 16384;
    const double blocksPerSm = double(grid) / 108.0;
    const double warpsPerSm = blocksPerSm * double(block) / 32.0;
    const int occupancy = int(25 + (h >> 32) % 76);
    const std::string b = br(pretty_, 6);
    char text[512];
    std::snprintf(text, sizeof text,
                  ",%s\"registers per thread\": %llu,%s\"shared memory\": %llu,%s"
                  "\"blocks per SM\": %f,%s\"warps per SM\": %f,%s\"grid\": [%llu, 1, 1],%s"
                  "\"block\": [%llu, 1, 1],%s\"est. achieved occupancy %%\": %d",
                  b.c_str(), (unsigned long long)regs, b.c_str(), (unsigned long long)smem,
                  b.c_str(), blocksPerSm, b.c_str(), warpsPerSm, b.c_str(),
                  (unsigned long long)grid, b.c_str(), (unsigned long long)block, b.c_str(),
                  occupancy);
    return text;
}

std::string Model::tritonArgs(const std::string& name, uint64_t numel) {
    // Inductor names the generated module after a content hash; derive a stable one from the name.
    static constexpr char kBase32[] = "abcdefghijklmnopqrstuvwxyz234567";
    std::string hash = "c";
    for (uint64_t h = mix(hashName(name)); hash.size() < 52; h = mix(h)) hash += kBase32[h % 32];
    const uint64_t xblock = 256u << (numel % 3);
    const std::string rows = std::to_string(kTokens), cols = std::to_string(numel / kTokens);
    return ", \"Input Dims\": [[" + rows + ", " + cols + "], [" + cols +
           "], []], \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\"], "
           "\"Input Strides\": [[" +
           cols + ", 1], [1], []], \"Concrete Inputs\": [\"\", \"\", \"" + std::to_string(numel) +
           "\"], \"kernel_backend\": \"triton\", \"kernel_name\": \"" + name +
           "\", \"kernel_file\": \"/tmp/torchinductor_user/" + hash.substr(1, 2) + "/" + hash +
           ".py\", \"kernel_hash\": \"" + hash +
           "\", \"kernel_kwargs\": \"XBLOCK=" + std::to_string(xblock) + "\", \"grid\": \"grid(" +
           std::to_string((numel + xblock - 1) / xblock) +
           ", 1, 1)\", \"num_warps\": 4, \"num_stages\": 1, \"stream\": 0";
}

std::string Model::mmArgs(Shape s) {
    const std::string m = std::to_string(s.rows), k = std::to_string(s.inner),
                      n = std::to_string(s.cols);
    return ", \"Input Dims\": [[" + m + ", " + k + "], [" + k + ", " + n +
           "]], \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\"], \"Input Strides\": [[" + k +
           ", 1], [1, " + k + "]], \"Concrete Inputs\": [\"\", \"\"]";
}

GraphItem& Model::triton(std::vector<GraphItem>& graph, std::vector<KernelInfoEntry>* info,
                         std::string name, int64_t durUs, uint64_t numel,
                         std::vector<std::string> stacks, std::vector<std::string> post,
                         std::vector<std::string> pre) {
    const int handle = ++debugHandle_;
    for (std::string& node : post)
        (node += '_') += std::to_string(node_++);  // GCC 12: -Wrestrict on "_" + s
    if (info) {
        info->push_back({name + ":" + std::to_string(handle), std::move(stacks), std::move(post),
                         std::move(pre)});
    }
    std::string args = tritonArgs(name, numel);
    return graph.emplace_back(
        GraphItem{Launcher::kTriton, addKernel(std::move(name), durUs), std::move(args)});
}

void Model::mm(std::vector<GraphItem>& graph, std::vector<KernelInfoEntry>& info,
               const GpuDef* gemm, Shape s, std::string stack, std::string node,
               std::string preNode) {
    info.push_back({"extern_kernels.mm:" + std::to_string(++debugHandle_),
                    {std::move(stack)},
                    {node + "_" + std::to_string(node_++)},
                    {std::move(preNode)}});
    graph.push_back(GraphItem{Launcher::kExtern, gemm, mmArgs(s)});
}

void Model::buildEager() {
    const std::string b6 = br(pretty_, 6);
    memcpyHtoD =
        addGpu("Memcpy HtoD (Pageable -> Device)", "gpu_memcpy",
               "," + b6 + "\"bytes\": 4194304, \"memory bandwidth (GB/s)\": 11.83", 355 * kUs);
    memcpyDtoH = addGpu("Memcpy DtoH (Device -> Pageable)", "gpu_memcpy",
                        "," + b6 + "\"bytes\": 4, \"memory bandwidth (GB/s)\": 0.0025", 2 * kUs);
    meanKernel = addKernel(
        "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
        "at::native::MeanOps<float, float, float, float>, unsigned int, float, 4> "
        ">(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, "
        "unsigned int, float, 4>)",
        9);
    fillKernel = addKernel(
        "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
        "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, "
        "at::detail::Array<char*, 1>)",
        2);
    mseBackwardKernel = addKernel(
        "void at::native::vectorized_elementwise_kernel<4, "
        "at::native::mse_backward_cuda_kernel(at::TensorIterator&, c10::Scalar const&)::"
        "{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float, "
        "float, float)#1}, at::detail::Array<char*, 4> >(int, "
        "at::native::mse_backward_cuda_kernel(at::TensorIterator&, c10::Scalar const&)::"
        "{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float, "
        "float, float)#1}, at::detail::Array<char*, 4>)",
        14);
    accumulateKernel = addKernel(
        "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
        "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, "
        "at::detail::Array<char*, 3>)",
        6);
    static constexpr std::string_view kForeach[3][3] = {
        {"1", "BinaryOpScalarFunctor<float, 1, 1, 0>", "std::multiplies<float>"},
        {"3", "PointwiseOpScalarFunctor<float, 3, 3, 0>", "std::multiplies<float>"},
        {"2", "BinaryOpListAlphaFunctor<float, 2, 2, 0>", "std::plus<float>"},
    };
    for (int i = 0; i < 3; ++i) {
        const std::string ns = "at::native::(anonymous namespace)::";
        const std::string params = ns + "TensorListMetadata<" + std::string(kForeach[i][0]) +
                                   ">, " + ns + std::string(kForeach[i][1]) + ", " +
                                   std::string(kForeach[i][2]) + ", float";
        foreachKernels[i] =
            addKernel("void " + ns + "multi_tensor_apply_kernel<" + params + ">(" + params + ")",
                      40 + 15 * i);
    }
    toArgs =
        ", \"Input Dims\": [[8, 512, 1024], [], [], [], [], []], \"Input type\": "
        "[\"float\", \"Scalar\", \"Scalar\", \"Scalar\", \"Scalar\", \"\"], \"Input "
        "Strides\": [[524288, 1024, 1], [], [], [], [], []], \"Concrete Inputs\": [\"\", "
        "\"15\", \"0\", \"cuda:0\", \"True\", \"\"]";
    emptyArgs =
        ", \"Input Dims\": [[], [], [], [], [], []], \"Input type\": [\"ScalarList\", "
        "\"ScalarList\", \"Scalar\", \"\", \"Scalar\", \"\"], \"Input Strides\": [[], [], "
        "[], [], [], []], \"Concrete Inputs\": [\"[4096, 1024]\", \"[1024, 1]\", \"15\", "
        "\"\", \"cuda:0\", \"\"]";
    mseArgs =
        ", \"Input Dims\": [[8, 512, 1024], [8, 512, 1024], []], \"Input type\": "
        "[\"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\"], \"Input Strides\": [[524288, "
        "1024, 1], [524288, 1024, 1], []], \"Concrete Inputs\": [\"\", \"\", \"1\"]";
}

void Model::buildForward() {
    int n = 0;  // Inductor numbers a graph's kernels in order
    auto name = [&n](std::string_view stem) { return std::string(stem) + std::to_string(n++); };
    const GpuDef* gemm = addKernel(std::string(kGemmPrefix) + "tn" + std::string(kGemmSuffix), 95);
    triton(fwd_, &fwdInfo_, name("triton_poi_fused_add_"), 8, kTokens * kHidden,
           {frame(95, "x = self.embed(idx) + self.pos_emb")}, {"add"}, {"add"});
    for (int l = 0; l < kLayers; ++l) {
        const std::string blk = "l__self___blocks_" + std::to_string(l) + "_";
        triton(fwd_, &fwdInfo_, name("triton_red_fused_native_layer_norm_"), 12, kTokens * kHidden,
               {blockFrame(52, "h = self.norm1(x)")},
               {"var_mean", "sub", "add", "rsqrt", "mul", "mul", "add"}, {blk + "norm1"});
        mm(fwd_, fwdInfo_, gemm, {kTokens, kHidden, kFfn}, blockFrame(53, "h = self.fc1(h)"),
           "mm_default", blk + "fc1");
        triton(fwd_, &fwdInfo_, name("triton_poi_fused_gelu_"), 25, kTokens * kFfn,
               {blockFrame(54, "h = F.gelu(h)")}, {"mul", "mul", "erf", "add", "mul"}, {"gelu"})
            .mayDrop = l == 1;
        mm(fwd_, fwdInfo_, gemm, {kTokens, kFfn, kHidden}, blockFrame(55, "h = self.fc2(h)"),
           "mm_default", blk + "fc2");
        triton(fwd_, &fwdInfo_, name("triton_per_fused_add_native_layer_norm_"), 15,
               kTokens * kHidden,
               {blockFrame(56, "x = x + h"), blockFrame(57, "x = self.norm2(x)")},
               {"add", "var_mean", "sub", "add", "rsqrt", "mul"}, {"add", blk + "norm2"});
        if (l == 1) {
            // A custom CUDA op: its kernel has an entry but is no Triton kernel, so the reference
            // warns about it.
            fwdInfo_.push_back({"fused_rms_norm_kernel:" + std::to_string(++debugHandle_),
                                {frame(98, "x = torch.ops.mylib.fused_rms_norm(x, self.scale)")},
                                {"fused_rms_norm_default_" + std::to_string(node_++)},
                                {"fused_rms_norm"}});
            fwd_.push_back(GraphItem{Launcher::kCustom, addKernel("fused_rms_norm_kernel", 10),
                                     mmArgs({kTokens, kHidden, 1})});
        }
    }
    triton(fwd_, nullptr, name("triton_poi_fused__to_copy_"), 6, kTokens * kHidden,
           {frame(99, "return x.float()")}, {"convert_element_type"}, {"float_1"});
}

void Model::buildBackward() {
    int n = 0;
    auto name = [&n](std::string_view stem) { return std::string(stem) + std::to_string(n++); };
    const GpuDef* dgrad =
        addKernel(std::string(kGemmPrefix) + "nn" + std::string(kGemmSuffix), 100);
    const GpuDef* wgrad =
        addKernel(std::string(kGemmPrefix) + "nt" + std::string(kGemmSuffix), 110);
    // Same name as the forward graph's first kernel, different stack: Inductor numbers the kernels
    // of each graph from 0.
    triton(bwd_, &bwdInfo_, name("triton_poi_fused_add_"), 8, kTokens * kHidden,
           {blockFrame(56, "x = x + h")}, {"add"}, {"add"});
    for (int l = kLayers - 1; l >= 0; --l) {
        const std::string blk = "l__self___blocks_" + std::to_string(l) + "_";
        triton(bwd_, &bwdInfo_, name("triton_per_fused_native_layer_norm_backward_"), 18,
               kTokens * kHidden, {blockFrame(57, "x = self.norm2(x)")},
               {"mul", "sum", "mul", "sub", "mul"}, {blk + "norm2"});
        mm(bwd_, bwdInfo_, dgrad, {kTokens, kHidden, kFfn}, blockFrame(55, "h = self.fc2(h)"), "mm",
           blk + "fc2");
        mm(bwd_, bwdInfo_, wgrad, {kHidden, kTokens, kFfn}, blockFrame(55, "h = self.fc2(h)"), "mm",
           blk + "fc2");
        triton(bwd_, &bwdInfo_, name("triton_poi_fused_gelu_gelu_backward_"), 30, kTokens * kFfn,
               {blockFrame(54, "h = F.gelu(h)")}, {"mul", "erf", "add", "mul", "exp", "mul"},
               {"gelu"});
        mm(bwd_, bwdInfo_, dgrad, {kTokens, kFfn, kHidden}, blockFrame(53, "h = self.fc1(h)"), "mm",
           blk + "fc1");
        mm(bwd_, bwdInfo_, wgrad, {kFfn, kTokens, kHidden}, blockFrame(53, "h = self.fc1(h)"), "mm",
           blk + "fc1");
        triton(bwd_, &bwdInfo_, name("triton_red_fused_add_native_layer_norm_backward_"), 20,
               kTokens * kHidden,
               {blockFrame(52, "h = self.norm1(x)"), blockFrame(56, "x = x + h")},
               {"mul", "sum", "sub", "add"}, {blk + "norm1", "add"});
        triton(bwd_, l == 0 ? nullptr : &bwdInfo_, name("triton_red_fused_sum_"), 10,
               kTokens * kFfn, {blockFrame(53, "h = self.fc1(h)")}, {"sum"}, {blk + "fc1"});
    }
}

std::string Model::kernelInfoJson() const {
    std::string out = "{";
    auto graph = [&out](std::string_view key, const std::vector<KernelInfoEntry>& entries) {
        out += "\n  " + jsonQuote(key) + ": {";
        for (size_t i = 0; i < entries.size(); ++i) {
            const KernelInfoEntry& e = entries[i];
            out += (i ? ",\n    " : "\n    ") + jsonQuote(e.key) +
                   ": {\"stack_traces\": " + jsonList(e.stacks) +
                   ", \"post_grad_nodes\": " + jsonList(e.postGradNodes) +
                   ", \"pre_grad_nodes\": " + jsonList(e.preGradNodes) + "}";
        }
        out += "\n  }";
    };
    graph("('Torch-Compiled Region: 0/0', False)", fwdInfo_);
    out += ",";
    graph("('Torch-Compiled Region: 0/0', True)", bwdInfo_);
    return out + "\n}\n";
}

}  // namespace stackline::bench
