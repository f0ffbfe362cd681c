// An exported .json.gz is exactly one gzip member, whatever its size and however many chunks it
// was compressed in (chrome://tracing's importer and speedscope read only the first member), and
// it inflates to the .json export.
#include <zlib.h>

#include <QTemporaryDir>
#include <QTest>
#include <random>

#include "io/gzip_member_writer.h"
#include "test_support.h"

using namespace stackline;
using namespace stackline::test;

namespace {

const char* kInfo =
    "{\"('Torch-Compiled Region: 0/0', False)\": {\"triton_a\": [\"a.py:1\"],"
    " \"triton_b\": {\"stack_traces\": [\"b.py:2\"]}}}";

// A compiled region with `pairs` launches and kernels, half of them annotated.
std::string traceWith(int pairs) {
    std::string s =
        "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"Torch-Compiled "
        "Region: 0/0\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 1e9}";
    for (int i = 0; i < pairs; ++i) {
        std::string ts = std::to_string(10 + 3 * i), id = std::to_string(i);
        std::string name = i % 2 ? "triton_a" : "triton_c";
        s += ",\n {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"" + name +
             "\", \"pid\": 1, \"tid\": 1, \"ts\": " + ts +
             ", \"dur\": 1, \"args\": {\"External id\": " + id +
             "}},\n {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" + name +
             "\", \"pid\": 0, \"tid\": 7, \"ts\": " + ts +
             ", \"dur\": 1, \"args\": {\"External id\": " + id + "}}";
    }
    return s + "], \"traceName\": \"t\"}";
}

uint32_t littleEndian32(const std::string& s, std::size_t at) {
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = v << 8 | uint8_t(s[at + i]);
    return v;
}

// Reads gz as one gzip member and inflates it into out: a gzip header, a deflate stream that
// ends exactly where the 8-byte trailer starts (so nothing, no second member, follows), and a
// trailer whose CRC-32 and size are those of what was inflated.
void inflateOneMember(const std::string& gz, std::string& out) {
    QVERIFY(gz.size() >= 18);
    QCOMPARE(uint8_t(gz[0]), 0x1f);
    QCOMPARE(uint8_t(gz[1]), 0x8b);
    QCOMPARE(uint8_t(gz[2]), 8);  // deflate
    const uint8_t flags = uint8_t(gz[3]);
    QCOMPARE(flags & 0xe0, 0);  // reserved
    std::size_t pos = 10;
    if (flags & 4) pos += 2 + (uint8_t(gz[pos]) | uint8_t(gz[pos + 1]) << 8);  // FEXTRA
    for (int text : {8, 16})                                                   // FNAME, FCOMMENT
        if (flags & text) pos = gz.find('\0', pos) + 1;
    if (flags & 2) pos += 2;  // FHCRC
    QVERIFY(pos > 0 && pos <= gz.size() - 8);

    z_stream s{};
    QCOMPARE(inflateInit2(&s, -15), Z_OK);  // raw deflate: the stream alone
    s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data() + pos));
    s.avail_in = uInt(gz.size() - pos);
    out.clear();
    int r = Z_OK;
    while (r == Z_OK) {
        out.resize(out.size() + (1 << 16));
        s.next_out = reinterpret_cast<Bytef*>(out.data() + s.total_out);
        s.avail_out = 1 << 16;
        r = inflate(&s, Z_NO_FLUSH);
    }
    out.resize(s.total_out);
    const uInt left = s.avail_in;
    inflateEnd(&s);
    QCOMPARE(r, Z_STREAM_END);
    QCOMPARE(left, 8u);
    QCOMPARE(littleEndian32(gz, gz.size() - 8),
             uint32_t(crc32(0, reinterpret_cast<const Bytef*>(out.data()), uInt(out.size()))));
    QCOMPARE(littleEndian32(gz, gz.size() - 4), uint32_t(out.size()));
}

// The trace exported as .json and as .json.gz: the .gz must be one member of the same bytes.
// gzSize: the .gz file's size.
void exportBoth(const std::string& trace, const ExportOptions& options,
                std::size_t* gzSize = nullptr) {
    QTemporaryDir dir;
    Trace t = traceFrom(trace);
    Provenance p = runProvenance(t, kernelInfoFrom(kInfo));
    std::string json = dir.filePath("out.json").toStdString();
    std::string gz = dir.filePath("out.json.gz").toStdString();
    exportTrace(t, p, json, options);
    exportTrace(t, p, gz, options);
    std::string gzBytes = readFile(gz), inflated;
    if (gzSize) *gzSize = gzBytes.size();
    inflateOneMember(gzBytes, inflated);
    if (QTest::currentTestFailed()) return;
    QVERIFY2(inflated == readFile(json), "the .json.gz does not inflate to the .json export");
}

