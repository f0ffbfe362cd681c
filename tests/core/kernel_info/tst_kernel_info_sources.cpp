// Kernel information from what a real PyTorch run leaves on disk: TORCH_TRACE logs, tlparse
// output folders, tlparse artifact files, AOTInductor's kernel_information.json. The logs in
// tests/data/torch_trace are real (see ATTRIBUTION.md there); derived/ holds a backward compile
// added to one of them and a tlparse-style folder of it (make_derived.py). Expected stacks were
// read off the logs by hand.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <functional>

#include "kernel_info/torch_trace_log.h"
#include "test_support.h"

using nlohmann::json;
using stackline::KernelInfo;
using stackline::OrderedJson;
using stackline::test::cli;
using stackline::test::Run;
using stackline::test::writeFile;

namespace {

const std::string kData = std::string(STACKLINE_TEST_DATA) + "/torch_trace/";
const std::string kDebugHandleLog = kData + "inductor_provenance_jit_debug_handle_log.txt";
const std::string kExtendedLog = kData + "inductor_provenance_extended_log.txt";
const std::string kJitCudaLog = kData + "inductor_provenance_jit_cuda_log.txt";
const std::string kFwBwLog = kData + "derived/fw_bw_debug_handle_log.txt";
const std::string kTlparseFolder = kData + "derived/tlparse_fw_bw";

const std::string kFw = "('Torch-Compiled Region: 0/0', False)";
const std::string kBw = "('Torch-Compiled Region: 0/0', True)";
const std::string kTestFile =
    "/data/users/shangdiy/fbsource/buck-out/v2/gen/fbcode/4de56deb453463b3/caffe2/test/inductor/"
    "__provenance_tracing__/provenance_tracing#link-tree/caffe2/test/inductor/"
    "test_provenance_tracing.py";

std::string frame(int line, const std::string& code) {
    return "  File \"" + kTestFile + "\", line " + std::to_string(line) + ", in forward\n    " +
           code + "\n";
}

std::vector<std::string> stackOf(const KernelInfo& k, const std::string& graph,
                                 const std::string& kernel) {
    const OrderedJson* s = k.stackForKernel(graph, kernel);
    if (!s || !s->is_array()) return {"<no stack>"};
    return s->get<std::vector<std::string>>();
}

std::vector<std::string> notesMatching(const KernelInfo& k, const std::string& needle) {
    std::vector<std::string> out;
    for (const std::string& n : k.notes())
        if (n.find(needle) != std::string::npos) out.push_back(n);
    return out;
}

// The log without the records (header line and its payload lines) for which drop() holds.
std::string dropRecords(const std::string& log,
                        const std::function<bool(const std::string&)>& drop) {
    std::string out, record;
    auto flush = [&] {
        if (!record.empty() && !drop(record)) out += record;
        record.clear();
    };
    std::size_t pos = 0;
    while (pos < log.size()) {
        std::size_t eol = log.find('\n', pos);
        std::string line =
            log.substr(pos, eol == std::string::npos ? std::string::npos : eol - pos + 1);
        pos = eol == std::string::npos ? log.size() : eol + 1;
        if (line[0] != '\t') flush();
        record += line;
    }
    flush();
    return out;
}

bool isChromium(const std::string& r, const std::string& name) {
    return r.find("\"chromium_event\"") != std::string::npos &&
           r.find("\"name\": \"" + name + "\"") != std::string::npos;
}

// {kernel: [stacks]} (a stack-trace payload) as a registry graph in the registry's shape, in the
// payload's order (the reference's name: prefix match takes the first key).
OrderedJson asGraph(const OrderedJson& payload) {
    OrderedJson g = OrderedJson::object();
    for (auto& [kernel, stacks] : payload.items()) g[kernel] = {{"stack_traces", stacks}};
    return g;
}

// A forward region 0/0 launching the real log's kernels (three triton, one cuBLAS under
// extern_kernels.mm, one unknown), and a backward region reached by fwdbwd from CompiledFunction.
std::string smallTrace(const std::string& region = "Torch-Compiled Region: 0/0") {
    std::string e;
    auto add = [&](const std::string& ev) { e += (e.empty() ? "" : ",\n") + ev; };
    auto launch = [&](int ts, int id, const std::string& kernel, int tid = 1) {
        add("{\"ph\":\"X\",\"cat\":\"cuda_driver\",\"name\":\"cuLaunchKernel\",\"pid\":1,\"tid\":" +
            std::to_string(tid) + ",\"ts\":" + std::to_string(ts) + ",\"dur\":5}");
        add("{\"ph\":\"s\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":" + std::to_string(id) +
            ",\"pid\":1,\"tid\":" + std::to_string(tid) + ",\"ts\":" + std::to_string(ts) + "}");
        add("{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" + kernel +
            "\",\"pid\":0,\"tid\":7,\"ts\":" + std::to_string(ts + 5) + ",\"dur\":2}");
        add("{\"ph\":\"f\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":" + std::to_string(id) +
            ",\"pid\":0,\"tid\":7,\"ts\":" + std::to_string(ts + 5) + ",\"bp\":\"e\"}");
    };
    add("{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" + region +
        "\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":1000}");
    add("{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"CompiledFunction\",\"pid\":1,\"tid\":1,\"ts\":"
        "5,\"dur\":900}");
    add("{\"ph\":\"s\",\"cat\":\"fwdbwd\",\"name\":\"fwdbwd\",\"id\":100,\"pid\":1,\"tid\":1,"
        "\"ts\":5}");
    launch(10, 1, "triton_poi_fused_addmm_relu_sigmoid_threshold_backward_0");
    launch(30, 2, "triton_poi_fused_mul_1");
    launch(50, 3, "triton_poi_fused_addmm_gelu_2");
    add("{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"extern_kernels.mm\",\"pid\":1,\"tid\":1,"
        "\"ts\":60,\"dur\":30}");
    add("{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
        "\"ts\":65,\"dur\":5}");
    add("{\"ph\":\"s\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":4,\"pid\":1,\"tid\":1,\"ts\":65}");
    add("{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ampere_sgemm_32x32_sliced1x4_nn\",\"pid\":0,"
        "\"tid\":7,\"ts\":70,\"dur\":2}");
    add("{\"ph\":\"f\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":4,\"pid\":0,\"tid\":7,\"ts\":70,"
        "\"bp\":\"e\"}");
    launch(95, 5, "triton_poi_fused_not_in_the_log_4");
    add("{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"CompiledFunctionBackward\",\"pid\":1,\"tid\":"
        "2,\"ts\":2000,\"dur\":500}");
    add("{\"ph\":\"f\",\"cat\":\"fwdbwd\",\"name\":\"fwdbwd\",\"id\":100,\"pid\":1,\"tid\":2,"
        "\"ts\":2000,\"bp\":\"e\"}");
    launch(2010, 6, "triton_poi_fused_bw_mul_1", 2);
    launch(2030, 7, "triton_poi_fused_bw_addmm_gelu_2", 2);
    return "{\"traceEvents\": [\n" + e + "\n]}";
}

std::string annotated(const std::string& trace, const KernelInfo& info,
                      stackline::Provenance* p = nullptr) {
    stackline::Trace t = stackline::test::traceFrom(trace);
    stackline::Provenance prov = stackline::runProvenance(t, info);
    std::string out = stackline::exportToString(t, prov);
    if (p) *p = std::move(prov);
    return out;
}

json stacksByKernel(const std::string& exported) {
    json out = json::object();
    const json trace = json::parse(exported);
    for (const json& ev : trace["traceEvents"])
        if (ev.value("cat", "") == "kernel" && ev.contains("args") && ev["args"].contains("stack"))
            out[ev["name"].get<std::string>()] = ev["args"]["stack"];
    return out;
}

}  // namespace

