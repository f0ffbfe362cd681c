#include "trace_generator.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace stackline::bench {
namespace {

constexpr int64_t kUs = 1000;  // times are integer ns, written as µs with three decimals
constexpr int64_t kTraceStartNs = 2413669096141794;  // 13-digit µs, as in recent Kineto files
constexpr uint64_t kGpuPid = 0;
constexpr uint64_t kStream = 7;
constexpr int kLayers = 4;
constexpr uint64_t kTokens = 4096;  // batch 8 x sequence 512
constexpr uint64_t kHidden = 1024;
constexpr uint64_t kFfn = 4096;
constexpr uint64_t kFirstCorrelation = 183412;  // far above fwdbwd ids: the two spaces never meet

uint64_t mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

uint64_t hashName(std::string_view s) {
    uint64_t h = 1469598103934665603ull;
    for (char c : s) h = (h ^ uint8_t(c)) * 1099511628211ull;
    return h;
}

// ------------------------------------------------------------------------------------------------
// Output

// Buffered writer. Kineto's layout and the compact one differ only in the breaks between fields.
class Sink {
public:
    Sink(std::FILE* file, bool pretty) : file_(file), pretty_(pretty), buf_(kCapacity) {}

    bool pretty() const { return pretty_; }
    uint64_t written() const { return flushed_ + len_; }

    void lit(std::string_view s) {
        if (len_ + s.size() > kCapacity) {
            flush();
            if (s.size() > kCapacity) return writeOut(s.data(), s.size());
        }
        std::memcpy(buf_.data() + len_, s.data(), s.size());
        len_ += s.size();
    }

    void u64(uint64_t v) {
        static constexpr char kPairs[] =
            "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
            "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
            "8081828384858687888990919293949596979899";
        char tmp[20];
        char* p = tmp + sizeof tmp;
        while (v >= 100) {
            p -= 2;
            std::memcpy(p, kPairs + (v % 100) * 2, 2);
            v /= 100;
        }
        if (v >= 10) {
            p -= 2;
            std::memcpy(p, kPairs + v * 2, 2);
        } else {
            *--p = char('0' + v);
        }
        lit({p, size_t(tmp + sizeof tmp - p)});
    }

    // Kineto's fmtTs: integer µs, '.', exactly three digits.
    void ts(int64_t ns) {
        u64(uint64_t(ns / kUs));
        const int frac = int(ns % kUs);
        const char digits[4] = {'.', char('0' + frac / 100), char('0' + frac / 10 % 10),
                                char('0' + frac % 10)};
        lit({digits, 4});
    }

    // Between two fields: newline and indentation in Kineto's layout, a space otherwise.
    void br(int indent) { pretty_ ? lit(kIndents.substr(0, size_t(indent) + 1)) : lit(" "); }
    // After an opening or before a closing brace: nothing in the compact layout.
    void br0(int indent) {
        if (pretty_) lit(kIndents.substr(0, size_t(indent) + 1));
    }

    void flush() {
        writeOut(buf_.data(), len_);
        len_ = 0;
    }

private:
    static constexpr size_t kCapacity = size_t(8) << 20;
    static constexpr std::string_view kIndents = "\n        ";

    void writeOut(const char* data, size_t n) {
        if (file_ && n && std::fwrite(data, 1, n, file_) != n) {
            throw std::runtime_error(std::string("trace write failed: ") + std::strerror(errno));
        }
        flushed_ += n;
    }

    std::FILE* file_;  // null: count bytes only
    bool pretty_;
    std::vector<char> buf_;
    size_t len_ = 0;
    uint64_t flushed_ = 0;
};

// Sink::br for strings built once per layout.
std::string br(bool pretty, int indent) {
    return pretty ? "\n" + std::string(size_t(indent), ' ') : " ";
}

std::string jsonQuote(std::string_view s) {
    std::string out = "\"";
    for (char c : s) {
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            default:
                out += c;
        }
    }
    return out + '"';
}

std::string jsonList(const std::vector<std::string>& items) {
    std::string out = "[";
    for (const std::string& item : items) out += (out.size() > 1 ? ", " : "") + jsonQuote(item);
    return out + "]";
}

