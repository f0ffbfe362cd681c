#include "annotate/chrome_json_writer.h"

#include <algorithm>
#include <charconv>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "json/json_string.h"
#include "model/display_key.h"
#include "model/kineto.h"

namespace stackline {
namespace {

using OrderedJson = nlohmann::ordered_json;

// Invalid UTF-8 (a protobuf string is any bytes) becomes U+FFFD, so that the output is JSON.
std::string dump(const OrderedJson& j) {
    return j.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
}

std::string jsonString(std::string_view s) {
    std::string out;
    json::appendString(out, s);
    return out;
}

std::string keyJson(const DisplayKey& k) {
    return k.isInt ? std::to_string(k.value) : jsonString(k.text);
}

// The JSON text of interned strings and keys, made once each per block of rows: names,
// categories, pids and tids repeat on nearly every row. One per thread (it is not shared).
class TextCache {
public:
    explicit TextCache(const EventTable& t) : t_(t) {}
    const std::string& string(uint32_t id) {
        auto [it, inserted] = strings_.try_emplace(id);
        if (inserted) it->second = jsonString(t_.strings.at(id));
        return it->second;
    }
    const std::string& key(KeyId id) {
        auto [it, inserted] = keys_.try_emplace(id);
        if (inserted) it->second = keyJson(displayKey(t_.keys, id));
        return it->second;
    }

private:
    const EventTable& t_;
    std::unordered_map<uint32_t, std::string> strings_;
    std::unordered_map<KeyId, std::string> keys_;
};

void appendMember(std::string& out, std::string_view key, std::string_view json) {
    out += ",\"";
    out += key;
    out += "\":";
    out += json;
}

// ,"args": the row's args with args.stack as this run writes it (the reference's
// args["stack"] = ...: in the place of an existing one, else last); nothing when it has neither.
void appendArgs(std::string& e, const Trace& trace, const Provenance& p, uint32_t row) {
    const bool stack = p.applied && p.written[row];
    const bool args = trace.argsReader && trace.argsReader->present(trace, row);
    if (!args && !stack) return;
    e += ",\"args\":";
    const std::string& stackJson = p.stacks.json(stack ? p.stackOf(row) : StackPool::kNone);
    if (!args) {
        e += "{\"stack\":";
        e += stackJson;
        e += '}';
        return;
    }
    const std::size_t start = e.size();
    trace.argsReader->appendJson(trace, row, e);
    if (!stack) return;
    const std::string_view text(e.data() + start, e.size() - start);
    if (text.size() >= 2 && text.front() == '{' && text.find("\"stack\"") == text.npos) {
        const bool empty = text.size() == 2;
        e.pop_back();  // the closing brace
        e += empty ? "\"stack\":" : ",\"stack\":";
        e += stackJson;
        e += '}';
        return;
    }
    // Not an object, or one that may hold a stack already: through the DOM.
    OrderedJson value = trace.argsReader->value(trace, row);
    if (!value.is_object()) value = OrderedJson::object();
    value["stack"] = OrderedJson::parse(stackJson);
    e.resize(start);
    e += dump(value);
}

// A metadata event as Kineto writes it: {"name": "process_name", "ph": "M", ...}.
std::string metadataEvent(std::string_view what, const std::string& pid, const std::string& tid,
                          std::string_view argKey, const std::string& argJson) {
    std::string e = "{\"name\":\"";
    e += what;
    e += "\",\"ph\":\"M\",\"ts\":0";
    appendMember(e, "pid", pid);
    appendMember(e, "tid", tid);
    e += ",\"args\":{\"";
    e += argKey;
    e += "\":";
    e += argJson;
    e += "}";
    return e;
}

std::vector<std::string> metadataEvents(const TraceMetadata& meta) {
    namespace k = kineto;
    std::vector<std::string> out;
    for (const auto& [pid, p] : meta.processes) {
        const std::string id = keyJson(pid);
        if (p.name)
            out.push_back(
                metadataEvent(k::kProcessName, id, "0", k::kNameArg, jsonString(*p.name)));
        if (p.labels)
            out.push_back(
                metadataEvent(k::kProcessLabels, id, "0", k::kLabelsArg, jsonString(*p.labels)));
        if (p.sortIndex)
            out.push_back(metadataEvent(k::kProcessSortIndex, id, "0", k::kSortIndexArg,
                                        std::to_string(*p.sortIndex)));
    }
    for (const auto& [ids, t] : meta.threads) {
        const std::string pid = keyJson(ids.first), tid = keyJson(ids.second);
        if (t.name)
            out.push_back(
                metadataEvent(k::kThreadName, pid, tid, k::kNameArg, jsonString(*t.name)));
        if (t.sortIndex)
            out.push_back(metadataEvent(k::kThreadSortIndex, pid, tid, k::kSortIndexArg,
                                        std::to_string(*t.sortIndex)));
    }
    return out;
}

// Rows handed to out in blocks of this many: formatted on several threads, each block's text
// small enough (a few MB) to keep several in flight.
constexpr uint32_t kBlockRows = 16384;

// The events of rows [begin, end), each preceded by ",\n" (the first row by "\n").
void appendRows(std::string& e, const Trace& trace, const Provenance& p, bool uids, uint32_t begin,
                uint32_t end) {
    const EventTable& t = trace.events;
    const TraceMetadata& meta = trace.metadata;
    TextCache text(t);
    std::size_t nextScope = meta.instantScopes.firstAtOrAfter(begin);
    // Args read from the trace's bytes (a protobuf's): fetched this many rows ahead.
    constexpr uint32_t kAhead = 8;
    for (uint32_t row = begin; row < end; ++row) {
        if (trace.argsReader && row + kAhead < end) trace.argsReader->prefetch(trace, row + kAhead);
        const EventTable::Kinds& k = t.kinds[row];
        e += row ? ",\n{" : "\n{";
        const char ph[2] = {t.phase[row], 0};
        e += "\"ph\":";
        if (ph[0])
            json::appendString(e, std::string_view(ph, 1));
        else
            e += "null";
        if (k.cat == ValueKind::String) appendMember(e, "cat", text.string(t.cat[row]));
        if (k.name == ValueKind::String) appendMember(e, "name", text.string(t.name[row]));
        if (t.pid[row] != kNoKey) appendMember(e, "pid", text.key(t.pid[row]));
        if (t.tid[row] != kNoKey) appendMember(e, "tid", text.key(t.tid[row]));
        if (k.ts != PyNum::Kind::Missing) {
            e += ",\"ts\":";
            appendPyNumber(e, t.ts(row));
        }
        if (k.dur != PyNum::Kind::Missing) {
            e += ",\"dur\":";
            appendPyNumber(e, t.dur(row));
        }
        if (k.flowId == FlowIdStatus::Ok) {
            char id[24];
            appendMember(
                e, "id",
                std::string_view(id, std::to_chars(id, id + 24, t.flowIds.at(row, 0)).ptr));
            if (ph[0] == 'f') appendMember(e, "bp", "\"e\"");  // binds to the enclosing slice
        } else if (k.flowId == FlowIdStatus::Big) {
            appendMember(e, "id", pyIntRepr(t.bigFlowId.at(row)));
        }
        if (char scope = meta.instantScopes.at(row, 0, nextScope); scope)
            appendMember(e, "s", jsonString(std::string(1, scope)));
        appendArgs(e, trace, p, row);
        if (uids && k.event == ValueKind::Object) appendMember(e, "uid", std::to_string(row));
        e += '}';
    }
}

// Blocks of rows formatted on worker threads into a ring of reused buffers, at most its size ahead
// of the block the writer has taken, and taken in order.
class BlockRing {
public:
    using Format = std::function<void(uint32_t block, std::string& text)>;
    BlockRing(uint32_t blocks, unsigned slots, Format format)
        : blocks_(blocks), slots_(slots), format_(std::move(format)) {}