class TstKernelInfoSources : public QObject {
    Q_OBJECT
private slots:
    // The real JIT log with debug handles: one forward compile, 0/0, told by inductor_compile's
    // end event (is_backward: false).
    void realJitLogWithDebugHandles() {
        KernelInfo k = KernelInfo::load(kDebugHandleLog);
        QCOMPARE(k.graphKeys(), std::vector<std::string>{kFw});
        QVERIFY(!k.appliesToEveryRegion());
        QVERIFY2(k.notes().empty(), k.notes().empty() ? "" : k.notes()[0].c_str());
        std::vector<std::string> kernels;
        for (auto& [name, value] : k.registryJson()[kFw].items()) kernels.push_back(name);
        QCOMPARE(kernels, (std::vector<std::string>{
                              "triton_poi_fused_addmm_relu_sigmoid_threshold_backward_0:1",
                              "triton_poi_fused_mul_1:2", "triton_poi_fused_addmm_gelu_2:3",
                              "extern_kernels.mm:4", "extern_kernels.mm:5"}));
        // Looked up as the reference does, by the trace's kernel name (no handle).
        QCOMPARE(stackOf(k, kFw, "triton_poi_fused_mul_1"),
                 std::vector<std::string>{frame(82, "d = a * 3.14")});
        QCOMPARE(stackOf(k, kFw, "triton_poi_fused_addmm_gelu_2"),
                 (std::vector<std::string>{frame(84, "z = torch.nn.functional.gelu(y)"),
                                           frame(83, "y = torch.addmm(c, d, b)")}));
        QCOMPARE(stackOf(k, kFw, "triton_poi_fused_addmm_relu_sigmoid_threshold_backward_0"),
                 (std::vector<std::string>{frame(81, "x = self.sigmoid(x)"),
                                           frame(80, "x = self.relu(x)"),
                                           frame(79, "x = self.fc1(x)")}));
        QCOMPARE(stackOf(k, kFw, "extern_kernels.mm"),
                 std::vector<std::string>{frame(79, "x = self.fc1(x)")});
        // post_grad_nodes / pre_grad_nodes from the node mappings logged with it.
        const OrderedJson* gelu = k.kernelEntry(kFw, "triton_poi_fused_addmm_gelu_2");
        QVERIFY(gelu);
        QVERIFY(json((*gelu)["post_grad_nodes"]) ==
                json::parse(R"(["mul_3","mul_1","add_tensor","add","erf","mul_2"])"));
        QVERIFY(json((*gelu)["pre_grad_nodes"]) == json::parse(R"(["z","y"])"));
        // Every stack equals the artifact's payload (extracted verbatim from the log).
        json payload = json::parse(stackline::test::readFile(
            kData + "extracted/jit_debug_handle_log.kernel_stack_traces.1.json"));
        for (auto& [kernel, stacks] : payload.items())
            QVERIFY2(json(k.registryJson()[kFw][kernel]["stack_traces"]) == stacks, kernel.c_str());
    }