// ------------------------------------------------------------------------------------------------
// The model: what one training step runs

struct ApiDef {
    std::string_view name;
    std::string_view cat;
    int cbid;
    int64_t minNs, maxNs;  // CPU time of the call (sync calls also wait for the GPU)
};

constexpr ApiDef kCuLaunchKernel{"cuLaunchKernel", "cuda_driver", 307, 4000, 9000};
constexpr ApiDef kCudaLaunchKernel{"cudaLaunchKernel", "cuda_runtime", 211, 3000, 7000};
constexpr ApiDef kCudaMemcpyAsync{"cudaMemcpyAsync", "cuda_runtime", 41, 8000, 15000};
constexpr ApiDef kCudaStreamSynchronize{"cudaStreamSynchronize", "cuda_runtime", 131, 2000, 4000};
constexpr ApiDef kCudaStreamIsCapturing{"cudaStreamIsCapturing", "cuda_runtime", 317, 400, 1500};
constexpr ApiDef kCudaDeviceSynchronize{"cudaDeviceSynchronize", "cuda_runtime", 165, 3000, 6000};

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

std::string frame(int line, std::string_view code) {
    return "  File \"/home/user/model.py\", line " + std::to_string(line) + ", in forward\n    " +
           std::string(code) + "\n";
}

// A line of Block.forward, called from Model.forward: FX records both frames.
std::string blockFrame(int line, std::string_view code) {
    return frame(97, "x = block(x)") + frame(line, code);
}

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
    for (std::string& node : post) node += "_" + std::to_string(node_++);
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

constexpr std::string_view kGemmPrefix = "sm80_xmma_gemm_f16f16_f16f32_f32_";
constexpr std::string_view kGemmSuffix =
    "_n_tilesize128x128x32_stage4_warpsize2x2x1_tensor16x8x16_kernel";

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

// ------------------------------------------------------------------------------------------------
// Steps

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

// ------------------------------------------------------------------------------------------------
// Events

class Emitter {
public:
    Emitter(Sink& sink, uint64_t pid) : s_(sink), pid_(pid) {}

    uint64_t events() const { return events_; }

    void cpuOps(const std::vector<CpuOp>& ops, uint64_t tid) {
        for (const CpuOp& op : ops) cpuOp(op, tid);
    }

    void cpuOp(const CpuOp& op, uint64_t tid) {
        open();
        head("cpu_op", op.name, op.nameNumber, pid_, tid, op.ts, op.dur);
        argsOpen();
        s_.lit("\"External id\": ");
        s_.u64(op.externalId);
        s_.lit(s_.pretty() ? ",\"Record function id\": 0, \"Ev Idx\": "
                           : ", \"Record function id\": 0, \"Ev Idx\": ");
        s_.u64(op.evIdx);
        if (op.seqNr >= 0) {
            s_.lit(", \"Fwd thread id\": ");
            s_.u64(uint64_t(op.fwdThreadId));
            s_.lit(", \"Sequence number\": ");
            s_.u64(uint64_t(op.seqNr));
        }
        s_.lit(op.extra);
        argsClose();
        close();
        if (op.flowPh) flow(op.flowPh, op.flowId, pid_, tid, op.ts, "fwdbwd");
    }

    // NVIDIA order: [GPU activity][f][runtime][s].
    void launches(const std::vector<Launch>& launches) {
        for (const Launch& l : launches) {
            const bool linked = l.flow == Flow::kPair;
            if (l.gpu) {
                gpu(*l.gpu, l.gpuTs, l.gpuDur, linked ? l.externalId : 0, l.correlation);
                if (linked) flow('f', l.correlation, kGpuPid, kStream, l.gpuTs, "ac2g");
            }
            runtime(l);
            if (linked || l.flow == Flow::kStartOnly) {
                flow('s', l.correlation, pid_, l.tid, l.ts, "ac2g");
            } else if (l.flow == Flow::kEndOnly) {
                flow('f', l.correlation, pid_, l.tid, l.ts, "ac2g");
            }
        }
    }

