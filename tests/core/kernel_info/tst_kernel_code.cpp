// The code Inductor generated per kernel, read from real TORCH_TRACE logs, against an independent
// parse of the same logs (tools/kernel_code_expected.py), and the launch config of every Triton
// kernel of a real trace against the launcher cpu_ops the same tool finds by External id.
#include <QObject>
#include <QTest>

#include "kernel_info/kernel_code.h"
#include "kernel_info/output_code.h"
#include "kernel_info/torch_trace_log.h"
#include "model/flow_index.h"
#include "model/track_index.h"
#include "test_support.h"

using namespace stackline;
using namespace stackline::test;
using nlohmann::json;

namespace {

const std::string kData = STACKLINE_TEST_DATA;

json expected(const std::string& name) {
    return json::parse(readFile(kData + "/kernel_code/" + name));
}

std::string graphKeyOf(const json& e) {
    return "('Torch-Compiled Region: " + e["compile_id"].get<std::string>() + "', " +
           (e["backward"].get<bool>() ? "True" : "False") + ")";
}

}  // namespace

class TestKernelCode : public QObject {
    Q_OBJECT
private slots:
    void everyTritonKernelOfTheLog_data() {
        QTest::addColumn<QString>("log");
        QTest::addColumn<QString>("expectedFile");
        QTest::newRow("jit_cuda") << "torch_trace/inductor_provenance_jit_cuda_log.txt"
                                  << "jit_cuda.json";
        QTest::newRow("jit_debug_handle")
            << "torch_trace/inductor_provenance_jit_debug_handle_log.txt"
            << "jit_debug_handle.json";
        QTest::newRow("forward_and_backward") << "torch_trace/derived/fw_bw_debug_handle_log.txt"
                                              << "fw_bw_debug_handle.json";
    }
    void everyTritonKernelOfTheLog() {
        QFETCH(QString, log);
        QFETCH(QString, expectedFile);
        const std::string path = kData + "/" + log.toStdString();
        // jit_cuda has no kernel stack traces: no kernel information, but its code is read.
        const KernelCodeIndex code = readTorchTraceLog(readFile(path), path, false).code;
        const json want = expected(expectedFile.toStdString());
        QVERIFY(!want.empty());
        std::size_t triton = 0;
        for (const KernelCode& k : code.kernels()) triton += k.triton;
        QCOMPARE(triton, want.size());
        for (const json& e : want) {
            const std::string name = e["name"];
            const KernelCode* k = code.find(graphKeyOf(e), name);
            QVERIFY2(k, name.c_str());
            QVERIFY(k->triton);
            QCOMPARE(k->compileId, e["compile_id"].get<std::string>());
            QCOMPARE(k->kernelPath, e["kernel_path"].get<std::string>());
            if (!k->kernelPath.empty() && e["backward"] == false)
                QCOMPARE(code.findByKernelFile(k->kernelPath), k);
            QCOMPARE(k->source, e["source"].get<std::string>());
            QCOMPARE(k->firstLine, e["first_line"].get<int>());
            QCOMPARE(k->lastLine, e["last_line"].get<int>());
            QCOMPARE(k->launchSites.size(), e["launch_sites"].size());
            for (std::size_t i = 0; i < k->launchSites.size(); ++i) {
                QCOMPARE(k->launchSites[i].line, e["launch_sites"][i]["line"].get<int>());
                QCOMPARE(k->launchSites[i].text, e["launch_sites"][i]["text"].get<std::string>());
            }
            QCOMPARE(k->autotuneCacheState, e["autotune_cache_state"].get<std::string>());
            QCOMPARE(k->configs, e["configs"].get<std::vector<std::string>>());
            QCOMPARE(k->numConfigs.has_value(), !e["num_configs"].is_null());
            if (k->numConfigs) QCOMPARE(*k->numConfigs, e["num_configs"].get<int>());
            QCOMPARE(k->compileTimeUs.has_value(), !e["compile_time_us"].is_null());
            if (k->compileTimeUs) QCOMPARE(*k->compileTimeUs, e["compile_time_us"].get<double>());
            QCOMPARE(k->postGradNodes, e["post_grad_nodes"].get<std::vector<std::string>>());
            QCOMPARE(k->preGradNodes, e["pre_grad_nodes"].get<std::vector<std::string>>());
            // The source is the module's text at those lines.
            std::string_view module = code.moduleOf(*k);
            QVERIFY(module.find(k->source) != std::string_view::npos);
            // At its lines.
            std::size_t at = 0;
            for (int line = 1; line < k->firstLine; ++line) at = module.find('\n', at) + 1;
            QVERIFY(module.substr(at).starts_with(k->source));
        }
    }

