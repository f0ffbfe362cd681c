#include "annotate/chrome_json_writer.h"

#include <nlohmann/json.hpp>
#include <string>
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

// The JSON text of interned strings and keys, made once each: names, categories, pids and tids
// repeat on nearly every row.
class TextCache {
public:
    explicit TextCache(const EventTable& t) : t_(t), strings_(t.strings.size()) {}
    const std::string& string(uint32_t id) {
        std::string& s = strings_[id];
        if (s.empty()) s = jsonString(t_.strings.at(id));
        return s;
    }
    const std::string& key(KeyId id) {
        auto [it, inserted] = keys_.try_emplace(id);
        if (inserted) it->second = keyJson(displayKey(t_.keys, id));
        return it->second;
    }

private:
    const EventTable& t_;
    std::vector<std::string> strings_;
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
        e += "{\"stack\":" + stackJson + "}";
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

}  // namespace

void writeChromeJson(const Trace& trace, const Provenance& p,
                     const std::function<void(std::string_view)>& out,
                     const std::function<void(uint32_t rows)>& rowsDone) {
    const EventTable& t = trace.events;
    const TraceMetadata& meta = trace.metadata;
    TextCache text(t);
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
    std::string e;
    std::size_t nextScope = 0;
    for (uint32_t row = 0; row < t.size(); ++row) {
        const EventTable::Kinds& k = t.kinds[row];
        e.assign(row ? ",\n{" : "\n{");
        const char ph[2] = {t.phase[row], 0};
        e += "\"ph\":";
        e += ph[0] ? jsonString(ph) : "null";
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
            appendMember(e, "id", std::to_string(t.flowIds.at(row, 0)));
            if (ph[0] == 'f') appendMember(e, "bp", "\"e\"");  // binds to the enclosing slice
        } else if (k.flowId == FlowIdStatus::Big) {
            appendMember(e, "id", pyIntRepr(t.bigFlowId.at(row)));
        }
        if (char scope = meta.instantScopes.at(row, 0, nextScope); scope)
            appendMember(e, "s", jsonString(std::string(1, scope)));
        appendArgs(e, trace, p, row);
        if (uids && k.event == ValueKind::Object) appendMember(e, "uid", std::to_string(row));
        e += '}';
        out(e);
        rowsDone(row + 1);
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