    // The AOTInductor-style log: no frame or compile id, so its kernels apply to every region.
    void realAotLogAppliesToEveryRegion() {
        KernelInfo k = KernelInfo::load(kExtendedLog);
        QCOMPARE(k.graphCount(), std::size_t(0));
        QVERIFY(k.appliesToEveryRegion());
        QVERIFY(!k.empty());
        QCOMPARE(notesMatching(k, "applied to every compiled region").size(), std::size_t(1));
        QVERIFY(k.contains("('Torch-Compiled Region: 3/1', False)"));
        QVERIFY(!k.contains("('Torch-Compiled Region: 3/1', True)"));
        const std::string any = "('Torch-Compiled Region: 7/0', False)";
        std::vector<std::string> view = stackOf(k, any, "triton_poi_fused_view_3");
        QCOMPARE(view.size(), std::size_t(1));
        // This log's strings carry "\n" as two characters; they are kept verbatim.
        QVERIFY(
            view[0].rfind("  File \"/data/users/boyuan/vllm/vllm/model_executor/models/llama.py\", "
                          "line 385, in forward\\n",
                          0) == 0);
        QCOMPARE(stackOf(k, any, "triton_kernel"),
                 (std::vector<std::string>{"  File \"/data/users/x.py\", line 1\\n  foo()\\n",
                                           "  File \"/data/users/x.py\", line 2\\n  bar()\\n"}));
        QCOMPARE(k.kernelOnlyJson()->size(), std::size_t(5));
        json payload = json::parse(
            stackline::test::readFile(kData + "extracted/extended_log.kernel_stack_traces.1.json"));
        for (auto& [kernel, stacks] : payload.items())
            QVERIFY2(json((*k.kernelOnlyJson())[kernel]["stack_traces"]) == stacks, kernel.c_str());
    }