    // Loading the log as kernel information brings its code, keyed by the registry's graph keys;
    // a registry name with a debug handle finds its record.
    void loadedWithTheKernelInformation() {
        const KernelInfo info =
            KernelInfo::load(kData + "/torch_trace/derived/fw_bw_debug_handle_log.txt");
        QVERIFY(!info.code().empty());
        for (const KernelCode& k : info.code().kernels())
            QVERIFY2(info.contains(k.graphKey), k.graphKey.c_str());
        // (The derived log renames the backward's kernels in its provenance artifacts only: the
        // real log's records are those of its registry.)
        const KernelInfo real =
            KernelInfo::load(kData + "/torch_trace/inductor_provenance_jit_debug_handle_log.txt");
        QCOMPARE(real.code().kernels().size(), std::size_t(4));
        for (const KernelCode& k : real.code().kernels())
            QVERIFY2(real.kernelEntry(k.graphKey, k.name), k.name.c_str());
        const std::string forward = "('Torch-Compiled Region: 0/0', False)";
        const KernelCode* mul = info.code().find(forward, "triton_poi_fused_mul_1:2");
        QVERIFY(mul);
        QCOMPARE(mul->name, std::string("triton_poi_fused_mul_1"));
        QCOMPARE(info.code().named("triton_poi_fused_mul_1").size(), std::size_t(2));
        QVERIFY(!info.code().find("", "triton_poi_fused_mul_1"));  // two graphs have it
        // Extern kernels: one record per callee, its calls in order.
        const KernelCode* mm = info.code().find(forward, "extern_kernels.mm:4");
        QVERIFY(mm);
        QVERIFY(!mm->triton);
        QCOMPARE(mm->launchSites.size(), std::size_t(2));
        QVERIFY(mm->launchSites[0].line < mm->launchSites[1].line);
        QCOMPARE(mm->postGradNodes, (std::vector<std::string>{"mm_default_1", "mm_default"}));
        // A plain registry has no code.
        QVERIFY(KernelInfo::load(kData + "/corpus/torch_compile_triton_trace/kernel_info.json")
                    .code()
                    .empty());
    }

    // The payload absent, the module is read from the file the log names when it exists.
    void moduleFromTheFileItNames() {
        const std::string log =
            readFile(kData + "/torch_trace/inductor_provenance_jit_cuda_log.txt");
        const std::size_t at = log.find("{\"inductor_output_code\"");
        QVERIFY(at != std::string::npos);
        const std::size_t lineEnd = log.find('\n', at);
        std::size_t payloadEnd = lineEnd + 1;
        while (payloadEnd < log.size() && log[payloadEnd] == '\t')
            payloadEnd = log.find('\n', payloadEnd) + 1;
        std::string module;
        for (std::size_t p = lineEnd + 1; p < payloadEnd;) {
            std::size_t e = log.find('\n', p);
            module += log.substr(p + 1, e - p - 1) + "\n";
            p = e + 1;
        }
        const QString file = QDir::tempPath() + "/stackline_kernel_code_module.py";
        writeFile(file, QByteArray::fromStdString(module));
        const std::size_t nameAt = log.find("\"filename\": \"", at) + 13;
        std::string edited =
            log.substr(0, nameAt) + file.toStdString() +
            log.substr(log.find('"', nameAt), lineEnd + 1 - log.find('"', nameAt)) +
            log.substr(payloadEnd);
        const KernelCodeIndex code = readTorchTraceLog(edited, "edited.log", false).code;
        // A launch's kernel_file is read the same way when it is here.
        std::optional<KernelCode> fromFile =
            codeFromKernelFile("triton_poi_fused_mul_1", file.toStdString());
        QVERIFY(fromFile);
        QCOMPARE(fromFile->firstLine, 98);
        QFile::remove(file);
        QVERIFY(!codeFromKernelFile("triton_poi_fused_mul_1", file.toStdString()));
        QVERIFY(QString::fromStdString(missingCodeReason("k.json", false, file.toStdString()))
                    .endsWith("is not on this machine"));
        const KernelCode* k = code.find("", "triton_poi_fused_mul_1");
        QVERIFY(k);
        QCOMPARE(k->moduleFile, file.toStdString());
        QVERIFY(k->source.starts_with("@triton_heuristics.pointwise("));
    }

