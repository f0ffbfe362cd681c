// Helpers shared by the core tests: build traces from inline JSON, run the processor, and compare
// JSON values the way Python's == does (1 == 1.0, key order ignored).
#pragma once

#include <QString>
#include <QTest>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "exporter.h"
#include "kernel_info.h"
#include "provenance.h"
#include "trace.h"

namespace stackline::test {

inline Trace traceFrom(const std::string& json) {
    return parseTrace(TraceBytes::fromString(json), "inline.json");
}

inline KernelInfo kernelInfoFrom(const std::string& json) {
    return KernelInfo::parse(json, "inline_kernel_info.json");
}

inline std::string readFile(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// The annotated output of trace + kernel information, parsed back.
inline nlohmann::json annotate(const std::string& trace, const std::string& kernelInfo,
                               Provenance* provenance = nullptr) {
    Trace t = traceFrom(trace);
    KernelInfo k = kernelInfoFrom(kernelInfo);
    Provenance p = runProvenance(t, k);
    nlohmann::json out = nlohmann::json::parse(exportToString(t, p));
    if (provenance) *provenance = std::move(p);
    return out;
}

inline QString dump(const nlohmann::json& j) { return QString::fromStdString(j.dump()); }

}  // namespace stackline::test