    // The older JIT log has node mappings but no stack traces: an error that says so.
    void realLogWithoutStackTracesIsAnError() {
        try {
            KernelInfo::load(kJitCudaLog);
            QFAIL("no error");
        } catch (const stackline::InputError& e) {
            QString m = e.what();
            QVERIFY2(m.contains("no inductor_provenance_tracking_kernel_stack_traces artifact"),
                     e.what());
            QVERIFY2(m.contains("1 node-mapping artifacts"), e.what());
            QVERIFY2(m.contains("inductor_provenance_jit_cuda_log.txt"), e.what());
        }
    }

    // Forward and backward compiles of 0/0: rule 1 (inductor_compile's is_backward) decides.
    void forwardAndBackwardFromInductorCompile() {
        KernelInfo k = KernelInfo::load(kFwBwLog);
        QCOMPARE(k.graphKeys(), (std::vector<std::string>{kFw, kBw}));
        QVERIFY(k.notes().empty());
        QCOMPARE(stackOf(k, kBw, "triton_poi_fused_bw_mul_1"),
                 std::vector<std::string>{frame(82, "d = a * 3.14")});
        QCOMPARE(stackOf(k, kBw, "extern_kernels.mm"),
                 std::vector<std::string>{frame(79, "x = self.fc1(x)")});
        QVERIFY(k.kernelEntry(kBw, "extern_kernels.mm:9"));
        QVERIFY(!k.hasKernelInfo(kFw, "triton_poi_fused_bw_mul_1"));
    }

    // Without inductor_compile events, the compile_fx fw/bw compiler span decides (rule 2).
    void forwardAndBackwardFromCompilerSpans() {
        std::string log =
            dropRecords(stackline::test::readFile(kFwBwLog),
                        [](const std::string& r) { return isChromium(r, "inductor_compile"); });
        KernelInfo k = KernelInfo::parse(log, "fw_bw.log");
        QCOMPARE(k.graphKeys(), (std::vector<std::string>{kFw, kBw}));
        QCOMPARE(k.notes().size(), std::size_t(2));
        QVERIFY2(k.notes()[0].find("forward graph " + kFw) != std::string::npos,
                 k.notes()[0].c_str());
        QVERIFY2(
            k.notes()[0].find("compile_fx.<locals>.fw_compiler_base span") != std::string::npos,
            k.notes()[0].c_str());
        QVERIFY2(k.notes()[1].find("backward graph " + kBw) != std::string::npos,
                 k.notes()[1].c_str());
        QVERIFY2(k.notes()[1].find("compile_fx.<locals>.bw_compiler span") != std::string::npos,
                 k.notes()[1].c_str());
    }

    // Without compile spans either, the autotuning events of the kernels decide (rule 3).
    void forwardAndBackwardFromAutotuning() {
        std::string log =
            dropRecords(stackline::test::readFile(kFwBwLog), [](const std::string& r) {
                return isChromium(r, "inductor_compile") ||
                       isChromium(r, "compile_fx.<locals>.fw_compiler_base") ||
                       isChromium(r, "compile_fx.<locals>.bw_compiler");
            });
        KernelInfo k = KernelInfo::parse(log, "fw_bw.log");
        QCOMPARE(k.graphKeys(), (std::vector<std::string>{kFw, kBw}));
        QCOMPARE(k.notes().size(), std::size_t(2));
        QVERIFY2(
            k.notes()[0].find(
                "(triton_poi_fused_mul_1, triton_poi_fused_addmm_gelu_2) say is_backward=false") !=
                std::string::npos,
            k.notes()[0].c_str());
        QVERIFY2(k.notes()[1].find("say is_backward=true") != std::string::npos,
                 k.notes()[1].c_str());
    }

