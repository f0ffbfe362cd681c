// Helpers shared by the core tests: build traces from inline JSON, run the processor, read and
// write files, list folders, fill QTest data tables of strings and run stackline-cli as a user
// does.
#pragma once

#include <unistd.h>

#include <QByteArrayView>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTest>
#include <array>
#include <cstddef>
#include <fstream>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "annotate/exporter.h"
#include "annotate/provenance.h"
#include "import/trace_formats.h"
#include "kernel_info/kernel_info.h"
#include "model/trace.h"

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

// The same, for the tests that hold bytes as QByteArray ("" when the file cannot be read).
inline QByteArray readFile(const QString& path) {
    return QByteArray::fromStdString(readFile(path.toStdString()));
}

// Writes bytes to path, creating its folder; a failed write fails the calling test.
inline void writeFile(const QString& path, QByteArrayView bytes) {
    QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
    QFile f(path);
    QVERIFY2(f.open(QIODevice::WriteOnly) && f.write(bytes.data(), bytes.size()) == bytes.size(),
             qPrintable(path));
}

// Every entry of a folder, sorted, hidden ones (temporary outputs) included.
inline QStringList folderEntries(const QString& dir) {
    QStringList e =
        QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    e.sort();
    return e;
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

// Declares the columns of a QTest data table that all hold strings.
template <std::size_t Columns>
void stringColumns(const std::array<const char*, Columns>& columns) {
    for (const char* column : columns) QTest::addColumn<QString>(column);
}

// Rows of a QTest data table whose columns all hold strings: {row name, each column's value}.
template <std::size_t Columns>
using StringRows = std::initializer_list<std::array<const char*, Columns + 1>>;

template <std::size_t Columns>
void stringRows(StringRows<Columns> rows) {
    for (const std::array<const char*, Columns + 1>& row : rows) {
        QTestData& data = QTest::newRow(row[0]);
        for (std::size_t i = 1; i <= Columns; ++i) data << QString::fromUtf8(row[i]);
    }
}

// A QTest data table whose columns all hold strings. The rows whose case needs a denied
// permission are left out for root, which passes every permission check.
template <std::size_t Columns>
void stringTable(const std::array<const char*, Columns>& columns, StringRows<Columns> rows,
                 StringRows<Columns> deniedPermissionRows = {}) {
    stringColumns(columns);
    stringRows<Columns>(rows);
    if (::geteuid() != 0) stringRows<Columns>(deniedPermissionRows);
}

inline QString dump(const nlohmann::json& j) {
    return QString::fromStdString(j.dump());
}

#ifdef STACKLINE_CLI
// stackline-cli run as a user would; a run that dies on a signal (or is killed after two minutes)
// has code -1.
struct Run {
    int code;
    QString err, out;
};

inline Run cli(const QStringList& args) {
    QProcess p;
    p.start(STACKLINE_CLI, args);
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardError()),
            QString::fromUtf8(p.readAllStandardOutput())};
}
#endif

}  // namespace stackline::test
