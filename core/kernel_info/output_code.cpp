#include "kernel_info/output_code.h"

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "base/file_system.h"

namespace stackline {

namespace {

using OJ = nlohmann::ordered_json;

bool isIdentChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

std::vector<std::string_view> splitLines(std::string_view text) {
    std::vector<std::string_view> lines;
    for (std::size_t pos = 0; pos <= text.size();) {
        std::size_t eol = text.find('\n', pos);
        if (eol == std::string_view::npos) {
            if (pos < text.size()) lines.push_back(text.substr(pos));
            break;
        }
        lines.push_back(text.substr(pos, eol - pos));
        pos = eol + 1;
    }
    return lines;
}

// "NAME = async_compile.triton('NAME', '''": NAME, else empty.
std::string_view tritonDefinition(std::string_view line) {
    std::size_t i = 0;
    while (i < line.size() && isIdentChar(line[i])) ++i;
    constexpr std::string_view kCall = " = async_compile.triton(";
    if (i == 0 || line.substr(i, kCall.size()) != kCall) return {};
    if (line.find("'''", i) == std::string_view::npos) return {};
    return line.substr(0, i);
}

bool isBlank(std::string_view s) {
    return s.find_first_not_of(" \t\r") == std::string_view::npos;
}

// Every "extern_kernels.NAME(" on a line.
std::vector<std::string> externCalls(std::string_view line) {
    std::vector<std::string> out;
    constexpr std::string_view kMark = "extern_kernels.";
    std::size_t hash = line.find('#');
    for (std::size_t at = line.find(kMark); at != std::string_view::npos && at < hash;
         at = line.find(kMark, at + 1)) {
        if (at > 0 && isIdentChar(line[at - 1])) continue;
        std::size_t e = at + kMark.size();
        while (e < line.size() && isIdentChar(line[e])) ++e;
        if (e < line.size() && line[e] == '(' && e > at + kMark.size())
            out.emplace_back(line.substr(at, e - at));
    }
    return out;
}

// "XBLOCK: 128, num_warps: 4": a config as triton_kernel_info logs it, a list of [key, value]
// pairs or an object.
std::string configText(const OJ& config) {
    std::string s;
    auto add = [&](const std::string& key, const OJ& value) {
        s += (s.empty() ? "" : ", ") + key + ": " +
             (value.is_string() ? value.get<std::string>() : value.dump());
    };
    if (config.is_object())
        for (auto it = config.begin(); it != config.end(); ++it) add(it.key(), it.value());
    else if (config.is_array())
        for (const OJ& pair : config)
            if (pair.is_array() && pair.size() == 2 && pair[0].is_string())
                add(pair[0].get<std::string>(), pair[1]);
    return s.empty() ? config.dump() : s;
}

void applyKernelInfo(KernelCode& k, const OJ& info) {
    if (!info.is_object()) return;
    auto it = info.find(k.name);
    if (it == info.end() || !it->is_object()) return;
    const OJ& e = *it;
    if (auto s = e.find("autotune_cache_state"); s != e.end() && s->is_string())
        k.autotuneCacheState = s->get<std::string>();
    if (auto c = e.find("only_config"); c != e.end()) k.configs.push_back(configText(*c));
    if (auto c = e.find("configs"); c != e.end() && c->is_array())
        for (const OJ& config : *c) k.configs.push_back(configText(config));
    if (auto n = e.find("num_configs"); n != e.end() && n->is_number_integer())
        k.numConfigs = n->get<int>();
    if (auto t = e.find("compile_time_us"); t != e.end() && t->is_number())
        k.compileTimeUs = t->get<double>();
}

// The post-grad nodes of a kernel: inductor_triton_kernel_to_post_grad_nodes, else the node
// mappings' cppCodeToPost under the name or any "name:<handle>" (an extern kernel called twice
// has one handle per call); pre-grad nodes through postToPre. Each node once, in order.
void applyNodes(KernelCode& k, const OJ& kernelToPost, const OJ& mappings) {
    std::vector<std::string> post;
    std::set<std::string> seenPost;
    auto take = [&](const OJ& nodes) {
        if (!nodes.is_array()) return;
        for (const OJ& n : nodes)
            if (n.is_string() && seenPost.insert(n.get<std::string>()).second)
                post.push_back(n.get<std::string>());
    };
    auto fromMap = [&](const OJ& map) {
        if (!map.is_object()) return;
        for (auto it = map.begin(); it != map.end(); ++it) {
            const std::string& key = it.key();
            if (key == k.name || (key.size() > k.name.size() && key.starts_with(k.name) &&
                                  key[k.name.size()] == ':'))
                take(it.value());
        }
    };
    fromMap(kernelToPost);
    if (post.empty() && mappings.is_object() && mappings.contains("cppCodeToPost"))
        fromMap(mappings["cppCodeToPost"]);
    std::vector<std::string> pre;
    std::set<std::string> seenPre;
    if (mappings.is_object() && mappings.contains("postToPre") && mappings["postToPre"].is_object())
        for (const std::string& node : post) {
            auto it = mappings["postToPre"].find(node);
            if (it == mappings["postToPre"].end() || !it->is_array()) continue;
            for (const OJ& p : *it)
                if (p.is_string() && seenPre.insert(p.get<std::string>()).second)
                    pre.push_back(p.get<std::string>());
        }
    k.postGradNodes = std::move(post);
    k.preGradNodes = std::move(pre);
}

}  // namespace

std::vector<KernelCode> parseOutputCode(std::string_view module) {
    std::vector<std::string_view> lines = splitLines(module);
    std::vector<KernelCode> triton;
    std::map<std::string, std::size_t> tritonAt;
    std::vector<KernelCode> externs;
    std::map<std::string, std::size_t> externAt;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (std::string_view name = tritonDefinition(lines[i]); !name.empty()) {
            // The string's body runs to the line that starts with the closing quotes; the
            // kernel is its decorators and def, after the imports.
            std::size_t end = i + 1;
            while (end < lines.size() && !lines[end].starts_with("'''")) ++end;
            std::size_t first = i + 1;
            while (first < end && !lines[first].starts_with("@")) ++first;
            std::size_t last = end;
            while (last > first && isBlank(lines[last - 1])) --last;
            KernelCode k;
            k.name = std::string(name);
            // The comment block above the definition names the kernel's own module.
            constexpr std::string_view kPath = "# kernel path: ";
            for (std::size_t c = i; c > 0 && lines[c - 1].starts_with("#"); --c)
                if (lines[c - 1].starts_with(kPath))
                    k.kernelPath = lines[c - 1].substr(kPath.size());
            if (first < last) {
                k.firstLine = int(first) + 1;
                k.lastLine = int(last);
                for (std::size_t l = first; l < last; ++l) {
                    k.source.append(lines[l]);
                    if (l + 1 < last) k.source += '\n';
                }
            }
            tritonAt.emplace(k.name, triton.size());
            triton.push_back(std::move(k));
            i = end;
            continue;
        }
        const std::string_view line = lines[i];
        for (const auto& [name, at] : tritonAt) {
            std::size_t p = line.find(name + ".run(");
            if (p != std::string_view::npos && (p == 0 || !isIdentChar(line[p - 1])))
                triton[at].launchSites.push_back({int(i) + 1, std::string(line)});
        }
        for (const std::string& name : externCalls(line)) {
            auto [it, fresh] = externAt.emplace(name, externs.size());
            if (fresh) {
                externs.emplace_back();
                externs.back().name = name;
                externs.back().triton = false;
            }
            externs[it->second].launchSites.push_back({int(i) + 1, std::string(line)});
        }
    }
    for (KernelCode& e : externs) triton.push_back(std::move(e));
    return triton;
}

