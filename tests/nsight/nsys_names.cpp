#include "nsys_names.h"

#include <array>
#include <cctype>

namespace stackline::nsys {

std::string nvtxRangeName(std::string_view name, int64_t sequenceNr, int64_t opId) {
    std::string s(name);
    if (sequenceNr >= 0) s += ", seq = " + std::to_string(sequenceNr);
    if (opId > 0) s += ", op_id = " + std::to_string(opId);
    return s;
}

namespace {

// A CUDA version code (3020, 7000, 11030): four digits or more, unlike an API's own "_v2".
bool hasVersionSuffix(std::string_view name) {
    const size_t v = name.rfind("_v");
    if (v == std::string_view::npos || name.size() - v < 6) return false;
    for (size_t i = v + 2; i < name.size(); ++i)
        if (!std::isdigit(static_cast<unsigned char>(name[i]))) return false;
    return true;
}

struct Suffix {
    std::string_view name;
    std::string_view version;
};
// CUPTI_RUNTIME_TRACE_CBID_<name>_v<version> for the calls PyTorch makes most; any other runtime
// call gets 3020 (CUDA 3.2, the version of most of the original runtime API).
constexpr std::array<Suffix, 19> kSuffixes = {{
    {"cudaLaunchKernel", "7000"},
    {"cudaLaunchKernel_ptsz", "7000"},
    {"cudaLaunchKernelExC", "11060"},
    {"cudaLaunchCooperativeKernel", "9000"},
    {"cudaLaunchHostFunc", "10000"},
    {"cudaGraphLaunch", "10000"},
    {"cudaGraphAddKernelNode", "10000"},
    {"cudaStreamIsCapturing", "10000"},
    {"cudaStreamBeginCapture", "10000"},
    {"cudaStreamEndCapture", "10000"},
    {"cudaGraphInstantiate", "10000"},
    {"cudaStreamGetCaptureInfo", "10010"},
    {"cudaThreadExchangeStreamCaptureMode", "10010"},
    {"cudaMallocAsync", "11020"},
    {"cudaFreeAsync", "11020"},
    {"cudaStreamGetCaptureInfo_v2", "11030"},
    {"cudaFuncSetAttribute", "9000"},
    {"cudaDeviceGetAttribute", "5000"},
    {"cudaPointerGetAttributes", "4000"},
}};

}  // namespace

std::string versionedRuntimeName(std::string_view name) {
    if (name.substr(0, 4) != "cuda" || hasVersionSuffix(name)) return std::string(name);
    for (const Suffix& s : kSuffixes)
        if (s.name == name) return std::string(name) + "_v" + std::string(s.version);
    return std::string(name) + "_v3020";
}

std::string kernelShortName(std::string_view d) {
    // The parameter list starts at the first '(' outside template brackets.
    int depth = 0;
    size_t end = d.size();
    for (size_t i = 0; i < d.size(); ++i) {
        if (d[i] == '<') ++depth;
        if (d[i] == '>' && depth > 0) --depth;
        if (d[i] == '(' && depth == 0) {
            end = i;
            break;
        }
    }
    std::string_view head = d.substr(0, end);
    // Drop trailing template arguments, then keep what follows the last "::" or space at depth 0.
    while (!head.empty() && head.back() == '>') {
        int level = 0;
        size_t i = head.size();
        while (i > 0) {
            --i;
            if (head[i] == '>') ++level;
            if (head[i] == '<' && --level == 0) break;
        }
        head = head.substr(0, i);
    }
    size_t cut = 0;
    depth = 0;
    for (size_t i = 0; i < head.size(); ++i) {
        if (head[i] == '<') ++depth;
        if (head[i] == '>' && depth > 0) --depth;
        if (depth == 0 && head[i] == ' ') cut = i + 1;
        if (depth == 0 && head[i] == ':' && i + 1 < head.size() && head[i + 1] == ':') cut = i + 2;
    }
    std::string_view shortName = head.substr(cut);
    return shortName.empty() ? std::string(d) : std::string(shortName);
}

int memcpyKind(std::string_view n) {
    constexpr std::array<std::pair<std::string_view, int>, 10> kinds = {{{"HtoD", 1},
                                                                         {"DtoH", 2},
                                                                         {"HtoA", 3},
                                                                         {"AtoH", 4},
                                                                         {"AtoA", 5},
                                                                         {"AtoD", 6},
                                                                         {"DtoA", 7},
                                                                         {"DtoD", 8},
                                                                         {"HtoH", 9},
                                                                         {"PtoP", 10}}};
    for (const auto& [label, id] : kinds)
        if (n.find(label) != std::string_view::npos) return id;
    return 0;
}

int memoryKind(std::string_view label) {
    constexpr std::array<std::pair<std::string_view, int>, 7> kinds = {{{"Pageable", 0},
                                                                        {"Pinned", 1},
                                                                        {"Device Static", 5},
                                                                        {"Device", 2},
                                                                        {"Array", 3},
                                                                        {"Managed Static", 6},
                                                                        {"Managed", 4}}};
    for (const auto& [name, id] : kinds)
        if (label.substr(0, name.size()) == name) return id;
    return 7;  // Unknown
}

std::pair<int, int> memcpyEndpoints(std::string_view n) {
    const size_t open = n.find('('), arrow = n.find(" -> "), close = n.rfind(')');
    if (open == std::string_view::npos || arrow == std::string_view::npos || close < arrow)
        return {7, 7};
    return {memoryKind(n.substr(open + 1, arrow - open - 1)),
            memoryKind(n.substr(arrow + 4, close - arrow - 4))};
}

int memsetKind(std::string_view n) {
    const size_t open = n.find('(');
    return open == std::string_view::npos ? 7 : memoryKind(n.substr(open + 1));
}

int syncType(std::string_view n) {
    if (n.find("Event Sync") != std::string_view::npos) return 1;
    if (n.find("Wait") != std::string_view::npos) return 2;
    if (n.find("Stream Sync") != std::string_view::npos) return 3;
    if (n.find("Context Sync") != std::string_view::npos) return 4;
    return 0;
}

std::optional<PythonFrame> parsePythonFrame(std::string_view n) {
    const size_t close = n.find("): ");
    if (close == std::string_view::npos) return std::nullopt;
    const size_t open = n.rfind('(', close);
    if (open == std::string_view::npos || open + 1 >= close) return std::nullopt;
    PythonFrame f;
    for (size_t i = open + 1; i < close; ++i) {
        if (!std::isdigit(static_cast<unsigned char>(n[i]))) return std::nullopt;
        f.line = f.line * 10 + (n[i] - '0');
    }
    f.file = std::string(n.substr(0, open));
    f.function = std::string(n.substr(close + 3));
    return f;
}

std::string threadNameOf(std::string_view n) {
    if (n.substr(0, 7) == "thread " && n.size() > 1 && n.back() == ')') {
        const size_t open = n.find(" (");
        if (open != std::string_view::npos)
            return std::string(n.substr(open + 2, n.size() - open - 3));
    }
    return std::string(n);
}

}  // namespace stackline::nsys