    // No chromium events at all: order decides (rule 4), since 0/0 has a backward graph.
    void forwardAndBackwardFromOrder() {
        std::string log = dropRecords(
            stackline::test::readFile(kFwBwLog),
            [](const std::string& r) { return r.find("\"chromium_event\"") != std::string::npos; });
        KernelInfo k = KernelInfo::parse(log, "fw_bw.log");
        QCOMPARE(k.graphKeys(), (std::vector<std::string>{kFw, kBw}));
        QCOMPARE(k.notes().size(), std::size_t(2));
        QVERIFY2(k.notes()[0].find("has a backward graph (aot_joint_graph) and this is its 1st") !=
                     std::string::npos,
                 k.notes()[0].c_str());
        QVERIFY2(k.notes()[1].find("this is its 2nd") != std::string::npos, k.notes()[1].c_str());
        QCOMPARE(stackOf(k, kBw, "triton_poi_fused_bw_mul_1"),
                 std::vector<std::string>{frame(82, "d = a * 3.14")});

        // The real forward-only log without events or AOT graphs: forward, with a note.
        std::string fwOnly =
            dropRecords(stackline::test::readFile(kDebugHandleLog), [](const std::string& r) {
                return r.find("\"chromium_event\"") != std::string::npos ||
                       r.find("\"aot_joint_graph\"") != std::string::npos ||
                       r.find("\"aot_backward_graph\"") != std::string::npos;
            });
        KernelInfo f = KernelInfo::parse(fwOnly, "fw.log");
        QCOMPARE(f.graphKeys(), std::vector<std::string>{kFw});
        QCOMPARE(f.notes().size(), std::size_t(1));
        QVERIFY2(f.notes()[0].find("no AOT graph of compile 0/0 is logged") != std::string::npos,
                 f.notes()[0].c_str());
    }

    // A tlparse output folder: per compile-id folders and chromium_events.json; raw.log if any.
    void tlparseFolder() {
        KernelInfo log = KernelInfo::load(kFwBwLog);
        KernelInfo folder = KernelInfo::load(kTlparseFolder);
        QVERIFY(folder.notes().empty());
        QVERIFY(folder.registryJson() == log.registryJson());
        QCOMPARE(folder.source(), kTlparseFolder);

        QTemporaryDir dir;
        // Without chromium_events.json: order, with notes.
        const QString compileDir = QString::fromStdString(kTlparseFolder) + "/-_0_0_0/";
        QVERIFY(QDir().mkpath(dir.filePath("-_0_0_0")));
        for (const QString& f : QDir(compileDir).entryList(QDir::Files))
            QVERIFY(QFile::copy(compileDir + f, dir.filePath("-_0_0_0/" + f)));
        KernelInfo noEvents = KernelInfo::load(dir.path().toStdString());
        QVERIFY(noEvents.registryJson() == log.registryJson());
        QCOMPARE(noEvents.notes().size(), std::size_t(2));
        QVERIFY2(noEvents.notes()[1].find("no chromium_events.json") != std::string::npos,
                 noEvents.notes()[1].c_str());

        // raw.log (tlparse copies the log there) wins over the folders.
        writeFile(dir.filePath("raw.log"), stackline::test::readFile(kDebugHandleLog));
        KernelInfo raw = KernelInfo::load(dir.path().toStdString());
        QCOMPARE(raw.graphKeys(), std::vector<std::string>{kFw});
        QVERIFY(raw.notes().empty());
    }

    // A TORCH_TRACE folder with one log reads it; with several it asks which.
    void torchTraceFolder() {
        QTemporaryDir dir;
        writeFile(dir.filePath("dedicated_log_torch_trace_rank_0_abc.log"),
                  stackline::test::readFile(kDebugHandleLog));
        KernelInfo k = KernelInfo::load(dir.path().toStdString() + "/");
        QCOMPARE(k.graphKeys(), std::vector<std::string>{kFw});
        writeFile(dir.filePath("dedicated_log_torch_trace_rank_1_def.log"),
                  stackline::test::readFile(kDebugHandleLog));
        try {
            KernelInfo::load(dir.path().toStdString());
            QFAIL("no error");
        } catch (const stackline::InputError& e) {
            QVERIFY2(QString(e.what()).contains("holds 2 logs"), e.what());
        }
        QTemporaryDir empty;
        QVERIFY_THROWS_EXCEPTION(stackline::InputError,
                                 KernelInfo::load(empty.path().toStdString()));
    }

