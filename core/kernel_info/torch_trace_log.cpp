// The TORCH_TRACE structured-log reader: glog records, their payload lines, and what the
// provenance artifacts and chromium events among them say.
#include "kernel_info/torch_trace_log.h"

#include <algorithm>
#include <map>
#include <optional>

#include "io/trace_bytes.h"
#include "kernel_info/output_code.h"
#include "kernel_info/torch_trace_artifacts.h"

namespace stackline {

using namespace torch_trace;

namespace {

// "V0819 12:42:54.751000 888578 /path/file.py:1073] {...}": the text after "] ", as tlparse's
// glog pattern reads it (level, MMDD, time, thread id, pathname:line).
std::optional<std::string_view> glogBody(std::string_view line) {
    const std::size_t n = line.size();
    if (n < 8 || std::string_view("VIWEC").find(line[0]) == std::string_view::npos) return {};
    std::size_t i = 1;
    for (int k = 0; k < 4; ++k, ++i)
        if (i >= n || !isDigit(line[i])) return {};
    if (i >= n || line[i] != ' ') return {};
    std::size_t t = ++i;
    while (i < n && (isDigit(line[i]) || line[i] == ':' || line[i] == '.')) ++i;
    if (i - t < 8 || i >= n || line[i] != ' ') return {};
    while (i < n && line[i] == ' ') ++i;
    std::size_t d = i;
    while (i < n && isDigit(line[i])) ++i;
    if (i == d || i >= n || line[i] != ' ') return {};
    for (std::size_t close = line.find("] ", i); close != std::string_view::npos;
         close = line.find("] ", close + 1)) {
        std::size_t j = close;
        while (j > i && isDigit(line[j - 1])) --j;
        if (j < close && j > i && line[j - 1] == ':') return line.substr(close + 2);
    }
    return {};
}

struct CompileState {
    int openInductorCompile = 0;
    std::vector<std::string> compilerSpans;  // open compile_fx.<locals>.*_compiler* spans
    std::vector<std::size_t> awaiting;       // artifacts waiting for inductor_compile's end
    OJ pendingMappings;                      // node mappings not yet paired with stack traces
    // The generated code: its modules (indexes), and those waiting for inductor_compile's end.
    std::vector<std::size_t> modules, awaitingCode;
    // What the log says about a module's kernels before the module itself (by artifact name).
    std::map<std::string, OJ> pendingCodeInfo;
};

inline constexpr std::string_view kOutputCode = "inductor_output_code";
inline constexpr std::string_view kTritonKernelInfo = "triton_kernel_info";
inline constexpr std::string_view kKernelToPostGrad = "inductor_triton_kernel_to_post_grad_nodes";

// Where a module keeps an artifact about its kernels; nullptr for other artifacts.
OJ* codeInfoSlot(GeneratedModule& m, std::string_view artifact) {
    if (artifact == kTritonKernelInfo) return &m.kernelInfo;
    if (artifact == kKernelToPostGrad) return &m.kernelToPost;
    if (artifact == kNodeMappings) return &m.nodeMappings;
    return nullptr;
}

}  // namespace

std::string compileIdString(const OJ& env) {
    auto num = [&](const char* key) -> std::optional<long long> {
        auto it = env.find(key);
        if (it == env.end() || !it->is_number_integer()) return std::nullopt;
        return it->get<long long>();
    };
    std::optional<long long> ca = num("compiled_autograd_id"), frame = num("frame_id"),
                             fc = num("frame_compile_id");
    // Appended piece by piece: GCC 12 warns of a false -Wrestrict on "!" + std::to_string(...).
    std::string s;
    if (ca) (s += '!') += std::to_string(*ca);
    if (frame && fc) {
        if (ca) s += '/';
        ((s += std::to_string(*frame)) += '/') += std::to_string(*fc);
    }
    return s;
}

bool looksLikeStructuredLog(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size() && (text[i] == '\n' || text[i] == '\r')) ++i;
    std::size_t eol = text.find('\n', i);
    std::string_view line = text.substr(i, eol == std::string_view::npos ? eol : eol - i);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::optional<std::string_view> body = glogBody(line);
    return body && !body->empty() && (*body)[0] == '{';
}

