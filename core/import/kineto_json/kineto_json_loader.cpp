// One pass over the bytes, no DOM: the traceEvents array is cut into chunks at event boundaries
// guessed from the bytes, each chunk is indexed on its own thread, and a guess is kept only when
// the chunk before it really ends there (otherwise that part is rescanned in order).
#include <algorithm>
#include <array>
#include <atomic>
#include <exception>
#include <memory>
#include <thread>

#include "import/kineto_json/kineto_json_loader.h"

#include "import/kineto_json/event_scanner.h"
#include "import/kineto_json/kineto_args_reader.h"
#include "import/kineto_json/kineto_metadata_reader.h"
#include "io/memory_budget.h"
#include "json/json_cursor.h"

namespace stackline {
namespace {

using detail::EventScanner;
using detail::isZeroNumber;
using json::Cursor;

// The position of an event that likely starts at or after from: a '{' preceded by ',' and '}'.
const char* guessEventStart(const char* from, const char* end) {
    const char* limit = std::min(end, from + (4 << 20));
    for (const char* p = from; p < limit; ++p) {
        p = static_cast<const char*>(std::memchr(p, '{', size_t(limit - p)));
        if (!p) return nullptr;
        const char* q = p - 1;
        while (q > from && json::isSpace(*q)) --q;
        if (q <= from || *q != ',') continue;
        --q;
        while (q > from && json::isSpace(*q)) --q;
        if (q > from && *q == '}') return p;
    }
    return nullptr;
}

// Where to cut `bytes` of traceEvents into chunks, as offsets. The loading thread scans from the
// front and the workers from the back, so they meet near bytes / threads; chunks halve in size
// toward that point (down to minBytes), so that whoever gets there first waits for at most a
// small chunk, while far from it a few big chunks keep the number of seams low.
std::vector<uint64_t> chunkCuts(uint64_t bytes, unsigned threads, uint64_t minBytes) {
    std::vector<uint64_t> cuts;
    minBytes = std::max<uint64_t>(minBytes, 1);
    if (threads < 2 || bytes < 2 * minBytes) return cuts;
    uint64_t meet = bytes / threads;
    for (uint64_t at = 0; meet - at >= 2 * minBytes;) cuts.push_back(at += (meet - at) / 2);
    if (meet >= minBytes) cuts.push_back(meet);
    std::vector<uint64_t> back;
    for (uint64_t at = bytes; at - meet >= 2 * minBytes;)
        back.push_back(at -= std::max(minBytes, (at - meet) / (2 * (threads - 1))));
    cuts.insert(cuts.end(), back.rbegin(), back.rend());
    return cuts;
}

// Pages of a plain file are handed back to the page cache this often while scanning, so resident
// memory holds the event table, not the file.
constexpr uint64_t kReleaseStep = 16u << 20;

// Real traces have 250-400 bytes per event; reserving for 150 avoids copying columns as they
// grow, and reserved pages that are never written cost no memory.
void reserveFor(EventTable& t, uint64_t bytes) {
    if (bytes > (4u << 20)) t.reserve(bytes / 150);
}

// A speculative chunk. The loading thread takes chunks from the front and scans them into the
// final table directly; workers take them from the back into their own tables, which are
// appended when the loading thread reaches them. Whoever is left with less work takes more.
struct Chunk {
    enum Owner : int { Nobody, Loader, Worker };
    const char* start = nullptr;
    const char* stop = nullptr;  // the next chunk's start, or past the end
    std::atomic<int> owner{Nobody};
    std::atomic<bool> done{false};  // a worker finished it (waitable)
    const char* stoppedAt = nullptr;
    bool arrayEnded = false;
    EventTable table;
    std::exception_ptr error;
    std::atomic<uint64_t> progress{0};  // bytes scanned
    bool claim(Owner who) {
        int expected = Nobody;
        return owner.compare_exchange_strong(expected, who);
    }
};

class Loader {
public:
    Loader(const TraceBytes& bytes, const LoadOptions& options)
        : bytes_(bytes), options_(options) {}

