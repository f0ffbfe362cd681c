#include "exporter.h"

#include <libdeflate.h>

#include <algorithm>
#include <deque>
#include <future>
#include <memory>
#include <thread>

#include "json_cursor.h"

namespace stackline {
namespace {

struct Edit {
    uint64_t offset;
    uint64_t remove;  // bytes of the original replaced
    std::string text;
};

// Position just after the last member before the closing brace at close (skips whitespace back).
uint64_t afterLastMember(std::string_view text, uint64_t close) {
    while (close > 0 && json::isSpace(text[close - 1])) --close;
    return close;
}

// Produces the output in order as a sequence of copied ranges and inserted texts.
template <typename Sink>
void splice(const Trace& trace, const Provenance& p, Sink&& sink) {
    std::string_view text = trace.text();
    const EventTable& t = trace.events;
    uint64_t pos = 0;
    auto emit = [&](Edit& e) {
        sink.copy(text.substr(pos, e.offset - pos));
        sink.insert(e.text);
        pos = e.offset + e.remove;
    };

    // The single top-level edit, merged in where its offset falls.
    std::optional<Edit> top;
    if (p.assignUids) {
        if (trace.info.uidAssignedPresent)
            top = Edit{trace.info.uidAssignedValue.begin, trace.info.uidAssignedValue.size(), "true"};
        else
            top = Edit{afterLastMember(text, trace.info.topClose), 0,
                       trace.info.topEmpty ? "\"uid_assigned\":true" : ",\"uid_assigned\":true"};
    }

    std::vector<Edit> edits;
    for (uint32_t row = 0, n = t.size(); p.applied && row < n; ++row) {
        const EventTable::Kinds& k = t.kinds[row];
        bool uid = p.assignUids && k.event == ValueKind::Object;
        bool stack = p.written[row] != 0;
        if (!uid && !stack) continue;
        edits.clear();
        uint64_t close = t.begin[row] + t.length[row] - 1;
        uint64_t end = afterLastMember(text, close);
        std::string tail;
        if (uid) {
            auto existing = t.uidValue.find(row);
            if (existing != t.uidValue.end())
                edits.push_back({existing->second.begin, existing->second.size(), std::to_string(row)});
            else
                tail += (k.objectEmpty ? "\"uid\":" : ",\"uid\":") + std::to_string(row);
        }
        if (stack) {
            const std::string& json = p.stacks.json(p.stack[row]);
            auto existing = t.stackValue.find(row);
            if (existing != t.stackValue.end()) {
                edits.push_back({existing->second.begin, existing->second.size(), json});
            } else if (k.args == ValueKind::Object) {
                Span a = t.argsSpan(row);
                edits.push_back({afterLastMember(text, a.end - 1), 0,
                                 (k.argsEmpty ? "\"stack\":" : ",\"stack\":") + json});
            } else {
                bool first = k.objectEmpty && tail.empty();
                tail += (first ? "\"args\":{\"stack\":" : ",\"args\":{\"stack\":") + json + "}";
            }
        }
        if (!tail.empty()) edits.push_back({end, 0, std::move(tail)});
        std::stable_sort(edits.begin(), edits.end(),
                         [](const Edit& a, const Edit& b) { return a.offset < b.offset; });
        for (Edit& e : edits) {
            if (top && top->offset <= e.offset) {
                emit(*top);
                top.reset();
            }
            emit(e);
        }
        sink.progress(pos);
    }
    if (top) emit(*top);
    sink.copy(text.substr(pos));
}

// Collects output into fixed-size buffers and hands each full one to a consumer.
class BufferedSink {
public:
    BufferedSink(std::size_t capacity, std::function<void(std::string&&)> flush,
                 const ExportOptions& options, const TraceBytes& input)
        : capacity_(capacity),
          flush_(std::move(flush)),
          options_(options),
          input_(input),
          total_(input.text().size()) {
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
        if (pos - reported_ < (16u << 20)) return;
        // Input pages copied out (the buffer holds less than 16 MB) are no longer needed.
        input_.release(reported_ > (16u << 20) ? reported_ - (16u << 20) : 0, reported_);
        reported_ = pos;
        if (options_.cancel && options_.cancel->load()) throw Cancelled{};
        if (options_.progress) options_.progress(pos, total_);
    }
    void finish() {
        if (!buf_.empty()) flushBuffer();
    }

private:
    void flushBuffer() {
        std::string full;
        full.reserve(capacity_);
        full.swap(buf_);
        flush_(std::move(full));
    }
    std::size_t capacity_;
    std::function<void(std::string&&)> flush_;
    std::string buf_;
    const ExportOptions& options_;
    const TraceBytes& input_;
    uint64_t total_;
    uint64_t reported_ = 0;
};

std::string gzipMember(const std::string& in, int level) {
    std::unique_ptr<libdeflate_compressor, decltype(&libdeflate_free_compressor)> c(
        libdeflate_alloc_compressor(level), libdeflate_free_compressor);
    std::string out(libdeflate_gzip_compress_bound(c.get(), in.size()), '\0');
    std::size_t n = libdeflate_gzip_compress(c.get(), in.data(), in.size(), out.data(), out.size());
    out.resize(n);
    return out;
}

bool endsWith(const std::string& s, const char* suffix) {
    std::size_t n = std::strlen(suffix);
    return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

}  // namespace

void exportTrace(const Trace& trace, const Provenance& provenance, const std::string& outPath,
                 const ExportOptions& options) {
    if (!options.allowOverwriteInput && sameFile(outPath, trace.path))
        throw OutputError(outPath + ": refusing to overwrite the input trace (use --in-place)");
    AtomicFile file(outPath);
    uint64_t total = trace.text().size();
    if (!endsWith(outPath, ".gz")) {
        BufferedSink sink(8u << 20, [&](std::string&& b) { file.write(b); }, options, trace.bytes);
        splice(trace, provenance, sink);
        sink.finish();
    } else {
        // Independent gzip members compressed on all cores, written in order.
        unsigned threads = options.threads ? options.threads : std::thread::hardware_concurrency();
        threads = std::max(1u, threads);
        std::deque<std::future<std::string>> pending;
        auto drain = [&](std::size_t keep) {
            while (pending.size() > keep) {
                file.write(pending.front().get());
                pending.pop_front();
            }
        };
        BufferedSink sink(
            16u << 20,
            [&](std::string&& b) {
                drain(threads);
                pending.push_back(std::async(std::launch::async,
                                             [b = std::move(b), level = options.gzipLevel] {
                                                 return gzipMember(b, level);
                                             }));
            },
            options, trace.bytes);
        splice(trace, provenance, sink);
        sink.finish();
        if (pending.empty()) file.write(gzipMember({}, options.gzipLevel));
        drain(0);
    }
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
    splice(trace, provenance, sink);
    return out;
}

}  // namespace stackline