RebuiltKernelInfo readTorchTraceLog(std::string_view text, const std::string& name,
                                    bool requireStackTraces) {
    std::vector<Artifact> arts;
    // The generated modules, and for each an artifact (its kernels) to decide its direction.
    std::vector<GeneratedModule> modules;
    std::vector<Artifact> codeArts;
    std::map<std::string, CompileState> state;
    std::map<std::string, CompileSeen> compiles;
    std::vector<std::string> notes;
    std::size_t strayLines = 0, nodeMappings = 0, badStackPayloads = 0;
    std::string firstBadStack;

    struct Record {
        std::size_t line = 0;
        std::string_view body;
        std::vector<std::string_view> payload;
    } rec;
    bool have = false;

    auto payloadText = [&] {
        std::string s;
        for (std::size_t i = 0; i < rec.payload.size(); ++i) {
            if (i) s += '\n';
            s.append(rec.payload[i]);
        }
        return s;
    };

    auto process = [&] {
        std::string_view b = rec.body;
        if (!contains(b, "inductor_provenance_tracking") && !contains(b, "chromium_event") &&
            !contains(b, "aot_") && !contains(b, kOutputCode) && !contains(b, kTritonKernelInfo) &&
            !contains(b, kKernelToPostGrad))
            return;
        std::optional<OJ> parsed = parseJson(b);
        if (!parsed || !parsed->is_object()) return;
        const OJ& env = *parsed;
        std::string cid = compileIdString(env);

        if (env.contains("chromium_event")) {
            std::optional<OJ> ev = parseJson(payloadText());
            if (!ev || !ev->is_object()) return;
            std::string evName = stringAt(*ev, "name");
            std::string ph = stringAt(*ev, "ph");
            OJ args = ev->value("args", OJ::object());
            if (!args.is_object()) args = OJ::object();
            std::string evCid = cid;
            auto c = args.find("compile_id");
            if (c != args.end() && c->is_string() && *c != "None" && !c->get<std::string>().empty())
                evCid = c->get<std::string>();
            if (evCid.empty()) return;
            CompileState& st = state[evCid];
            auto bw = args.find("is_backward");
            bool hasBw = bw != args.end() && bw->is_boolean();
            if (evName == "inductor_compile") {
                if (ph == "B") {
                    ++st.openInductorCompile;
                } else if (ph == "E") {
                    st.openInductorCompile = std::max(0, st.openInductorCompile - 1);
                    if (hasBw)
                        for (std::size_t idx : st.awaiting)
                            arts[idx].inductorCompileEnd = bw->get<bool>();
                    if (hasBw)
                        for (std::size_t idx : st.awaitingCode)
                            codeArts[idx].inductorCompileEnd = bw->get<bool>();
                    st.awaiting.clear();
                    st.awaitingCode.clear();
                }
            } else if (isCompilerSpan(evName)) {
                if (ph == "B") {
                    st.compilerSpans.push_back(evName);
                } else if (ph == "E") {
                    auto it = std::find(st.compilerSpans.rbegin(), st.compilerSpans.rend(), evName);
                    if (it != st.compilerSpans.rend()) st.compilerSpans.erase(std::next(it).base());
                }
            } else if (evName == "CachingAutotuner.benchmark_all_configs" && hasBw) {
                auto k = args.find("kernel_name");
                if (k != args.end() && k->is_string())
                    compiles[evCid].autotuned[k->get<std::string>()].insert(bw->get<bool>());
            }
            return;
        }

        for (const char* g : kAotGraphNames)
            if (env.contains(g)) compiles[cid].noteGraph(g);
        if (auto code = env.find(kOutputCode); code != env.end() && code->is_object()) {
            CompileState& st = state[cid];
            GeneratedModule& m = modules.emplace_back();
            m.compileId = cid;
            m.file = stringAt(*code, "filename");
            m.text = payloadText();
            if (m.text.empty() && !m.file.empty()) m.text = readTextFile(m.file);
            for (auto& [artifact, value] : st.pendingCodeInfo)
                *codeInfoSlot(m, artifact) = std::move(value);
            st.pendingCodeInfo.clear();
            Artifact& a = codeArts.emplace_back();
            a.compileId = cid;
            a.where = "line " + std::to_string(rec.line);
            a.stacks = OJ::object();
            for (const KernelCode& k : parseOutputCode(m.text)) a.stacks[k.name] = OJ::array();
            if (!cid.empty()) {
                if (st.openInductorCompile > 0) st.awaitingCode.push_back(codeArts.size() - 1);
                if (!st.compilerSpans.empty()) a.openCompilerSpan = st.compilerSpans.back();
            }
            st.modules.push_back(modules.size() - 1);
            return;
        }
        auto art = env.find("artifact");
        if (art == env.end() || !art->is_object()) return;
        std::string artName = stringAt(*art, "name");
        compiles[cid].noteGraph(artName);
        if (artName == kTritonKernelInfo || artName == kKernelToPostGrad ||
            artName == kNodeMappings) {
            std::optional<OJ> v = parseJson(payloadText());
            if (v && v->is_object()) {
                CompileState& st = state[cid];
                OJ& slot = st.modules.empty() ? st.pendingCodeInfo[artName]
                                              : *codeInfoSlot(modules[st.modules.back()], artName);
                if (!slot.is_object()) slot = OJ::object();
                slot.update(*v);  // autotuning logs one triton_kernel_info per batch
            }
        }
        if (artName == kNodeMappings) {
            ++nodeMappings;
            std::optional<OJ> m = parseJson(payloadText());
            state[cid].pendingMappings = m && m->is_object() ? *m : OJ();
        } else if (artName == kStackTraces) {
            std::optional<OJ> s = parseJson(payloadText());
            if (!s || !s->is_object()) {
                if (!badStackPayloads++) firstBadStack = "line " + std::to_string(rec.line);
                return;
            }
            CompileState& st = state[cid];
            Artifact a;
            a.compileId = cid;
            a.where = "line " + std::to_string(rec.line);
            a.stacks = std::move(*s);
            a.mappings = std::move(st.pendingMappings);
            st.pendingMappings = OJ();
            if (!cid.empty()) {
                if (st.openInductorCompile > 0) st.awaiting.push_back(arts.size());
                if (!st.compilerSpans.empty()) a.openCompilerSpan = st.compilerSpans.back();
            }
            arts.push_back(std::move(a));
        }
    };

    std::size_t lineno = 0;
    for (std::size_t pos = 0; pos < text.size();) {
        std::size_t eol = text.find('\n', pos);
        std::string_view line = text.substr(pos, eol == std::string_view::npos ? eol : eol - pos);
        pos = eol == std::string_view::npos ? text.size() : eol + 1;
        ++lineno;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty()) continue;  // tlparse drops blank lines too
        if (line[0] == '\t') {
            if (have)
                rec.payload.push_back(line.substr(1));
            else
                ++strayLines;
            continue;
        }
        if (have) process();
        have = false;
        std::optional<std::string_view> body = glogBody(line);
        if (!body) {
            ++strayLines;
            continue;
        }
        rec.line = lineno;
        rec.body = *body;
        rec.payload.clear();
        have = true;
    }
    if (have) process();

    if (arts.empty() && requireStackTraces)
        throw InputError(
            name + ": no " + std::string(kStackTraces) + " artifact in this TORCH_TRACE log" +
            (nodeMappings ? " (it has " + std::to_string(nodeMappings) +
                                " node-mapping artifacts, which carry no stacks)"
                          : "") +
            (badStackPayloads ? "; the one at " + firstBadStack + " is not valid JSON" : "") +
            ". Kernel stack traces are logged by PyTorch versions with Inductor provenance "
            "tracking when TORCH_TRACE=<folder> is set together with INDUCTOR_PROVENANCE=1 (or "
            "TORCH_COMPILE_DEBUG=1)");
    if (strayLines)
        notes.push_back(name + ": " + std::to_string(strayLines) +
                        " lines are neither structured-log records nor their payload; skipped.");
    if (badStackPayloads)
        notes.push_back(name + ": " + std::to_string(badStackPayloads) + " " +
                        std::string(kStackTraces) + " artifacts (the first at " + firstBadStack +
                        ") have a payload that is not a JSON object; skipped.");
    decideForwardBackward(
        arts, compiles, name,
        [](const std::string&) {
            return std::string(
                "no inductor_compile end event with is_backward closes the span it "
                "was logged in");
        },
        notes);
    std::vector<std::string> codeNotes;  // the stack traces' notes say it for the registry
    decideForwardBackward(
        codeArts, compiles, name, [](const std::string&) { return std::string(); }, codeNotes);
    for (std::size_t i = 0; i < modules.size(); ++i)
        if (!modules[i].compileId.empty())
            modules[i].graphKey = regionKey(modules[i].compileId, codeArts[i].backward);
    RebuiltKernelInfo out = assemble(arts, name, std::move(notes));
    out.code = kernelCodeOf(modules);
    return out;
}

}  // namespace stackline