    void launchConfigOfEveryTritonKernel() {
        const Trace trace = loadTrace(kData + "/corpus/torch_compile_triton_trace/trace.json.gz");
        const TrackIndex tracks = TrackIndex::build(trace.events, trace.metadata);
        const FlowIndex flows = FlowIndex::build(trace.events, tracks);
        const json want = expected("torch_compile_triton_trace.launches.json");
        QVERIFY(!want.empty());
        std::size_t checked = 0;
        for (uint32_t r = 0; r < trace.events.size(); ++r) {
            if (trace.events.catOf(r) != "kernel" || !trace.events.nameOf(r).starts_with("triton_"))
                continue;
            const json& e = want[checked++];
            QCOMPARE(std::string(trace.events.nameOf(r)), e["name"].get<std::string>());
            const TritonLaunch l = tritonLaunchOf(trace, tracks, flows, r);
            QCOMPARE(l.kernelKwargs, e["kernel_kwargs"].get<std::string>());
            QCOMPARE(l.numWarps, std::optional<int64_t>(e["num_warps"].get<int64_t>()));
            QCOMPARE(l.numStages, std::optional<int64_t>(e["num_stages"].get<int64_t>()));
            QCOMPARE(l.kernelFile, e["kernel_file"].get<std::string>());
            QCOMPARE(l.kernelHash, e["kernel_hash"].get<std::string>());
        }
        QCOMPARE(checked, want.size());
    }