    void run(EventTable& events, TraceInfo& info, TraceMetadata& metadata) {
        std::string_view text = bytes_.text();
        const char* base = text.data();
        const char* end = base + text.size();
        Cursor c(base, base, end);
        if (text.size() >= 3 && std::memcmp(base, "\xEF\xBB\xBF", 3) == 0) c.p += 3;
        c.skipSpace();
        if (c.atEnd()) c.fail("the file is empty");
        if (*c.p != '{')
            c.fail(
                *c.p == '['
                    ? "the top level is an array; a Kineto trace is an object with \"traceEvents\""
                    : "not a JSON trace: the top level is not an object");
        ++c.p;
        c.skipSpace();
        bool sawEvents = false;
        // Where the last "traceEvents" is when it is not a list: Python keeps the last of
        // repeated keys, so this is refused only once the whole document has been read. (Not
        // an optional: GCC 12 warns, wrongly, that one would be read uninitialised.)
        constexpr uint64_t kList = UINT64_MAX;
        uint64_t notAList = kList;
        if (*c.p != '}') {
            info.topEmpty = false;
            do {
                std::string key = json::decodeString(c.readKey());
                if (key == "traceEvents" && (*c.p != '[' || c.atEnd())) {
                    notAList = c.offset();
                    c.skipValue();
                } else if (key == "traceEvents") {
                    notAList = kList;
                    events = EventTable();  // a repeated key replaces the earlier value
                    scanEvents(c, events);
                    returnFreedPages();  // the workers' chunk tables, freed as appended
                    sawEvents = true;
                } else if (key == "distributedInfo") {
                    readDistributedInfo(c, metadata);
                } else if (key == "baseTimeNanoseconds") {
                    metadata.baseTimeNs = readJsonInteger(c);
                } else if (key == "uid_assigned") {
                    const char* b = c.p;
                    char first = *c.p;
                    c.skipValue();
                    std::string_view v(b, size_t(c.p - b));
                    info.uidAssignedPresent = true;
                    info.uidAssignedValue = {uint64_t(b - base), uint64_t(c.p - base)};
                    info.uidAssignedTruthy = truthy(first, v);
                } else {
                    c.skipValue();
                }
            } while (c.nextMember('}'));
            info.topClose = c.offset() - 1;
        } else {
            info.topClose = c.offset();
            ++c.p;
        }
        c.skipSpace();
        if (!c.atEnd()) c.fail("unexpected data after the top-level object");
        if (notAList != kList) throw json::SyntaxError(notAList, "\"traceEvents\" is not a list");
        if (!sawEvents) c.fail("not a trace: the top-level object has no \"traceEvents\"");
    }

private:
    static bool truthy(char first, std::string_view v) {
        switch (first) {
            case 'n':
            case 'f':
                return false;
            case 't':
                return true;
            case '"':
                return v.size() > 2;
            case '[':
            case '{': {
                std::size_t i = 1;
                while (i < v.size() && json::isSpace(v[i])) ++i;
                return i + 1 < v.size();
            }
            default:
                return !isZeroNumber(v);
        }
    }

    // The pages a scan has read, every kReleaseStep bytes.
    void releaseBehind(uint64_t& released, uint64_t offset) const {
        if (offset - released <= kReleaseStep) return;
        bytes_.release(released, offset);
        released = offset;
    }

    bool cancelled() const {
        return cancelWorkers_.load(std::memory_order_relaxed) ||
               (options_.progress && options_.progress->cancelled());
    }