    // One tlparse artifact file: compile id from its folder, forward with a note; none -> every
    // region.
    void tlparseArtifactFile() {
        QTemporaryDir dir;
        std::string payload = stackline::test::readFile(
            kData + "extracted/jit_debug_handle_log.kernel_stack_traces.1.json");
        writeFile(dir.filePath("-_2_1_0/inductor_provenance_tracking_kernel_stack_traces_40.json"),
                  payload);
        KernelInfo k = KernelInfo::load(
            dir.filePath("-_2_1_0/inductor_provenance_tracking_kernel_stack_traces_40.json")
                .toStdString());
        QCOMPARE(k.graphKeys(), std::vector<std::string>{"('Torch-Compiled Region: 2/1', False)"});
        QCOMPARE(notesMatching(k, "does not tell forward from backward").size(), std::size_t(1));
        QCOMPARE(stackOf(k, "('Torch-Compiled Region: 2/1', False)", "triton_poi_fused_mul_1"),
                 std::vector<std::string>{frame(82, "d = a * 3.14")});

        writeFile(dir.filePath("inductor_provenance_tracking_kernel_stack_traces.1.json"), payload);
        KernelInfo loose = KernelInfo::load(
            dir.filePath("inductor_provenance_tracking_kernel_stack_traces.1.json").toStdString());
        QVERIFY(loose.appliesToEveryRegion());
        QCOMPARE(loose.graphCount(), std::size_t(0));
    }

    // Compile ids as PyTorch prints them, compiled autograd included.
    void compileIds() {
        QCOMPARE(stackline::compileIdString(
                     OrderedJson::parse(R"({"frame_id": 3, "frame_compile_id": 1, "attempt": 2})")),
                 std::string("3/1"));
        QCOMPARE(stackline::compileIdString(OrderedJson::parse(
                     R"({"compiled_autograd_id": 1, "frame_id": 2, "frame_compile_id": 0})")),
                 std::string("!1/2/0"));
        QCOMPARE(stackline::compileIdString(OrderedJson::parse(R"({"compiled_autograd_id": 4})")),
                 std::string("!4"));
        QCOMPARE(stackline::compileIdString(OrderedJson::parse(R"({"attempt": 0})")),
                 std::string());
        QVERIFY(stackline::looksLikeStructuredLog(
            "\nV0819 12:42:50.385000 888578 /a/b.py:1946] {\"x\": 1}\n"));
        QVERIFY(
            !stackline::looksLikeStructuredLog("{\"('Torch-Compiled Region: 0/0', False)\": {}}"));
        QVERIFY(!stackline::looksLikeStructuredLog("V0819 garbage"));
    }

    // AOTInductor's kernel_information.json is recognised; registries (odd ones too) are not.
    void aotiKernelInformation() {
        const char* aoti =
            R"({"triton_poi_fused_mul_1:3": {"stack_traces": ["d = a * 3.14"], "post_grad_nodes": ["mul"], "pre_grad_nodes": ["mul"]}})";
        KernelInfo k = stackline::test::kernelInfoFrom(aoti);
        QVERIFY(k.appliesToEveryRegion());
        QCOMPARE(notesMatching(k, "keyed by kernel only").size(), std::size_t(1));
        QCOMPARE(stackOf(k, "('Torch-Compiled Region: 5/0', False)", "triton_poi_fused_mul_1"),
                 std::vector<std::string>{"d = a * 3.14"});
        for (const char* registry :
             {R"j({"('Torch-Compiled Region: 0/0', False)": {"k": {"stack_traces": ["s"]}}})j",
              R"j({"Torch-Compiled Region: 0/0": {"k": {"stack_traces": ["s"]}}})j",  // a golden
                                                                                      // case
              R"j({"('odd', 1)": {"stack_traces": ["s"]}})j", R"j({"k": ["s"]})j", R"j({})j"}) {
            KernelInfo r = stackline::test::kernelInfoFrom(registry);
            QVERIFY2(!r.appliesToEveryRegion() && r.notes().empty(), registry);
        }
    }

