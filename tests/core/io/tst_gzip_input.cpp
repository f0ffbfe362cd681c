// .json.gz inputs: inflated member by member as gzip -dc does (padding and trailing garbage
// ignored, corruption reported with its position), into an unlinked scratch file beside the trace
// whose pages the kernel can reclaim, not into anonymous memory; an export that reads the trace
// once frees them as it goes, and never touches a plain input.
#include <unistd.h>
#include <zlib.h>

#include <QTemporaryDir>
#include <QTest>
#include <fstream>
#include <random>
#include <sstream>

#include "annotate/exporter.h"
#include "annotate/provenance.h"
#include "base/file_system.h"
#include "base_trace.h"
#include "kernel_info/kernel_info.h"
#include "model/trace.h"
#include "test_support.h"

using namespace stackline;

// One gzip member of `text`, made by zlib (independently of the inflater under test).
static std::string gzipMember(const std::string& text) {
    z_stream z{};
    if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return {};
    std::string out(deflateBound(&z, uLong(text.size())), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = uInt(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = uInt(out.size());
    deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

static void writeFile(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

// A trace of `events` events whose numbers make the text compress poorly (many deflate blocks,
// more than one output buffer).
static std::string traceText(int events) {
    std::mt19937 rng(7);
    std::string text = "{\"traceEvents\": [";
    for (int i = 0; i < events; ++i)
        text += std::string(i ? ", " : "") + "{\"name\": \"k" + std::to_string(rng()) +
                "\", \"ph\": \"X\", \"ts\": " + std::to_string(rng() % 100000) + "}";
    return text + "]}";
}

// The path of the file mapped at `address` in this process, from /proc/self/maps.
static std::string mappedFile(const void* address) {
    std::ifstream maps("/proc/self/maps");
    const auto at = reinterpret_cast<uintptr_t>(address);
    for (std::string line; std::getline(maps, line);) {
        std::istringstream fields(line);
        std::string range, perms, offset, device, inode, path;
        fields >> range >> perms >> offset >> device >> inode;
        std::getline(fields >> std::ws, path);
        const size_t dash = range.find('-');
        const uintptr_t begin = std::stoull(range.substr(0, dash), nullptr, 16);
        const uintptr_t end = std::stoull(range.substr(dash + 1), nullptr, 16);
        if (at >= begin && at < end) return path;
    }
    return {};
}

class TstGzipInput : public QObject {
    Q_OBJECT
private slots:
    void membersPaddingAndGarbageAsGzipDoes() {
        QTemporaryDir dir;
        const std::string text = traceText(60000);
        const size_t a = text.size() / 3, b = 2 * text.size() / 3;
        const std::string path = dir.filePath("t.json.gz").toStdString();
        writeFile(path, gzipMember(text.substr(0, a)) + std::string(100, '\0') +
                            gzipMember(text.substr(a, b - a)) + gzipMember(text.substr(b)) +
                            std::string(7, '\0') + "not a member");
        Trace t = loadTrace(path);
        QVERIFY(t.bytes.wasCompressed());
        QVERIFY(t.bytes.text() == text);
        QCOMPARE(t.events.size(), 60000u);
        QCOMPARE(t.bytes.text().data()[text.size()], '\0');  // the scanner's sentinel
    }
    void inflatedTextIsAnUnlinkedFileBesideTheTrace() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.json.gz").toStdString();
        writeFile(path, gzipMember(traceText(1000)));
        Trace t = loadTrace(path);
        const std::string mapped = mappedFile(t.bytes.text().data());
        QVERIFY2(mapped.rfind(dir.path().toStdString() + "/", 0) == 0, mapped.c_str());
        QVERIFY2(mapped.find("(deleted)") != std::string::npos, mapped.c_str());
    }
    void scratchWithoutRoomOnDiskIsInMemory() {
        const ScratchFile s = openScratchFile({"."}, uint64_t(1) << 62);
        QVERIFY(s.fd >= 0);
        QVERIFY(s.folder.empty());
        ::close(s.fd);
    }
    // stackline-cli's export (consumeInput) frees the inflated text behind it, so its output
    // reuses that memory: the bytes it has copied read as zeros afterwards, and the output is
    // the one an export that keeps them writes. A plain input is left as it is.
    void consumingExportFreesTheInflatedText() {
        QTemporaryDir dir;
        // baseTrace's annotated kernel gives every event a uid: the export edits all along.
        QByteArray filler;
        for (int i = 0; i < 500000; ++i)
            filler += (i ? ",\n" : "") + QByteArray("{\"ph\": \"X\", \"cat\": \"cpu_op\", ") +
                      "\"name\": \"op\", \"pid\": 1, \"tid\": 1, \"ts\": 50, \"dur\": 1}";
        const std::string text = test::baseTrace(filler).toStdString();
        QVERIFY(text.size() > (32u << 20));  // freed in 16 MB steps
        const std::string gz = dir.filePath("t.json.gz").toStdString();
        const std::string plain = dir.filePath("t.json").toStdString();
        writeFile(gz, gzipMember(text));
        writeFile(plain, text);
        const KernelInfo info = KernelInfo::parse(test::kInfo.toStdString(), "k.json");
        ExportOptions consume;
        consume.consumeInput = true;
        for (const std::string& input : {gz, plain}) {
            Trace t = loadTrace(input);
            const Provenance p = runProvenance(t, info);
            const std::string expected = exportToString(t, p);
            QVERIFY(expected.size() > text.size() + 500000);  // every event got its uid
            const std::string out = dir.filePath("out.json").toStdString();
            exportTrace(t, p, out, consume);
            QVERIFY2(test::readFile(out) == expected, input.c_str());
            const bool freed = t.bytes.text().substr(8u << 20, 4096) == std::string(4096, '\0');
            QCOMPARE(freed, input == gz);
            QVERIFY(t.bytes.text().substr(text.size() - 4096) == text.substr(text.size() - 4096));
        }
        QVERIFY(test::readFile(plain) == text);
    }
    void truncatedOrCorruptDataNamesTheByte() {
        QTemporaryDir dir;
        const std::string member = gzipMember(traceText(20000));
        const std::string path = dir.filePath("t.json.gz").toStdString();
        writeFile(path, member.substr(0, member.size() / 2));
        try {
            loadTrace(path);
            QFAIL("a truncated member loaded");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find(path + ": corrupt or truncated gzip data "
                                                       "(compressed byte ") == 0,
                     e.what());
        }
        std::string badCrc = member;
        badCrc[badCrc.size() - 6] ^= 0x55;
        writeFile(path, badCrc);
        QVERIFY_THROWS_EXCEPTION(InputError, loadTrace(path));
        // A second member that is broken is not garbage to ignore.
        writeFile(path, member + member.substr(0, 40));
        QVERIFY_THROWS_EXCEPTION(InputError, loadTrace(path));
    }
};

QTEST_GUILESS_MAIN(TstGzipInput)
#include "tst_gzip_input.moc"