    void scanEvents(Cursor& c, EventTable& events) {
        ++c.p;
        c.skipSpace();
        if (*c.p == ']' && !c.atEnd()) {
            ++c.p;
            return;
        }
        const char* base = c.base();
        const char* end = c.end();
        unsigned threads =
            options_.threads ? options_.threads : std::thread::hardware_concurrency();
        threads = std::clamp(threads, 1u, 16u);
        // Chunk 0 starts here; the others at guessed event starts.
        std::vector<std::unique_ptr<Chunk>> chunks;
        const char* previous = c.p;
        uint64_t remaining = uint64_t(end - c.p);
        for (uint64_t cut : chunkCuts(remaining, threads, options_.chunkBytes)) {
            const char* guess = guessEventStart(c.p + cut, end);
            if (guess && guess > previous) {
                chunks.push_back(std::make_unique<Chunk>());
                chunks.back()->start = previous = guess;
            }
        }
        for (std::size_t k = 0; k < chunks.size(); ++k)
            chunks[k]->stop = k + 1 < chunks.size() ? chunks[k + 1]->start : end + 1;

        std::vector<std::thread> workers;
        struct Joiner {
            Loader& l;
            std::vector<std::thread>& w;
            ~Joiner() {
                l.cancelWorkers_ = true;
                for (auto& t : w)
                    if (t.joinable()) t.join();
            }
        } joiner{*this, workers};
        for (unsigned w = 1; w < threads && !chunks.empty(); ++w) {
            workers.emplace_back([this, &chunks, base, end] {
                for (std::size_t k = chunks.size(); k-- > 0 && !cancelled();) {
                    Chunk& ch = *chunks[k];
                    if (!ch.claim(Chunk::Worker)) {
                        if (ch.owner.load() == Chunk::Loader) return;  // it took the rest
                        continue;                                      // another worker's
                    }
                    scanChunk(ch, base, end);
                    ch.done = true;
                    ch.done.notify_all();
                }
            });
        }

        // For all rows, so that appending the chunks does not move the columns.
        reserveFor(events, uint64_t(end - c.p));
        EventScanner s(base, c.p, end, events, options_.nanoseconds);
        uint64_t released = uint64_t(c.p - base);
        uint64_t shown = 0;  // a chunk scanned again must not move the progress back
        auto tick = [&](uint64_t offset) {
            releaseBehind(released, offset);
            if (Progress* p = options_.progress) {
                p->throwIfCancelled();
                uint64_t done = offset;
                for (auto& ch : chunks)
                    if (ch->owner.load(std::memory_order_relaxed) == Chunk::Worker)
                        done += ch->progress.load(std::memory_order_relaxed);
                shown = std::max(shown, std::min<uint64_t>(done, uint64_t(end - base)));
                p->progress(shown, uint64_t(end - base));
            }
        };
        // In order: chunks this thread claims are scanned on; a worker's is kept only if it
        // starts exactly where the scan before it stopped, else that part is scanned again here.
        bool ended = s.scan(chunks.empty() ? end + 1 : chunks[0]->start, tick);
        for (auto& ch : chunks) {
            if (ended) break;
            if (ch->claim(Chunk::Loader)) {
                ended = s.scan(ch->stop, tick);
                continue;
            }
            if (s.c.p != ch->start) {  // a wrong guess: the worker's table is not used
                ended = s.scan(ch->stop, tick);
                continue;
            }
            ch->done.wait(false);
            if (ch->error) std::rethrow_exception(ch->error);
            bytes_.release(uint64_t(ch->start - base), uint64_t(ch->stoppedAt - base));
            events.append(std::move(ch->table));
            s.c.p = ch->stoppedAt;
            ended = ch->arrayEnded;
        }
        if (!ended) s.scan(end + 1, tick);
        c.p = s.c.p;
    }

    // Scans one chunk into its own table (on a worker).
    void scanChunk(Chunk& ch, const char* base, const char* end) {
        try {
            reserveFor(ch.table, uint64_t((ch.stop < end ? ch.stop : end) - ch.start));
            EventScanner s(base, ch.start, end, ch.table, options_.nanoseconds);
            uint64_t released = uint64_t(ch.start - base);
            ch.arrayEnded = s.scan(ch.stop, [&](uint64_t offset) {
                ch.progress.store(offset - uint64_t(ch.start - base), std::memory_order_relaxed);
                if (cancelled()) throw Cancelled{};
                releaseBehind(released, offset);
            });
            ch.stoppedAt = s.c.p;
        } catch (...) {
            ch.error = std::current_exception();
        }
    }

    const TraceBytes& bytes_;
    const LoadOptions& options_;
    std::atomic<bool> cancelWorkers_{false};
};

}  // namespace

Trace readKinetoJson(TraceBytes bytes, const std::string& name, const LoadOptions& options) {
    Trace trace;
    trace.path = name;
    trace.bytes = std::move(bytes);
    try {
        Loader(trace.bytes, options).run(trace.events, trace.info, trace.metadata);
    } catch (const json::SyntaxError& e) {
        auto [line, column] = json::lineColumn(trace.bytes.text(), e.offset);
        throw InputError(name + ": line " + std::to_string(line) + ", column " +
                         std::to_string(column) + " (byte " + std::to_string(e.offset) +
                         "): " + e.what());
    }
    trace.argsReader = kinetoArgsReader();
    readKinetoMetadata(trace);
    return trace;
}

}  // namespace stackline