    // Annotating with the log gives the same output as with the registry it stands for.
    void annotatingWithTheLogEqualsTheRegistry() {
        OrderedJson fw = OrderedJson::parse(stackline::test::readFile(
            kTlparseFolder + "/-_0_0_0/inductor_provenance_tracking_kernel_stack_traces_34.json"));
        OrderedJson bw = OrderedJson::parse(stackline::test::readFile(
            kTlparseFolder + "/-_0_0_0/inductor_provenance_tracking_kernel_stack_traces_45.json"));
        OrderedJson registry = OrderedJson::object();
        registry[kFw] = asGraph(fw);
        registry[kBw] = asGraph(bw);
        const std::string trace = smallTrace();
        stackline::Provenance fromLog, fromRegistry;
        std::string a = annotated(trace, KernelInfo::load(kFwBwLog), &fromLog);
        std::string b =
            annotated(trace, stackline::test::kernelInfoFrom(registry.dump()), &fromRegistry);
        QCOMPARE(QString::fromStdString(a), QString::fromStdString(b));
        QCOMPARE(fromLog.diagnostics.size(), fromRegistry.diagnostics.size());
        json stacks = stacksByKernel(a);
        QVERIFY(stacks["triton_poi_fused_mul_1"] == json{frame(82, "d = a * 3.14")});
        // Under extern_kernels.mm: the reference tries the backward keys first, also for a forward
        // region, so extern_kernels.mm:9 of the backward graph answers (the first in file order).
        QVERIFY(stacks["ampere_sgemm_32x32_sliced1x4_nn"] == json{frame(79, "x = self.fc1(x)")});
        QVERIFY(stacks["triton_poi_fused_bw_mul_1"] ==
                json{frame(82, "d = a * 3.14")});  // backward graph
        QVERIFY(stacks["triton_poi_fused_bw_addmm_gelu_2"].size() == 2);
        QVERIFY(!stacks.contains("triton_poi_fused_not_in_the_log_4"));
        QCOMPARE(stacks.size(), std::size_t(6));
        // The same from the tlparse folder.
        QCOMPARE(QString::fromStdString(annotated(trace, KernelInfo::load(kTlparseFolder))),
                 QString::fromStdString(a));
    }

    // The AOT log's kernels reach a region of any compile id; the note leads the diagnostics.
    void annotatingWithKernelOnlyInformation() {
        OrderedJson payload = OrderedJson::parse(
            stackline::test::readFile(kData + "extracted/extended_log.kernel_stack_traces.1.json"));
        std::string trace = smallTrace("Torch-Compiled Region: 4/2");
        // Kernels of the AOT log in the trace: rename two launches.
        for (auto [from, to] : {std::pair<std::string, std::string>{"triton_poi_fused_mul_1",
                                                                    "triton_poi_fused_view_3"},
                                {"triton_poi_fused_addmm_gelu_2",
                                 "triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0"}})
            trace.replace(trace.find(from), from.size(), to);
        stackline::Provenance p, q;
        std::string a = annotated(trace, KernelInfo::load(kExtendedLog), &p);
        OrderedJson registry = OrderedJson::object();
        registry["('Torch-Compiled Region: 4/2', False)"] = asGraph(payload);
        std::string b = annotated(trace, stackline::test::kernelInfoFrom(registry.dump()), &q);

        QCOMPARE(QString::fromStdString(a), QString::fromStdString(b));
        json stacks = stacksByKernel(a);
        for (const char* kernel :
             {"triton_poi_fused_view_3", "triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0"})
            QVERIFY2(stacks[kernel].dump() == payload[kernel].dump(), kernel);
        QCOMPARE(p.diagnostics.size(), q.diagnostics.size() + 1);
        QCOMPARE(p.diagnostics[0].kind, stackline::DiagnosticKind::KernelInfoSource);
        QCOMPARE(p.diagnostics[0].row, stackline::kNoRow);

        // A trace without compiled regions: said so.
        stackline::Provenance none;
        const std::string noRegion =
            "{\"traceEvents\": "
            "[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"triton_poi_fused_view_3\",\"pid\":0,"
            "\"tid\":7,\"ts\":1,\"dur\":1}]}";
        annotated(noRegion, KernelInfo::load(kExtendedLog), &none);
        QCOMPARE(none.diagnostics.size(), std::size_t(2));
        QVERIFY(none.diagnostics
                    .message(none.diagnostics[1], stackline::test::traceFrom(noRegion).events)
                    .find("no \"Torch-Compiled Region\" event") != std::string::npos);
    }