    // Metadata event; pid, tid and value are JSON text.
    void meta(std::string_view name, int64_t ts, std::string_view pid, std::string_view tid,
              std::string_view key, std::string_view value) {
        open();
        s_.lit("\"name\": \"");
        s_.lit(name);
        s_.lit("\", \"ph\": \"M\", \"ts\": ");
        s_.ts(ts);
        s_.lit(", \"pid\": ");
        s_.lit(pid);
        s_.lit(", \"tid\": ");
        s_.lit(tid);
        s_.lit(",");
        s_.br(4);
        s_.lit("\"args\": {");
        s_.br0(6);
        s_.lit("\"");
        s_.lit(key);
        s_.lit("\": ");
        s_.lit(value);
        argsClose();
        close();
    }

    void profilerSpan(int64_t start, int64_t end, uint64_t opCount) {
        open();
        s_.lit("\"ph\": \"X\", \"cat\": \"Trace\", \"ts\": ");
        s_.ts(start);
        s_.lit(", \"dur\": ");
        s_.ts(end - start);
        s_.lit(",");
        s_.br(4);
        s_.lit("\"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\",");
        s_.br(4);
        s_.lit("\"name\": \"PyTorch Profiler (0)\",");
        s_.br(4);
        s_.lit("\"args\": {");
        s_.br0(6);
        s_.lit("\"Op count\": ");
        s_.u64(opCount);
        argsClose();
        close();
    }

    void globalInstant(std::string_view name, std::string_view pidTid, int64_t ts) {
        open();
        s_.lit("\"name\": \"");
        s_.lit(name);
        s_.lit("\", \"ph\": \"i\", \"s\": \"g\",");
        s_.br(4);
        s_.lit(pidTid);
        s_.lit(", \"ts\": ");
        s_.ts(ts);
        close();
    }

private:
    void open() {
        s_.lit(events_++ ? ",\n" : "\n");
        s_.lit(s_.pretty() ? "  {" : "{");
        s_.br0(4);
    }
    void close() {
        s_.br0(2);
        s_.lit("}");
    }
    void argsOpen() {
        s_.lit(",");
        s_.br(4);
        s_.lit("\"args\": {");
        s_.br0(6);
    }
    void argsClose() {
        s_.br0(4);
        s_.lit("}");
    }

    void head(std::string_view cat, std::string_view name, int64_t nameNumber, uint64_t pid,
              uint64_t tid, int64_t ts, int64_t dur) {
        s_.lit("\"ph\": \"X\", \"cat\": \"");
        s_.lit(cat);
        s_.lit("\", \"name\": \"");
        s_.lit(name);
        if (nameNumber >= 0) s_.u64(uint64_t(nameNumber));
        s_.lit("\", \"pid\": ");
        s_.u64(pid);
        s_.lit(", \"tid\": ");
        s_.u64(tid);
        s_.lit(",");
        s_.br(4);
        s_.lit("\"ts\": ");
        s_.ts(ts);
        s_.lit(", \"dur\": ");
        s_.ts(dur);
    }

    void gpu(const GpuDef& def, int64_t ts, int64_t dur, uint64_t externalId,
             uint64_t correlation) {
        open();
        head(def.cat, def.name, -1, kGpuPid, kStream, ts, dur);
        argsOpen();
        if (externalId) {
            s_.lit("\"External id\": ");
            s_.u64(externalId);
            s_.lit(",");
            s_.br(6);
        }
        if (def.cat == "kernel") s_.lit("\"queued\": 0, ");
        s_.lit("\"device\": 0, \"context\": 1,");
        s_.br(6);
        s_.lit("\"stream\": 7, \"correlation\": ");
        s_.u64(correlation);
        s_.lit(def.tail);
        argsClose();
        close();
    }