// Writes chunks straight through GzipMemberWriter; returns the file's bytes.
std::string writeMember(const std::vector<std::string>& chunks, int level, unsigned threads) {
    QTemporaryDir dir;
    std::string path = dir.filePath("out.gz").toStdString();
    {
        AtomicFile file(path);
        GzipMemberWriter gzip(file, level, threads);
        for (const std::string& c : chunks) gzip.push(std::string(c));
        gzip.finish();
        file.commit();
    }
    return readFile(path);
}

}  // namespace

class TstGzipExport : public QObject {
    Q_OBJECT
private slots:
    void isOneMember_data() {
        QTest::addColumn<std::string>("trace");
        QTest::addColumn<int>("chunk");  // 0: the exporter's choice
        QTest::addColumn<int>("level");
        QTest::addColumn<int>("threads");
        const std::string tiny = traceWith(1), small = traceWith(300);
        QTest::newRow("empty-ish") << std::string("{\"traceEvents\": []}") << 0 << 2 << 0;
        QTest::newRow("empty-ish, 1-byte chunks")
            << std::string("{\"traceEvents\": []}") << 1 << 2 << 2;
        QTest::newRow("tiny, one chunk") << tiny << 0 << 2 << 0;
        QTest::newRow("tiny, 7-byte chunks") << tiny << 7 << 2 << 2;
        QTest::newRow("one chunk") << small << 0 << 2 << 0;
        QTest::newRow("one chunk, one thread") << small << 0 << 2 << 1;
        for (int level = GzipMemberWriter::kMinLevel; level <= GzipMemberWriter::kMaxLevel; ++level)
            for (int threads : {1, 2, 5})
                QTest::addRow("1000-byte chunks, level %d, %d threads", level, threads)
                    << small << 1000 << level << threads;
        QTest::newRow("64-byte chunks") << small << 64 << 2 << 3;
    }
    void isOneMember() {
        QFETCH(std::string, trace);
        QFETCH(int, chunk);
        QFETCH(int, level);
        QFETCH(int, threads);
        ExportOptions options;
        options.gzipChunk = std::size_t(chunk);
        options.gzipLevel = level;
        options.threads = unsigned(threads);
        exportBoth(trace, options);
    }
    void chunksEndingAtTheOutputsEnd() {
        // The last chunk is full, or holds one byte, or the output is cut into equal thirds.
        const std::string trace = traceWith(40);
        Trace t = traceFrom(trace);
        const std::size_t size = exportToString(t, runProvenance(t, kernelInfoFrom(kInfo))).size();
        for (std::size_t chunk : {size, size - 1, size + 1, size / 2, (size + 2) / 3}) {
            ExportOptions options;
            options.gzipChunk = chunk;
            exportBoth(trace, options);
            if (QTest::currentTestFailed()) qWarning("chunk size %zu of %zu", chunk, size);
        }
    }
    void chunksAreCompressedApart() {
        // Chunks share no history: many small ones compress worse than one, which shows the
        // option reaches the compressor (and the stream stays one member either way).
        const std::string trace = traceWith(300);
        ExportOptions whole, chunked;
        chunked.gzipChunk = 256;
        std::size_t one = 0, many = 0;
        exportBoth(trace, whole, &one);
        exportBoth(trace, chunked, &many);
        QVERIFY2(many > one + 100, qPrintable(QString("%1 vs %2 bytes").arg(many).arg(one)));
    }
    void sameBytesWhateverTheThreads() {
        // Chunks are compressed alone, so how many threads share them changes nothing.
        std::vector<std::string> chunks;
        for (int i = 0; i < 40; ++i) chunks.push_back(traceWith(i));
        const std::string one = writeMember(chunks, 2, 1);
        QVERIFY(writeMember(chunks, 2, 3) == one);
        QVERIFY(writeMember(chunks, 2, 8) == one);
    }
    void storesWhatDoesNotCompress() {
        // Random bytes come out as stored blocks, bigger than their input, still one member.
        std::mt19937 random(15);
        std::vector<std::string> chunks(5);
        for (std::string& c : chunks)
            for (int i = 0; i < 100000; ++i) c.push_back(char(random()));
        chunks[2].clear();  // an empty chunk in the middle changes nothing
        for (int level = GzipMemberWriter::kMinLevel; level <= GzipMemberWriter::kMaxLevel;
             ++level) {
            std::string gz = writeMember(chunks, level, 2), inflated;
            inflateOneMember(gz, inflated);
            QVERIFY(inflated == chunks[0] + chunks[1] + chunks[3] + chunks[4]);
            QVERIFY(gz.size() > inflated.size());
        }
    }
    void nothingWrittenIsAnEmptyMember() {
        std::string inflated = "not empty";
        inflateOneMember(writeMember({}, 2, 1), inflated);
        QVERIFY(inflated.empty());
    }
    void refusesLevelsItDoesNotHave() {
        QTemporaryDir dir;
        AtomicFile file(dir.filePath("out.gz").toStdString());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, GzipMemberWriter(file, 4, 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, GzipMemberWriter(file, -1, 1));
    }
};

QTEST_GUILESS_MAIN(TstGzipExport)
#include "tst_gzip_export.moc"
