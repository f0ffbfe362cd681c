// Helpers shared by the core tests: build traces from inline JSON, run the processor, and compare
// JSON values the way Python's == does (1 == 1.0, key order ignored).
#pragma once

#include <QProcess>
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

inline QString dump(const nlohmann::json& j) {
    return QString::fromStdString(j.dump());
}

#ifdef STACKLINE_CLI
// stackline-cli run as a user would; a run that dies on a signal has code -1.
struct Run {
    int code;
    QString err, out;
};

inline Run cli(const QStringList& args) {
    QProcess p;
    p.start(STACKLINE_CLI, args);
    p.waitForFinished(60000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardError()),
            QString::fromUtf8(p.readAllStandardOutput())};
}
#endif

}  // namespace stackline::test