    void runtime(const Launch& l) {
        open();
        head(l.api->cat, l.api->name, -1, pid_, l.tid, l.ts, l.dur);
        argsOpen();
        if (l.externalId) {
            s_.lit("\"External id\": ");
            s_.u64(l.externalId);
            s_.lit(",");
            s_.br(6);
        }
        s_.lit("\"cbid\": ");
        s_.u64(uint64_t(l.api->cbid));
        s_.lit(", \"correlation\": ");
        s_.u64(l.correlation);
        argsClose();
        close();
    }

    void flow(char ph, uint64_t id, uint64_t pid, uint64_t tid, int64_t ts, std::string_view cat) {
        open();
        s_.lit(ph == 's' ? "\"ph\": \"s\", \"id\": " : "\"ph\": \"f\", \"id\": ");
        s_.u64(id);
        s_.lit(", \"pid\": ");
        s_.u64(pid);
        s_.lit(", \"tid\": ");
        s_.u64(tid);
        s_.lit(", \"ts\": ");
        s_.ts(ts);
        s_.lit(",");
        s_.br(4);
        s_.lit("\"cat\": \"");
        s_.lit(cat);
        s_.lit("\", \"name\": \"");
        s_.lit(cat);
        s_.lit(ph == 'f' ? "\", \"bp\": \"e\"" : "\"");
        close();
    }

    Sink& s_;
    uint64_t pid_;
    uint64_t events_ = 0;
};

void writeHeader(Sink& s, uint32_t seed) {
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
          "\"record_shapes\": 1," + b2 + "\"with_stack\": 0," + b2 + "\"with_flops\": 0," + b2 +
          "\"with_modules\": 0," + b2 + "\"profile_memory\": 0," + b2 + "\"trace_id\": \"" +
          traceId + "\"," + b2 + "\"displayTimeUnit\": \"ms\"," + b2 +
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

enum class Block { kAutograd, kMain, kGpu };

void emitBlock(Emitter& e, const Step& step, Block block, uint64_t pid, uint64_t autogradTid) {
    switch (block) {
        case Block::kAutograd:
            e.cpuOps(step.autograd, autogradTid);
            break;
        case Block::kMain:
            e.cpuOps(step.main, pid);
            break;
        case Block::kGpu:
            e.launches(step.launches);
            break;
    }
}

}  // namespace

GeneratedTrace generateTrace(const std::string& dir, uint64_t targetBytes, uint32_t seed,
                             bool pretty) {
    std::filesystem::create_directories(dir);
    const std::string stem =
        dir + "/bench_" + std::to_string(targetBytes) + "_" + std::to_string(seed);
    GeneratedTrace out{stem + ".pt.trace.json", stem + ".kernel_info.json", 0, 0};
    const Model model(pretty);
    const uint64_t pid = 1000000 + mix(seed) % 3000000;
    const uint64_t autogradTid = pid + 1 + mix(seed + 7) % 500;
    constexpr Block kBlocks[] = {Block::kAutograd, Block::kMain, Block::kGpu};

    // Size the trace from the first steps, written to a counting sink.
    uint64_t steps = 0;
    {
        constexpr uint64_t kSample = 16;
        Sink counter(nullptr, pretty);
        Emitter e(counter, pid);
        StepBuilder builder(model, seed, pid, autogradTid);
        Step step;
        for (uint64_t i = 0; i < kSample; ++i) {
            builder.build(i, step);
            for (Block block : kBlocks) emitBlock(e, step, block, pid, autogradTid);
        }
        const double perStep = double(counter.written()) / double(kSample);
        steps = std::max<uint64_t>(1, uint64_t(std::llround(double(targetBytes) / perStep)));
    }

    std::FILE* file = std::fopen(out.tracePath.c_str(), "wb");
    if (!file) {
        throw std::runtime_error("cannot create " + out.tracePath + ": " + std::strerror(errno));
    }
    try {
        Sink sink(file, pretty);
        writeHeader(sink, seed);
        Emitter e(sink, pid);
        // Kineto writes each CPU thread's events (the autograd thread first), then the GPU and
        // runtime events in launch order; each block is one pass over regenerated steps.
        int64_t end = 0;
        Step step;
        for (Block block : kBlocks) {
            StepBuilder builder(model, seed, pid, autogradTid);
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