    // Without ac2g flows the launch is found by its correlation id; the kernel's occupancy args
    // are read too.
    void launchByCorrelation() {
        const Trace trace = traceFrom(R"({"traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "triton_poi_fused_add_0", "pid": 1, "tid": 1, "ts": 10,
   "dur": 20, "args": {"External id": 5, "kernel_kwargs": "XBLOCK=256", "num_warps": 4,
   "num_stages": 1, "kernel_file": "/tmp/x/cabc.py", "kernel_hash": "cabc"}},
  {"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernel", "pid": 1, "tid": 1, "ts": 12,
   "dur": 5, "args": {"External id": 5, "correlation": 77}},
  {"ph": "X", "cat": "kernel", "name": "triton_poi_fused_add_0", "pid": 0, "tid": 7, "ts": 40,
   "dur": 3, "args": {"External id": 5, "correlation": 77, "registers per thread": 20,
   "shared memory": 0, "blocks per SM": 1.5, "warps per SM": 6.0,
   "est. achieved occupancy %": 80}}]})");
        const TrackIndex tracks = TrackIndex::build(trace.events, trace.metadata);
        const FlowIndex flows = FlowIndex::build(trace.events, tracks);
        const TritonLaunch l = tritonLaunchOf(trace, tracks, flows, 2);
        QCOMPARE(l.kernelKwargs, std::string("XBLOCK=256"));
        QCOMPARE(l.numWarps, std::optional<int64_t>(4));
        QCOMPARE(l.kernelHash, std::string("cabc"));
        QCOMPARE(l.registersPerThread, std::optional<int64_t>(20));
        QCOMPARE(l.occupancy, std::optional<double>(80));
        QCOMPARE(l.warpsPerSm, std::optional<double>(6.0));
    }

    // The bundled example's TORCH_TRACE log, read as kernel information, annotates the example
    // as its registry does; and it holds the code of every Triton kernel the trace launches.
    void exampleLogAsKernelInformation() {
        const std::string dir = STACKLINE_EXAMPLE;
        const Trace trace = loadTrace(dir + "/example.pt.trace.json");
        const KernelInfo log = KernelInfo::load(dir + "/example.torch_trace.log");
        const KernelInfo registry = KernelInfo::load(dir + "/example.pt.trace.kernel_info.json");
        QVERIFY(log.registryJson() == registry.registryJson());
        QVERIFY(exportToString(trace, runProvenance(trace, log)) ==
                exportToString(trace, runProvenance(trace, registry)));
        const TrackIndex tracks = TrackIndex::build(trace.events, trace.metadata);
        const FlowIndex flows = FlowIndex::build(trace.events, tracks);
        std::size_t triton = 0;
        for (uint32_t r = 0; r < trace.events.size(); ++r) {
            std::string_view name = trace.events.nameOf(r);
            if (trace.events.catOf(r) != "kernel" ||
                !(name.starts_with("triton_") || name.starts_with("rms_scale")))
                continue;
            ++triton;
            QVERIFY2(!log.code().named(name).empty(), std::string(name).c_str());
            QVERIFY(!log.code().named(name).front()->source.empty());
            // The launch names the kernel's own module: its record, whatever the graph.
            const TritonLaunch launch = tritonLaunchOf(trace, tracks, flows, r);
            const KernelCode* byHash = log.code().findByKernelFile(launch.kernelHash);
            QVERIFY(byHash);
            QCOMPARE(byHash->name, std::string(name));
            QCOMPARE(log.code().findByKernelFile(launch.kernelFile), byHash);
        }
        QVERIFY(triton > 0);
        // Each extern launch of the forward region is one of its module's calls, by order.
        const KernelCode* mm =
            log.code().find("('Torch-Compiled Region: 0/0', False)", "extern_kernels.mm");
        QVERIFY(mm);
        QCOMPARE(mm->launchSites.size(), std::size_t(3));
        std::vector<int> lines;
        for (uint32_t r = 0; r < trace.events.size(); ++r) {
            if (trace.events.catOf(r) != "kernel") continue;
            std::optional<ExternCallOrder> order =
                externCallOrderOf(trace, tracks, flows, r, "extern_kernels.mm");
            if (!order || order->count != 3) continue;  // the backward region calls it 8 times
            const CodeLine* site = externCallSite(*mm, *order);
            QVERIFY(site);
            lines.push_back(site->line);
        }
        const std::vector<int> sites{mm->launchSites[0].line, mm->launchSites[1].line,
                                     mm->launchSites[2].line};
        std::vector<int> twoSteps = sites;
        twoSteps.insert(twoSteps.end(), sites.begin(), sites.end());
        QCOMPARE(lines, twoSteps);
    }

    // A log without kernel stack traces is no kernel information, but kernel-code shows its code.
    void cliOnALogWithoutStackTraces() {
        const Run r = cli(
            {"kernel-code",
             QString::fromStdString(kData + "/torch_trace/inductor_provenance_jit_cuda_log.txt"),
             "--json"});
        QCOMPARE(r.code, 0);
        const json out = json::parse(r.out.toStdString());
        QCOMPARE(out.size(), std::size_t(4));  // three Triton kernels, extern_kernels.mm
        QCOMPARE(out[3]["name"].get<std::string>(), std::string("extern_kernels.mm"));
        QCOMPARE(out[3]["launch_sites"].size(), std::size_t(2));
        const Run none = cli(
            {"kernel-code", QString::fromStdString(kData + "/torch_trace/derived/tlparse_fw_bw")});
        QCOMPARE(none.code, 2);
        QVERIFY2(none.err.contains("no generated code"), qPrintable(none.err));
    }

    // stackline-cli kernel-code with --trace: the launch config, and why the code is missing.
    void cliExplainsMissingCode() {
        const Run r = cli(
            {"kernel-code",
             QString::fromStdString(kData + "/corpus/torch_compile_triton_trace/kernel_info.json"),
             "--trace",
             QString::fromStdString(kData + "/corpus/torch_compile_triton_trace/trace.json.gz"),
             "--json"});
        QCOMPARE(r.code, 0);
        const json out = json::parse(r.out.toStdString());
        QCOMPARE(out.size(), std::size_t(4));
        for (const json& k : out) {
            QVERIFY(k["missing"].get<std::string>().find("is not on this machine") !=
                    std::string::npos);
            QCOMPARE(k["gpu_time"]["count"].get<int>(), 1);
            QVERIFY(k["launches"][0].contains("kernel_kwargs"));
        }
    }
};

QTEST_GUILESS_MAIN(TestKernelCode)
#include "tst_kernel_code.moc"
