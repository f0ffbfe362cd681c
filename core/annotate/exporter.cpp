#include "annotate/exporter.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <optional>
#include <thread>

#include "annotate/chrome_json_writer.h"
#include "base/file_system.h"
#include "import/trace_formats.h"
#include "io/background_writer.h"
#include "io/gzip_member_writer.h"
#include "json/json_cursor.h"

namespace stackline {
namespace {

// An edit replaces `remove` bytes at `offset` with pre + number + body + post; the pieces point
// into literals, the stack pool or the number's own digits, so no edit allocates.
struct Edit {
    uint64_t offset = 0;
    uint64_t remove = 0;
    std::string_view pre, body, post;
    std::array<char, 12> digits{};  // a row number (uint32)
    uint8_t digitCount = 0;

    std::string_view number() const { return {digits.data(), digitCount}; }
    void setNumber(uint32_t n) {
        digitCount = uint8_t(std::to_chars(digits.data(), digits.data() + digits.size(), n).ptr -
                             digits.data());
    }
};

// Position just after the last member before the closing brace at close (skips whitespace back).
uint64_t afterLastMember(std::string_view text, uint64_t close) {
    while (close > 0 && json::isSpace(text[close - 1])) --close;
    return close;
}

// The edits of one event, in offset order: "uid" and "stack" inserted or replaced.
void rowEdits(const Trace& trace, const Provenance& p, uint32_t row, std::vector<Edit>& edits) {
    std::string_view text = trace.text();
    const EventTable& t = trace.events;
    const EventTable::Kinds& k = t.kinds[row];
    edits.clear();
    bool uid = p.assignUids && k.event == ValueKind::Object;
    bool stack = p.written[row];
    if (!uid && !stack) return;
    uint64_t close = t.begin[row] + t.length[row] - 1;
    uint64_t end =
        k.eventGap == EventTable::kGapUnknown ? afterLastMember(text, close) : close - k.eventGap;
    bool tailStarted = false;  // members appended at the event's end so far
    if (uid) {
        auto existing = t.uidValue.empty() ? t.uidValue.end() : t.uidValue.find(row);
        Edit& e = edits.emplace_back();
        e.setNumber(row);
        if (existing != t.uidValue.end()) {
            e.offset = existing->second.begin;
            e.remove = existing->second.size();
        } else {
            e.offset = end;
            e.pre = k.objectEmpty ? "\"uid\":" : ",\"uid\":";
            tailStarted = true;
        }
    }
    if (stack) {
        std::string_view json = p.stacks.json(p.stackOf(row));
        auto existing = t.stackValue.empty() ? t.stackValue.end() : t.stackValue.find(row);
        Edit& e = edits.emplace_back();
        e.body = json;
        if (existing != t.stackValue.end()) {
            e.offset = existing->second.begin;
            e.remove = existing->second.size();
        } else if (k.args == ValueKind::Object) {
            Span a = t.argsSpan(row);
            e.offset = k.argsGap == EventTable::kGapUnknown ? afterLastMember(text, a.end - 1)
                                                            : a.end - 1 - k.argsGap;
            e.pre = k.argsEmpty ? "\"stack\":" : ",\"stack\":";
        } else {
            e.offset = end;
            e.pre =
                k.objectEmpty && !tailStarted ? "\"args\":{\"stack\":" : ",\"args\":{\"stack\":";
            e.post = "}";
        }
    }
    // At most two edits; at the same offset the uid stays first (as in the reference's dict).
    if (edits.size() == 2 && edits[1].offset < edits[0].offset) std::swap(edits[0], edits[1]);
}

// The single top-level edit: "uid_assigned": true.
std::optional<Edit> topEdit(const Trace& trace, const Provenance& p) {
    if (!p.assignUids) return std::nullopt;
    Edit e;
    if (trace.info.uidAssignedPresent) {
        e.offset = trace.info.uidAssignedValue.begin;
        e.remove = trace.info.uidAssignedValue.size();
        e.pre = "true";
    } else {
        e.offset = afterLastMember(trace.text(), trace.info.topClose);
        e.pre = trace.info.topEmpty ? "\"uid_assigned\":true" : ",\"uid_assigned\":true";
    }
    return e;
}

// Writes the output in order, as copied ranges and inserted texts.
template <typename Sink>
void splice(const Trace& trace, const Provenance& p, Sink&& sink) {
    uint64_t pos = 0;
    auto emit = [&](const Edit& e) {
        sink.copy(trace.slice({pos, e.offset}));
        sink.insert(e.pre);
        sink.insert(e.number());
        sink.insert(e.body);
        sink.insert(e.post);
        pos = e.offset + e.remove;
    };
    std::optional<Edit> top = topEdit(trace, p);
    std::vector<Edit> edits;
    for (uint32_t row = 0; p.applied && row < trace.events.size(); ++row) {
        rowEdits(trace, p, row, edits);
        for (const Edit& e : edits) {
            if (top && top->offset <= e.offset) {
                emit(*top);
                top.reset();
            }
            emit(e);
        }
        if (!edits.empty()) sink.progress(pos);
    }
    if (top) emit(*top);
    sink.copy(trace.slice({pos, trace.whole().end}));
}

// Collects output into fixed-size buffers and hands each full one to a consumer.
class BufferedSink {
public:
    // total: the progress's end, in the input's bytes when splicing (whose pages are then
    // released as they are copied), else in rows.
    BufferedSink(std::size_t capacity, std::function<void(std::string&&)> flush,
                 const ExportOptions& options, const Trace& input, uint64_t total, bool splicing)
        : capacity_(capacity),
          flush_(std::move(flush)),
          options_(options),
          input_(input),
          total_(total),
          splicing_(splicing) {
        buf_.reserve(capacity_);
    }
    void copy(std::string_view s) {
        while (!s.empty()) {
            std::size_t room = capacity_ - buf_.size();
            std::size_t n = std::min(room, s.size());
            buf_.append(s.data(), n);
            s.remove_prefix(n);
            if (buf_.size() == capacity_) flushBuffer();
        }
    }
    void insert(std::string_view s) { copy(s); }
    // pos: how far the input has been consumed.
    void progress(uint64_t pos) {
        if (pos - reported_ < (splicing_ ? (16u << 20) : (64u << 10))) return;
        if (splicing_) {
            // Input pages copied out (the buffer holds less than 16 MB) are no longer needed.
            const Span done{reported_ > (16u << 20) ? reported_ - (16u << 20) : 0, reported_};
            options_.consumeInput ? input_.discard(done) : input_.release(done);
        }
        reported_ = pos;
        if (options_.cancel && options_.cancel->load()) throw Cancelled{};
        if (options_.progress) options_.progress(pos, total_);
    }
    void finish() {
        if (!buf_.empty()) flushBuffer();
    }

private:
    // The consumer takes the buffer; when it leaves it empty-handed (moved from), a new one is
    // reserved, otherwise the same memory is reused.
    void flushBuffer() {
        flush_(std::move(buf_));
        buf_.clear();
        if (buf_.capacity() < capacity_) buf_.reserve(capacity_);
    }
    std::size_t capacity_;
    std::function<void(std::string&&)> flush_;  // takes the buffer's bytes (may move them)
    std::string buf_;
    const ExportOptions& options_;
    const Trace& input_;
    uint64_t total_;
    bool splicing_;
    uint64_t reported_ = 0;
};

bool endsWith(const std::string& s, const char* suffix) {
    std::size_t n = std::strlen(suffix);
    return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

// Writes the annotated trace to sink, as the trace's format says.
template <typename Sink>
void writeAnnotated(const Trace& trace, const Provenance& p, AnnotatedExport how, unsigned threads,
                    Sink& sink) {
    if (how == AnnotatedExport::Splice) {
        splice(trace, p, sink);
    } else {
        writeChromeJson(
            trace, p, threads, [&](std::string_view s) { sink.copy(s); },
            [&](uint32_t rows) { sink.progress(rows); });
    }
}

}  // namespace

std::string inPlaceRefusal(const Trace& trace) {
    const TraceFormat& format = formatOf(trace);
    if (format.annotatedExport != AnnotatedExport::ChromeJson) return {};
    return trace.path + ": " + std::string(format.name) +
           ": not rewritten in place; the annotated trace is new Chrome JSON, written to another "
           "file";
}

void exportTrace(const Trace& trace, const Provenance& provenance, const std::string& outPath,
                 const ExportOptions& options) {
    // How a trace's format is written annotated is its format table row's to say.
    const TraceFormat& format = formatOf(trace);
    const AnnotatedExport how = format.annotatedExport;
    if (how == AnnotatedExport::None)
        throw OutputError(outPath + ": " + std::string(format.name) +
                          " traces cannot be written annotated");
    if (options.allowOverwriteInput)
        if (std::string why = inPlaceRefusal(trace); !why.empty()) throw OutputError(why);
    if (!options.allowOverwriteInput && sameFile(outPath, trace.path))
        throw OutputError(outPath + ": refusing to overwrite the input trace (use --in-place)");
    trace.throwIfChanged();
    const bool splicing = how == AnnotatedExport::Splice;
    // The progress counts the input's bytes when splicing, else the rows; buffers are sized by
    // the input's bytes either way.
    uint64_t bytes = trace.whole().size();
    uint64_t total = splicing ? bytes : trace.events.size();
    AtomicFile file(outPath, writeCallFor(bytes));
    const unsigned threads =
        std::max(1u, options.threads ? options.threads : std::thread::hardware_concurrency());
    if (!endsWith(outPath, ".gz")) {
        // Splicing and writing overlap: while buffers are written (a copy into the page cache
        // that takes longer than producing them), the next ones are filled.
        // Big buffers make fewer handovers; small traces want writing to start early.
        std::size_t buffer = std::clamp<uint64_t>(bytes / 16, 1u << 20, 8u << 20);
        BackgroundWriter writer(file, 2);
        BufferedSink sink(
            buffer, [&](std::string&& b) { b = writer.push(std::move(b)); }, options, trace, total,
            splicing);
        writeAnnotated(trace, provenance, how, threads, sink);
        sink.finish();
        writer.finish();
    } else {
        // One gzip member, its chunks compressed on all cores while the next ones are filled.
        GzipMemberWriter gzip(file, options.gzipLevel, threads);
        std::size_t chunk = options.gzipChunk
                                ? options.gzipChunk
                                : std::clamp<uint64_t>(bytes / 16, 1u << 20, 16u << 20);
        BufferedSink sink(
            chunk, [&](std::string&& b) { b = gzip.push(std::move(b)); }, options, trace, total,
            splicing);
        writeAnnotated(trace, provenance, how, threads, sink);
        sink.finish();
        gzip.finish();
    }
    // Bytes copied from a file changed meanwhile would make a garbled output: none is left.
    trace.throwIfChanged();
    file.commit();
    if (options.progress) options.progress(total, total);
}

std::string exportToString(const Trace& trace, const Provenance& provenance) {
    std::string out;
    struct Sink {
        std::string& out;
        void copy(std::string_view s) { out.append(s); }
        void insert(std::string_view s) { out.append(s); }
        void progress(uint64_t) {}
    } sink{out};
    const TraceFormat& format = formatOf(trace);
    if (format.annotatedExport == AnnotatedExport::None)
        throw OutputError(std::string(format.name) + " traces cannot be written annotated");
    writeAnnotated(trace, provenance, format.annotatedExport, 1, sink);
    return out;
}

}  // namespace stackline