KernelCodeIndex kernelCodeOf(const std::vector<GeneratedModule>& modules) {
    std::vector<KernelCode> kernels;
    std::vector<std::pair<std::string, std::string>> texts;
    for (const GeneratedModule& m : modules) {
        for (KernelCode& k : parseOutputCode(m.text)) {
            k.graphKey = m.graphKey;
            k.compileId = m.compileId;
            k.moduleFile = m.file;
            k.module = int(texts.size());
            applyKernelInfo(k, m.kernelInfo);
            applyNodes(k, m.kernelToPost, m.nodeMappings);
            kernels.push_back(std::move(k));
        }
        texts.emplace_back(m.compileId, m.text);
    }
    return KernelCodeIndex(std::move(kernels), std::move(texts));
}

std::optional<KernelCode> codeFromKernelFile(std::string_view name, const std::string& kernelFile) {
    if (kernelFile.empty()) return std::nullopt;
    std::string text = readTextFile(kernelFile);
    for (KernelCode& k : parseOutputCode(text))
        if (k.name == name) {
            k.moduleFile = kernelFile;
            return std::move(k);
        }
    return std::nullopt;
}

std::string missingCodeReason(const std::string& kernelInfoSource, bool hasCode,
                              const std::string& kernelFile) {
    constexpr const char* kHow =
        "run with TORCH_TRACE=<folder> and give its dedicated_log_torch_trace_*.log (or the "
        "folder) as kernel information";
    std::string why =
        kernelInfoSource.empty() ? std::string("no kernel information: ") + kHow
        : hasCode
            ? kernelInfoSource + " has no generated code for this kernel"
            : kernelInfoSource + " holds no generated code (a TORCH_TRACE log does: " + kHow + ")";
    if (!kernelFile.empty())
        why += "; its kernel_file " + kernelFile +
               (isRegularFile(kernelFile) ? " does not define it" : " is not on this machine");
    return why;
}

std::string readTextFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return {};
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace stackline