    // The CLI: --kernel-info takes a log or a folder; notes reach the report and the summary;
    // kernel-info writes the registry, which loads back to the same information.
    void commandLine() {
        QTemporaryDir dir;
        writeFile(dir.filePath("w.1.pt.trace.json"), smallTrace());
        Run r = cli({"annotate", dir.filePath("w.1.pt.trace.json"), "--kernel-info",
                     QString::fromStdString(kFwBwLog), "-o", dir.filePath("out.json"), "--report",
                     dir.filePath("report.json")});
        QCOMPARE(r.code, 0);
        json report =
            json::parse(stackline::test::readFile(dir.filePath("report.json").toStdString()));
        QCOMPARE(report["annotated_kernels"].get<int>(), 6);
        for (const json& w : report["warnings"]) QVERIFY(w["kind"] != "kernel_info_source");

        r = cli({"annotate", dir.filePath("w.1.pt.trace.json"), "--kernel-info",
                 QString::fromStdString(kExtendedLog), "-o", dir.filePath("out2.json"), "--report",
                 dir.filePath("report2.json")});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains("kernel information: note:"), qPrintable(r.err));
        report = json::parse(stackline::test::readFile(dir.filePath("report2.json").toStdString()));
        QVERIFY(report["warnings"][0]["kind"] == "kernel_info_source");
        QVERIFY(report["warnings"][0]["uids"] == json::array({nullptr}));

        r = cli({"summary", dir.filePath("w.1.pt.trace.json"), "--kernel-info",
                 QString::fromStdString(kTlparseFolder), "--json"});
        QCOMPARE(r.code, 0);
        json s = json::parse(r.out.toStdString());
        QCOMPARE(s["annotated_kernels"].get<int>(), 6);
        QVERIFY(!s.contains("kernel_info_notes"));
        r = cli({"summary", dir.filePath("w.1.pt.trace.json"), "--kernel-info",
                 QString::fromStdString(kExtendedLog), "--json"});
        s = json::parse(r.out.toStdString());
        QCOMPARE(s["diagnostics"]["kernel_info_source"].get<int>(), 1);
        QCOMPARE(s["kernel_info_notes"].size(), std::size_t(1));
        r = cli({"summary", dir.filePath("w.1.pt.trace.json"), "--kernel-info",
                 QString::fromStdString(kExtendedLog)});
        QVERIFY2(r.out.contains("kernel information notes:\n  "), qPrintable(r.out));

        r = cli({"kernel-info", QString::fromStdString(kFwBwLog), "-o",
                 dir.filePath("w.1.pt.trace.kernel_info.json")});
        QCOMPARE(r.code, 0);
        QVERIFY(KernelInfo::load(dir.filePath("w.1.pt.trace.kernel_info.json").toStdString())
                    .registryJson() == KernelInfo::load(kFwBwLog).registryJson());
        // ... and, saved beside the trace, is found without --kernel-info.
        r = cli({"summary", dir.filePath("w.1.pt.trace.json"), "--json"});
        QCOMPARE(json::parse(r.out.toStdString())["annotated_kernels"].get<int>(), 6);

        r = cli({"summary", dir.filePath("w.1.pt.trace.json"), "--kernel-info",
                 QString::fromStdString(kJitCudaLog)});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("no inductor_provenance_tracking_kernel_stack_traces"),
                 qPrintable(r.err));
    }

    // The handler's names: <worker>.<time_ns>.pt.trace.json[.gz] and
    // <...>.pt.trace.kernel_info.json.
    void discoveryMatchesTheHandlersNames() {
        QTemporaryDir dir;
        for (const char* trace : {"host_42.1724000000000000001.pt.trace.json",
                                  "host_42.1724000000000000002.pt.trace.json.gz"}) {
            std::string base(trace);
            base = base.substr(0, base.find(".pt.trace.json")) + ".pt.trace.kernel_info.json";
            writeFile(dir.filePath(QString::fromStdString(base)), "{}");
            QCOMPARE(stackline::findKernelInfoFor(dir.filePath(trace).toStdString()),
                     dir.filePath(QString::fromStdString(base)).toStdString());
        }
    }
};

QTEST_GUILESS_MAIN(TstKernelInfoSources)
#include "tst_kernel_info_sources.moc"