    // A worker's loop: formats the next block while a slot is free, until all are or stop().
    void work() {
        std::unique_lock lock(m_);
        while (true) {
            changed_.wait(lock, [&] {
                return stopped_ || next_ >= blocks_ || next_ < released_ + slots_.size();
            });
            if (stopped_ || next_ >= blocks_) return;
            const uint32_t b = next_++;
            Slot& slot = slots_[b % slots_.size()];
            lock.unlock();
            try {
                format_(b, slot.text);
            } catch (...) {
                slot.error = std::current_exception();
            }
            lock.lock();
            slot.ready = true;
            changed_.notify_all();
        }
    }
    // Block b's text, once formatted (b in order, each released before the next is taken).
    const std::string& take(uint32_t b) {
        std::unique_lock lock(m_);
        Slot& slot = slots_[b % slots_.size()];
        changed_.wait(lock, [&] { return slot.ready; });
        if (slot.error) std::rethrow_exception(slot.error);
        return slot.text;
    }
    void release(uint32_t b) {
        std::lock_guard lock(m_);
        slots_[b % slots_.size()].ready = false;
        released_ = b + 1;
        changed_.notify_all();
    }
    void stop() {
        std::lock_guard lock(m_);
        stopped_ = true;
        changed_.notify_all();
    }

private:
    struct Slot {
        std::string text;
        bool ready = false;
        std::exception_ptr error;
    };
    std::mutex m_;
    std::condition_variable changed_;
    const uint32_t blocks_;
    std::vector<Slot> slots_;
    Format format_;
    uint32_t next_ = 0, released_ = 0;
    bool stopped_ = false;
};

}  // namespace

void writeChromeJson(const Trace& trace, const Provenance& p, unsigned threads,
                     const std::function<void(std::string_view)>& out,
                     const std::function<void(uint32_t rows)>& rowsDone) {
    const EventTable& t = trace.events;
    const TraceMetadata& meta = trace.metadata;
    std::string head = "{\"schemaVersion\":1";
    if (meta.rank >= 0) {
        head += ",\"distributedInfo\":{\"rank\":" + std::to_string(meta.rank);
        if (meta.worldSize > 0) head += ",\"world_size\":" + std::to_string(meta.worldSize);
        head += "}";
    }
    if (meta.baseTimeNs) head += ",\"baseTimeNanoseconds\":" + std::to_string(*meta.baseTimeNs);
    head += ",\"displayTimeUnit\":\"ms\",\"traceEvents\":[";
    out(head);

    const bool uids = p.applied && p.assignUids;
    const uint32_t rows = t.size();
    const uint32_t blocks = (rows + kBlockRows - 1) / kBlockRows;
    auto format = [&](uint32_t b, std::string& text) {
        text.clear();
        appendRows(text, trace, p, uids, b * kBlockRows, std::min(rows, (b + 1) * kBlockRows));
    };
    if (threads <= 1 || blocks <= 1) {
        std::string text;
        for (uint32_t b = 0; b < blocks; ++b) {
            format(b, text);
            out(text);
            rowsDone(std::min(rows, (b + 1) * kBlockRows));
        }
    } else {
        BlockRing ring(blocks, 2 * threads, format);
        std::vector<std::jthread> workers;
        for (unsigned i = 0; i < threads; ++i) workers.emplace_back([&] { ring.work(); });
        struct StopOnExit {
            BlockRing& ring;
            ~StopOnExit() { ring.stop(); }
        } stopOnExit{ring};
        for (uint32_t b = 0; b < blocks; ++b) {
            out(ring.take(b));
            ring.release(b);
            rowsDone(std::min(rows, (b + 1) * kBlockRows));
        }
    }
    // The metadata after the rows, numbered on from them when uids are written.
    uint32_t uid = t.size();
    for (std::string& m : metadataEvents(meta)) {
        if (uids) appendMember(m, "uid", std::to_string(uid));
        out(uid++ == 0 ? "\n" : ",\n");
        out(m + "}");
    }
    out(uids ? "\n],\"uid_assigned\":true}\n" : "\n]}\n");
}

}  // namespace stackline
