#include "import/kineto_json/kineto_metadata_reader.h"

#include <charconv>
#include <set>
#include <tuple>

#include "json/json_cursor.h"
#include "model/kineto.h"

namespace stackline {

namespace {

std::string trimmed(std::string s) {
    size_t b = s.find_first_not_of(" \t\r\n");
    size_t e = s.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// An instant event's scope ('t', 'p' or 'g'): its last "s" member, found in the event's bytes
// outside its args. A match must follow '{' or ',' to be a member name: inside a string its
// quotes would be escaped.
char instantScope(const Trace& trace, uint32_t row) {
    const EventTable& ev = trace.events;
    const Span event = ev.eventSpan(row), args = ev.argsSpan(row);
    if (event.end > trace.bytes.size()) return 't';
    const std::string_view bytes = trace.slice(event);
    char scope = 't';
    for (size_t at = bytes.find("\"s\""); at != std::string_view::npos;
         at = bytes.find("\"s\"", at + 1)) {
        if (!args.empty() && event.begin + at >= args.begin && event.begin + at < args.end) {
            at = args.end - event.begin;
            continue;
        }
        size_t before = at;
        while (before > 0 && json::isSpace(bytes[before - 1])) --before;
        if (before == 0 || (bytes[before - 1] != '{' && bytes[before - 1] != ',')) continue;
        size_t c = at + 3;
        while (c < bytes.size() && json::isSpace(bytes[c])) ++c;
        if (c >= bytes.size() || bytes[c] != ':') continue;
        ++c;
        while (c < bytes.size() && json::isSpace(bytes[c])) ++c;
        const bool oneLetter = c + 2 < bytes.size() && bytes[c] == '"' && bytes[c + 2] == '"';
        scope = oneLetter ? bytes[c + 1] : 't';
    }
    return scope;
}

}  // namespace

void readKinetoMetadata(Trace& trace) {
    using namespace kineto;
    const EventTable& ev = trace.events;
    TraceMetadata& meta = trace.metadata;
    // Duplicates are common (one file repeats each of them 62k times): the first of each (name,
    // pid, tid) is the one that counts, and only it is parsed.
    std::set<std::tuple<uint32_t, DisplayKey, DisplayKey>> seen;
    for (uint32_t row = 0, n = ev.size(); row < n; ++row) {
        const char ph = ev.phase[row];
        if (ph == 'i' || ph == 'I') {
            if (const char scope = instantScope(trace, row); scope == 'g' || scope == 'p')
                meta.instantScopes.push(row, scope);
            continue;
        }
        if (ph != 'M') continue;
        const std::string_view what = ev.nameOf(row);
        const bool process =
            what == kProcessName || what == kProcessLabels || what == kProcessSortIndex;
        if (!process && what != kThreadName && what != kThreadSortIndex) continue;
        const DisplayKey pid = displayKey(ev.keys, ev.pid[row]);
        const DisplayKey tid = process ? DisplayKey() : displayKey(ev.keys, ev.tid[row]);
        if (!seen.emplace(ev.name[row], pid, tid).second) continue;
        const auto args = trace.args(row).object();
        if (!args.is_object()) continue;
        auto str = [&](std::string_view key) {
            auto it = args.find(key);
            return trimmed(it != args.end() && it->is_string() ? it->get<std::string>()
                                                               : std::string());
        };
        auto sortIndex = [&]() -> std::optional<int64_t> {
            auto it = args.find(kSortIndexArg);
            if (it == args.end() || !it->is_number_integer()) return std::nullopt;
            return it->get<int64_t>();
        };
        if (process) {
            ProcessNaming& p = meta.processes[pid];
            if (what == kProcessName)
                p.name = str(kNameArg);
            else if (what == kProcessLabels)
                p.labels = str(kLabelsArg);
            else if (auto s = sortIndex())
                p.sortIndex = s;
        } else {
            ThreadNaming& t = meta.threads[{pid, tid}];
            if (what == kThreadName)
                t.name = str(kNameArg);
            else if (auto s = sortIndex())
                t.sortIndex = s;
        }
    }
}
std::optional<int64_t> readJsonInteger(json::Cursor& c) {
    const char first = *c.p;
    if (first != '-' && (first < '0' || first > '9')) {
        c.skipValue();
        return std::nullopt;
    }
    const std::string_view number = c.readNumber();
    int64_t v = 0;
    auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
    if (ec != std::errc() || end != number.data() + number.size()) return std::nullopt;
    return v;
}

void readDistributedInfo(json::Cursor& c, TraceMetadata& metadata) {
    if (*c.p != '{') {
        c.skipValue();
        return;
    }
    ++c.p;
    c.skipSpace();
    if (*c.p == '}') {
        ++c.p;
        return;
    }
    do {
        const std::string key = json::decodeString(c.readKey());
        if (key == "rank") {
            if (auto v = readJsonInteger(c)) metadata.rank = *v;
        } else if (key == "world_size") {
            if (auto v = readJsonInteger(c)) metadata.worldSize = *v;
        } else {
            c.skipValue();
        }
    } while (c.nextMember('}'));
}

}  // namespace stackline
