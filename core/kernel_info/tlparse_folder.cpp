// The compile-id folders' numbered artifact files and chromium_events.json.
#include "kernel_info/tlparse_folder.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "base/file_system.h"
#include "io/trace_bytes.h"
#include "kernel_info/torch_trace_artifacts.h"
#include "kernel_info/torch_trace_log.h"

namespace stackline {

using namespace torch_trace;

namespace {

std::string baseName(const std::string& path) {
    return std::filesystem::path(path).filename().string();
}
std::string parentName(const std::string& path) {
    return std::filesystem::path(path).parent_path().filename().string();
}

// tlparse's compile-id folder name "<compiled autograd>_<frame>_<frame compile>_<attempt>" ('-'
// for none) as PyTorch's compile id string; "unknown_<line>" has none. nullopt: not such a folder.
std::optional<std::string> compileIdOfFolder(std::string_view name) {
    if (name.starts_with("unknown_") && allDigits(name.substr(8))) return std::string();
    std::vector<std::string_view> parts;
    for (std::size_t start = 0;;) {
        std::size_t us = name.find('_', start);
        parts.push_back(name.substr(start, us == std::string_view::npos ? us : us - start));
        if (us == std::string_view::npos) break;
        start = us + 1;
    }
    if (parts.size() != 4) return std::nullopt;
    for (std::string_view p : parts)
        if (p != "-" && !allDigits(p)) return std::nullopt;
    auto present = [](std::string_view p) { return p != "-"; };
    if (present(parts[0])) {
        std::string s = "!";
        s += parts[0];  // not "!" + std::string(...): GCC 12 warns of a bogus overlap (-Wrestrict)
        if (present(parts[1]) && present(parts[2]))
            s += "/" + std::string(parts[1]) + "/" + std::string(parts[2]);
        return s;
    }
    if (present(parts[1]) && present(parts[2]))
        return std::string(parts[1]) + "/" + std::string(parts[2]);
    return std::string();
}

// "<prefix>_<n>.json" -> n.
std::optional<long long> numberedFile(std::string_view name, std::string_view prefix,
                                      std::string_view ext) {
    if (!name.starts_with(prefix) || name.size() <= prefix.size() + 1 ||
        name[prefix.size()] != '_' || !name.ends_with(ext))
        return std::nullopt;
    std::string_view n =
        name.substr(prefix.size() + 1, name.size() - prefix.size() - 1 - ext.size());
    if (!allDigits(n) || n.size() > 15) return std::nullopt;
    return std::stoll(std::string(n));
}

std::string readText(const std::string& path) {
    TraceBytes bytes = TraceBytes::open(path);
    return std::string(bytes.text());
}

}  // namespace

RebuiltKernelInfo readTorchTraceFolder(const std::string& dirIn) {
    std::string dir = dirIn;
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    const std::string rawLog = dir + "/raw.log";  // tlparse copies the log it read here
    if (isRegularFile(rawLog)) {
        TraceBytes bytes = TraceBytes::open(rawLog);
        return readTorchTraceLog(bytes.text(), rawLog);
    }
    std::vector<std::string> names = folderEntries(dir);
    std::vector<std::string> logs;
    for (const std::string& n : names)
        if (n.starts_with("dedicated_log_torch_trace") &&
            (n.ends_with(".log") || n.ends_with(".log.gz")) && isRegularFile(dir + "/" + n))
            logs.push_back(n);
    if (logs.size() == 1) {
        TraceBytes bytes = TraceBytes::open(dir + "/" + logs[0]);  // also inflates .log.gz
        return readTorchTraceLog(bytes.text(), dir + "/" + logs[0]);
    }
    if (logs.size() > 1) {
        std::string list;
        for (std::size_t i = 0; i < logs.size() && i < 6; ++i) list += (i ? ", " : "") + logs[i];
        throw InputError(dir + ": this TORCH_TRACE folder holds " + std::to_string(logs.size()) +
                         " logs (" + list + (logs.size() > 6 ? ", ..." : "") +
                         "), one per process or rank; open the one of the traced process");
    }

    // A tlparse output folder without raw.log: its compile-id folders.
    struct File {
        long long n;
        std::string folder, name, compileId;
    };
    std::vector<File> stackFiles, mappingFiles;
    std::map<std::string, CompileSeen> compiles;
    for (const std::string& sub : names) {
        std::optional<std::string> cid = compileIdOfFolder(sub);
        if (!cid || !isDirectory(dir + "/" + sub)) continue;
        for (const std::string& f : folderEntries(dir + "/" + sub)) {
            if (auto n = numberedFile(f, kStackTraces, ".json"))
                stackFiles.push_back({*n, sub, f, *cid});
            else if (auto m = numberedFile(f, kNodeMappings, ".json"))
                mappingFiles.push_back({*m, sub, f, *cid});
            for (const char* g : kAotGraphNames)
                if (numberedFile(f, g, ".txt")) compiles[*cid].noteGraph(g);
        }
    }
    if (stackFiles.empty())
        throw InputError(
            dir +
            ": neither a tlparse output folder (no raw.log, no compile-id folder such "
            "as -_0_0_0 with " +
            std::string(kStackTraces) +
            "_<n>.json) nor a TORCH_TRACE folder (no dedicated_log_torch_trace_*.log)");
    auto byNumber = [](const File& a, const File& b) { return a.n < b.n; };
    std::sort(stackFiles.begin(), stackFiles.end(), byNumber);
    std::sort(mappingFiles.begin(), mappingFiles.end(), byNumber);

    std::vector<std::string> notes;
    std::vector<Artifact> arts;
    std::set<std::size_t> usedMappings;
    for (const File& f : stackFiles) {
        std::string rel = f.folder + "/" + f.name;
        std::optional<OJ> s = parseJson(readText(dir + "/" + rel));
        if (!s || !s->is_object()) {
            notes.push_back(dir + ": " + rel + " is not a JSON object; skipped.");
            continue;
        }
        Artifact a;
        a.compileId = f.compileId;
        a.where = rel;
        a.stacks = std::move(*s);
        // The node mappings are logged just before the stack traces of the same compile.
        for (std::size_t i = mappingFiles.size(); i-- > 0;) {
            const File& m = mappingFiles[i];
            if (m.n >= f.n || m.folder != f.folder) continue;
            if (usedMappings.insert(i).second) {
                if (std::optional<OJ> j = parseJson(readText(dir + "/" + m.folder + "/" + m.name));
                    j && j->is_object())
                    a.mappings = std::move(*j);
            }
            break;
        }
        arts.push_back(std::move(a));
    }

    // Rules 1 and 3 (forward_backward.h) from chromium_events.json: the inductor_compile end
    // events and the autotuning events of each compile id that carry is_backward.
    const std::string eventsPath = dir + "/chromium_events.json";
    bool haveEvents = false;
    if (isRegularFile(eventsPath)) {
        std::optional<OJ> events = parseJson(readText(eventsPath));
        if (events && events->is_array()) {
            haveEvents = true;
            for (const OJ& ev : *events) {
                if (!ev.is_object()) continue;
                OJ args = ev.value("args", OJ::object());
                if (!args.is_object()) continue;
                auto c = args.find("compile_id");
                auto bw = args.find("is_backward");
                if (c == args.end() || !c->is_string() || bw == args.end() || !bw->is_boolean())
                    continue;
                std::string name = stringAt(ev, "name"), ph = stringAt(ev, "ph");
                CompileSeen& compile = compiles[c->get<std::string>()];
                if (name == "inductor_compile" && ph == "E")
                    compile.inductorCompileEnds.push_back(bw->get<bool>());
                auto k = args.find("kernel_name");
                if (name == "CachingAutotuner.benchmark_all_configs" && k != args.end() &&
                    k->is_string())
                    compile.autotuned[k->get<std::string>()].insert(bw->get<bool>());
            }
        }
    }
    std::map<std::string, std::size_t> artifactsOf;
    for (const Artifact& a : arts)
        if (!a.compileId.empty()) ++artifactsOf[a.compileId];
    decideForwardBackward(
        arts, compiles, dir,
        [&](const std::string& cid) -> std::string {
            if (!haveEvents) return "the folder has no chromium_events.json to tell";
            auto c = compiles.find(cid);
            std::size_t events = c == compiles.end() ? 0 : c->second.inductorCompileEnds.size();
            return "chromium_events.json has " + std::to_string(events) +
                   " inductor_compile end events with is_backward for it, and the folder " +
                   std::to_string(artifactsOf[cid]) + " kernel stack-trace artifacts";
        },
        notes);
    return assemble(arts, dir, std::move(notes));
}

bool isStackTraceArtifactFile(const std::string& path) {
    return baseName(path).starts_with(kStackTraces);
}

RebuiltKernelInfo readStackTraceArtifactFile(std::string_view text, const std::string& path) {
    std::optional<OJ> s = parseJson(text);
    if (!s || !s->is_object())
        throw InputError(path +
                         ": not a JSON object of kernel stack traces ({kernel: [stack strings]})");
    std::vector<Artifact> arts(1);
    Artifact& a = arts[0];
    a.compileId = compileIdOfFolder(parentName(path)).value_or(std::string());
    a.where = baseName(path);
    a.stacks = std::move(*s);
    std::vector<std::string> notes;
    if (!a.compileId.empty())
        notes.push_back(path +
                        ": a single tlparse artifact file does not tell forward from backward; "
                        "it is taken as the forward graph " +
                        regionKey(a.compileId, false) + " of compile " + a.compileId +
                        " (its folder). Open the tlparse output "
                        "folder instead to have them told apart.");
    return assemble(arts, path, std::move(notes));
}

}  // namespace stackline
