// Every step below names the reference function it ports. Where the reference would raise, a
// ProcessError is thrown for that event, reported as an error, and the rest goes on.
#include "provenance.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <future>
#include <map>
#include <optional>
#include <set>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "kineto.h"
#include "unicode_tables.h"

namespace stackline {

bool Provenance::isGpuKernel(const EventTable& events, uint32_t row) const {
    return kineto::isGpuKernel(events.catOf(row));
}

KernelStatus Provenance::status(const EventTable& events, uint32_t row) const {
    if (stack[row] != StackPool::kNone) return KernelStatus::Annotated;
    if (reached[row] && isGpuKernel(events, row)) return KernelStatus::Unresolved;
    return KernelStatus::Outside;
}

namespace {

constexpr uint32_t kNone = UINT32_MAX;

struct ProcessError {
    DiagnosticKind kind;
    std::string message;
};

// _extern_kernel_name: re.search(r"\b(extern\w+)\s*,", name), Python's Unicode classes.
std::string externKernelName(const std::string& name) {
    std::vector<char32_t> cps;
    std::vector<std::size_t> at;
    for (std::size_t i = 0; i < name.size();) {
        at.push_back(i);
        cps.push_back(unicode::decodeUtf8(name, i));
    }
    at.push_back(name.size());
    static const char32_t kWord[] = U"extern";
    for (std::size_t i = 0; i + 6 < cps.size(); ++i) {
        if (!std::equal(kWord, kWord + 6, cps.begin() + long(i))) continue;
        if (i > 0 && unicode::isWord(cps[i - 1])) continue;
        std::size_t k = i + 6;
        while (k < cps.size() && unicode::isWord(cps[k])) ++k;
        if (k == i + 6) continue;
        std::size_t m = k;
        while (m < cps.size() && unicode::isSpace(cps[m])) ++m;
        if (m < cps.size() && cps[m] == ',') return name.substr(at[i], at[k] - at[i]);
    }
    return name;
}

// An _EventItem: start = ts, end = ts + dur (dur defaulting to 0), in Python arithmetic.
struct Interval {
    PyNum start, end;
    uint32_t row;
};

constexpr uint32_t kNoGroup = UINT32_MAX;

bool isNan(const PyNum& n) {
    return n.kind == PyNum::Kind::Float && std::isnan(n.f);
}

// Python's sorted(items, key=lambda x: x.start). Without NaN, `<` is a strict weak order on the
// starts and any stable sort gives Python's result. With NaN the result depends on the algorithm:
// below 64 items CPython's timsort is one run (count_run, a strictly descending one reversed)
// extended by a binary insertion sort, which this follows step by step; longer lists with NaN
// get a stable sort, which may order them differently.
void sortByStart(std::vector<Interval>& items) {
    auto less = [](const Interval& a, const Interval& b) { return pyLess(a.start, b.start); };
    std::size_t n = items.size();
    if (n >= 64 || std::none_of(items.begin(), items.end(),
                                [](const Interval& i) { return isNan(i.start); })) {
        std::stable_sort(items.begin(), items.end(), less);
        return;
    }
    if (n < 2) return;
    std::size_t run = 2;
    if (less(items[1], items[0])) {
        while (run < n && less(items[run], items[run - 1])) ++run;
        std::reverse(items.begin(), items.begin() + std::ptrdiff_t(run));
    } else {
        while (run < n && !less(items[run], items[run - 1])) ++run;
    }
    for (std::size_t i = run; i < n; ++i) {
        Interval pivot = items[i];
        std::size_t l = 0, r = i;
        while (l < r) {
            std::size_t m = l + ((r - l) >> 1);
            if (less(pivot, items[m]))
                r = m;
            else
                l = m + 1;
        }
        std::move_backward(items.begin() + std::ptrdiff_t(l), items.begin() + std::ptrdiff_t(i),
                           items.begin() + std::ptrdiff_t(i) + 1);
        items[l] = pivot;
    }
}

// Keeps the processing state; one instance per run.
class Processor {
public:
    Processor(const Trace& trace, const KernelInfo& info, Provenance& out, unsigned threads)
        : t_(trace.events),
          trace_(trace),
          info_(info),
          out_(out),
          discover_(info.empty()),
          threads_(threads) {}

    void run() {
        uint32_t n = t_.size();
        out_.applied = !discover_;
        out_.assignUids = out_.applied && !trace_.info.uidAssignedTruthy;
        out_.stack.assign(n, StackPool::kNone);
        out_.written.assign(n, 0);
        out_.reached.assign(n, 0);
        for (auto& [row, span] : t_.stackValue)
            out_.stack[row] = out_.stacks.intern(std::string(trace_.slice(span)));

        assignUids();
        partition();
        searchAndIndex();
        sortCompiledRegions();
        for (const Group& group : compiledCovered_) processRegion(group);
        finish();
    }

private:
    struct Group {
        uint32_t regionKey;
        std::vector<uint32_t> ops;  // uid keys, insertion order (an OrderedSet)
    };

    // Uids: the row itself, unless the trace already has uid_assigned, in which case each event's
    // own "uid" value is the key and uid_2_events maps it to the last event carrying it.
    // Errors met on another thread, reported afterwards in order.
    using Errors = std::vector<std::pair<uint32_t, ProcessError>>;

    uint32_t key(uint32_t row) const { return uidMode_ ? keyOfRow_[row] : row; }
    uint32_t rowOf(uint32_t key) const { return uidMode_ ? rowOfKey_[key] : key; }
    uint32_t keyCount() const { return uidMode_ ? uint32_t(rowOfKey_.size()) : t_.size(); }

    void error(uint32_t row, DiagnosticKind kind, std::string message) {
        if (discover_) return;
        // One error per event and kind: a region is also an op of the covered categories, and a
        // kernel is found both by External id and by flow, so one fault would be met twice.
        // (bad_graph_key is about a key, reported at the region: one per key.)
        if (row != kNoRow && kind != DiagnosticKind::BadGraphKey &&
            !reported_.emplace(row, kind).second)
            return;
        Diagnostic d;
        d.kind = kind;
        d.row = row;
        if (row != kNoRow) d.name = std::string(t_.nameOf(row));
        d.message = std::move(message);
        out_.diagnostics.push_back(std::move(d));
    }
    void warning(uint32_t row, DiagnosticKind kind, std::string name, std::string message) {
        if (discover_) return;
        out_.diagnostics.push_back({kind, row, std::move(name), std::move(message)});
    }
    void fail(uint32_t row, const ProcessError& e) { error(row, e.kind, e.message); }
    static std::string eventLabel(uint32_t row) { return "event " + std::to_string(row); }

    // _assign_uniq_id_to_event
    void assignUids() {
        if (!trace_.info.uidAssignedTruthy) return;
        uidMode_ = true;
        uint32_t n = t_.size();
        keyOfRow_.resize(n);
        std::unordered_map<KeyId, uint32_t> dense;
        for (uint32_t row = 0; row < n; ++row) {
            KeyId k = t_.uid[row];
            if (t_.kinds[row].event != ValueKind::Object || k == kNoKey || k == kUnhashable) {
                error(row, DiagnosticKind::MissingUid,
                      eventLabel(row) +
                          " has no usable \"uid\" although the trace has "
                          "uid_assigned; it is given one of its own");
                keyOfRow_[row] = uint32_t(rowOfKey_.size());
                rowOfKey_.push_back(row);
                continue;
            }
            auto [it, inserted] = dense.try_emplace(k, uint32_t(rowOfKey_.size()));
            if (inserted) rowOfKey_.push_back(row);
            rowOfKey_[it->second] = row;  // the last event with this uid wins
            keyOfRow_[row] = it->second;
        }
    }

    // The loop of add_to_chrome_trace that sorts events into flow, real, compiled and extern.
    // What the partition asks of a name or category, computed once per distinct string.
    enum : uint8_t {
        kFlowName = 1,
        kRegionName = 2,
        kExternName = 4,
        kRegionCat = 8,
        kExternCat = 16,
        kKernel = 32
    };
    void classifyStrings() {
        stringFlags_.resize(t_.strings.size());
        for (uint32_t id = 0; id < t_.strings.size(); ++id) {
            std::string_view s = t_.strings.at(id);
            stringFlags_[id] = uint8_t(
                (reference::isProfileFlowType(s) ? kFlowName : 0) |
                (reference::isCompiledRegionName(s) ? kRegionName : 0) |
                (s.find(reference::kExternKernelsMark) != std::string_view::npos ? kExternName
                                                                                 : 0) |
                (s == reference::kRegionCategory ? kRegionCat : 0) |
                (kineto::isOneOf(s, reference::kExternRegionCategories) ? kExternCat : 0) |
                (s == reference::kKernelCategory ? kKernel : 0));
        }
    }
    uint8_t nameFlags(uint32_t row) const {
        return t_.kinds[row].name == ValueKind::String ? stringFlags_[t_.name[row]] : 0;
    }
    uint8_t catFlags(uint32_t row) const {
        return t_.kinds[row].cat == ValueKind::String ? stringFlags_[t_.cat[row]] : 0;
    }

    void partition() {
        classifyStrings();
        uint32_t n = t_.size();
        isFlow_.assign(n, 0);
        isReal_.assign(n, 0);
        for (uint32_t row = 0; row < n; ++row) {
            const EventTable::Kinds& k = t_.kinds[row];
            if (k.event != ValueKind::Object) {
                if (!uidMode_)
                    error(row, DiagnosticKind::MalformedEvent,
                          eventLabel(row) + " is not a JSON object; it is left as it is");
                continue;
            }
            bool container = k.name == ValueKind::Array || k.name == ValueKind::Object;
            uint8_t name = nameFlags(row), cat = catFlags(row);
            bool flow = name & kFlowName;
            if (!flow && !container && (k.cat == ValueKind::Array || k.cat == ValueKind::Object)) {
                error(row, DiagnosticKind::MalformedEvent,
                      eventLabel(row) + " has a list or object as \"cat\"");
                continue;
            }
            if (container) {
                error(row, DiagnosticKind::MalformedEvent,
                      eventLabel(row) + " has a list or object as \"name\"");
                continue;
            }
            flow = flow || (cat & kFlowName);
            if (flow) {
                isFlow_[row] = 1;
                anyFlow_ = true;
                continue;
            }
            bool nameIsString = k.name == ValueKind::String || k.name == ValueKind::Absent;
            if ((cat & kRegionCat) && !nameIsString) {
                error(row, DiagnosticKind::MalformedEvent,
                      eventLabel(row) + " is a cpu_op whose name is not a string");
                continue;
            }
            if (k.name == ValueKind::TruthyScalar) {
                error(row, DiagnosticKind::MalformedEvent,
                      eventLabel(row) + " has a number as \"name\"");
                continue;
            }
            isReal_[row] = 1;
            if ((cat & kRegionCat) && (name & kRegionName)) compiled_.push_back(row);
            if ((name & kExternName) && (cat & kExternCat)) extern_.push_back(row);
        }
    }

    // _EventItem(event); region says whether a failure is the region's or a covered event's.
    Interval interval(uint32_t row) const {
        PyNum ts = t_.ts(row), dur = t_.dur(row);
        if (ts.kind == PyNum::Kind::Missing)
            throw ProcessError{DiagnosticKind::MissingTs, eventLabel(row) + " has no \"ts\""};
        if (ts.kind == PyNum::Kind::Invalid)
            throw ProcessError{DiagnosticKind::BadTs,
                               eventLabel(row) + " has a \"ts\" that is not a number"};
        if (dur.kind == PyNum::Kind::Missing) dur = PyNum::integer(0);
        if (dur.kind == PyNum::Kind::Invalid)
            throw ProcessError{DiagnosticKind::BadDur,
                               eventLabel(row) + " has a \"dur\" that is not a number"};
        return {ts, pyAdd(ts, dur), row};
    }

    // event.get("tid"): a missing tid is None, which matches regions whose tid is null.
    KeyId tidKey(uint32_t row) const {
        KeyId k = t_.tid[row];
        return k == kNoKey ? t_.keys.existingNullKey() : k;
    }

    // _find_events_covered_in(real_events, regions)
    // Its errors are returned in order, not reported, so that two calls can run at once.
    struct Covered {
        std::vector<Group> groups;
        Errors errors;
    };
    Covered findCoveredIn(const std::vector<uint32_t>& regions) const {
        Covered out;
        std::vector<Group>& groups = out.groups;
        if (regions.empty()) return out;
        struct Regions {
            std::vector<Interval> items;  // sorted by start
            std::vector<PyNum> starts;
            bool ordered = true;   // no NaN start: pyLess is a total order on them
            std::size_t last = 0;  // the previous search's result, a good guess for the next
            // The same as doubles when every start is a float that is not NaN (Kineto's case;
            // every end is then a float too): Python compares floats as doubles do.
            std::vector<double> floatStarts, floatEnds;
            std::vector<uint32_t> groupOfItem;  // each region's group once it has one
        };
        std::unordered_map<KeyId, Regions> byTid;
        for (uint32_t row : regions) {
            try {
                if (t_.tid[row] == kNoKey)
                    throw ProcessError{DiagnosticKind::MissingTid,
                                       eventLabel(row) + " (a region) has no \"tid\""};
                if (t_.tid[row] == kUnhashable)
                    throw ProcessError{DiagnosticKind::BadTid,
                                       eventLabel(row) + " has a list or object as \"tid\""};
                byTid[t_.tid[row]].items.push_back(interval(row));
            } catch (const ProcessError& e) {
                out.errors.emplace_back(row, e);
            }
        }
        for (auto& [tid, r] : byTid) {
            sortByStart(r.items);
            bool floats = true;
            r.starts.reserve(r.items.size());
            for (const Interval& i : r.items) {
                r.starts.push_back(i.start);
                if (isNan(i.start)) r.ordered = false;
                floats = floats && i.start.kind == PyNum::Kind::Float && !isNan(i.start);
            }
            if (floats) {
                r.floatStarts.reserve(r.items.size());
                r.floatEnds.reserve(r.items.size());
            }
            for (const Interval& i : r.items) {
                if (!floats) break;
                r.floatStarts.push_back(i.start.f);
                r.floatEnds.push_back(i.end.f);
            }
            r.groupOfItem.assign(r.items.size(), kNoGroup);
        }
        std::vector<uint8_t> covered(t_.strings.size());
        for (uint32_t id = 0; id < covered.size(); ++id)
            covered[id] = reference::isCoveredCategory(t_.strings.at(id));
        // Regions sharing a uid share a group (only when the trace has uid_assigned).
        std::unordered_map<uint32_t, uint32_t> groupOfUid;
        std::unordered_set<uint64_t> seen;  // (group, op) pairs, needed only when uids repeat
        KeyId lastTid = kNoKey;  // no row's tid: tidKey() maps absent to None's key or kNoKey
        Regions* regionsOfTid = nullptr;
        // bisect_left(starts, x): events come in time order, so the previous result or the one
        // after it usually fits and saves the binary search (when the order is total).
        auto firstNotBefore = [](Regions& r, const PyNum& x) {
            const std::vector<PyNum>& starts = r.starts;
            auto fits = [&](std::size_t pos) {
                return (pos == 0 || pyLess(starts[pos - 1], x)) &&
                       (pos == starts.size() || !pyLess(starts[pos], x));
            };
            if (r.ordered && !isNan(x)) {
                if (fits(r.last)) return r.last;
                if (r.last < starts.size() && fits(r.last + 1)) return ++r.last;
            }
            r.last = std::size_t(std::lower_bound(starts.begin(), starts.end(), x, pyLess) -
                                 starts.begin());
            return r.last;
        };
        // The region covering a row whose ts is a float and dur a number or absent, found with
        // double arithmetic when the thread's regions allow it (its index in items, -1 when none
        // covers the row); nullopt sends the row down the general path.
        auto floatRegion = [&](Regions& r, uint32_t row) -> std::optional<std::ptrdiff_t> {
            const EventTable::Kinds& k = t_.kinds[row];
            if (r.floatStarts.empty() || k.ts != PyNum::Kind::Float ||
                k.dur == PyNum::Kind::Invalid)
                return std::nullopt;
            double start = std::bit_cast<double>(t_.tsBits[row]);
            if (start != start) return std::nullopt;
            double dur = k.dur == PyNum::Kind::Float ? std::bit_cast<double>(t_.durBits[row])
                         : k.dur == PyNum::Kind::Int ? double(int64_t(t_.durBits[row]))
                                                     : 0.0;
            double end = start + dur;
            const std::vector<double>& starts = r.floatStarts;
            auto fits = [&](std::size_t pos) {
                return (pos == 0 || starts[pos - 1] < start) &&
                       (pos == starts.size() || !(starts[pos] < start));
            };
            if (!fits(r.last)) {
                if (r.last < starts.size() && fits(r.last + 1))
                    ++r.last;
                else
                    r.last = std::size_t(std::lower_bound(starts.begin(), starts.end(), start) -
                                         starts.begin());
            }
            if (r.last == 0) return -1;
            std::size_t idx = r.last - 1;
            if (!(starts[idx] <= start && end <= r.floatEnds[idx])) return -1;
            return std::ptrdiff_t(idx);
        };
        for (uint32_t row = 0, n = t_.size(); row < n; ++row) {
            if (!isReal_[row] || t_.kinds[row].cat != ValueKind::String || !covered[t_.cat[row]])
                continue;
            try {
                if (t_.kinds[row].callFrom == CallFrom::Yes) continue;
                if (t_.kinds[row].callFrom == CallFrom::Raises)
                    throw ProcessError{DiagnosticKind::BadArgs,
                                       eventLabel(row) + " has \"args\" that is not an object"};
                KeyId tid = tidKey(row);
                if (tid == kUnhashable)
                    throw ProcessError{DiagnosticKind::BadTid,
                                       eventLabel(row) + " has a list or object as \"tid\""};
                if (tid != lastTid) {  // consecutive events mostly share their thread
                    lastTid = tid;
                    auto it = byTid.find(tid);
                    regionsOfTid = it == byTid.end() ? nullptr : &it->second;
                }
                if (!regionsOfTid) continue;
                Regions& r = *regionsOfTid;
                std::optional<std::ptrdiff_t> found = floatRegion(r, row);
                if (!found) {
                    Interval item = interval(row);
                    auto idx = std::ptrdiff_t(firstNotBefore(r, item.start)) - 1;
                    bool covers = idx >= 0 && pyLessEqual(r.items[size_t(idx)].start, item.start) &&
                                  pyLessEqual(item.end, r.items[size_t(idx)].end);
                    found = covers ? idx : -1;
                }
                if (*found < 0) continue;
                uint32_t& group = r.groupOfItem[size_t(*found)];
                if (group == kNoGroup) {
                    uint32_t regionKey = key(r.items[size_t(*found)].row);
                    auto next = uint32_t(groups.size());
                    group = uidMode_ ? groupOfUid.try_emplace(regionKey, next).first->second : next;
                    if (group == next) groups.push_back({regionKey, {}});
                }
                if (uidMode_ && !seen.insert((uint64_t(group) << 32) | key(row)).second) continue;
                groups[group].ops.push_back(key(row));
            } catch (const ProcessError& e) {
                out.errors.emplace_back(row, e);
            }
        }
        return out;
    }

    // For each op, the extern regions covering it in group order, as one flat array: op's list is
    // externRegions_[externRegionsStart_[op], externRegionsStart_[op + 1]).
    void indexExternRegions(const std::vector<Group>& externCovered) {
        if (externCovered.empty()) return;
        externRegionsStart_.assign(keyCount() + 1, 0);
        for (const Group& group : externCovered)
            for (uint32_t op : group.ops) ++externRegionsStart_[op + 1];
        for (std::size_t i = 1; i < externRegionsStart_.size(); ++i)
            externRegionsStart_[i] += externRegionsStart_[i - 1];
        externRegions_.resize(externRegionsStart_.back());
        std::vector<uint32_t> next(externRegionsStart_.begin(), externRegionsStart_.end() - 1);
        for (std::size_t g = 0; g < externCovered.size(); ++g)
            for (uint32_t op : externCovered[g].ops) externRegions_[next[op]++] = uint32_t(g);
    }

    // Both _find_events_covered_in calls, then the indexes of flows, kernels and extern regions.
    // When the trace is big enough to pay for it, the extern search and its index run on another
    // core while this one does the rest; errors are then reported in the reference's order.
    void searchAndIndex() {
        bool parallel = !compiled_.empty() && !extern_.empty() &&
                        (threads_ > 1 || (threads_ == 0 && t_.size() > (1u << 16) &&
                                          std::thread::hardware_concurrency() > 1));
        auto externs = [&] {
            Covered c = findCoveredIn(extern_);
            indexExternRegions(c.groups);
            return c;
        };
        std::future<Covered> pending;
        if (parallel) pending = std::async(std::launch::async, externs);
        Covered compiled = findCoveredIn(compiled_);
        Errors flowErrors, kernelErrors;
        buildFlowMapping(flowErrors);
        indexKernelsByExternalId(kernelErrors);
        Covered covered = parallel ? pending.get() : externs();
        for (const Errors* errors : {&compiled.errors, &covered.errors, &flowErrors, &kernelErrors})
            for (const auto& [row, e] : *errors) fail(row, e);
        compiledCovered_ = std::move(compiled.groups);
        externCovered_ = std::move(covered.groups);
    }

    // _build_flow_mapping: each s/f binds to the event just before it in the file.
    void buildFlowMapping(Errors& errors) {
        if (!anyFlow_) return;
        std::vector<std::pair<uint32_t, uint32_t>> pairs;  // (src, dst) keys, insertion order
        // Flow ids are Python ints: keyed exactly, beyond int64 too.
        struct Hash {
            std::size_t operator()(__int128 v) const {
                return std::hash<uint64_t>()(uint64_t(v) ^
                                             uint64_t(v >> 64) * 0x9E3779B97F4A7C15ull);
            }
        };
        std::unordered_map<__int128, uint32_t, Hash> pairOf;
        // Flow ids are mostly small non-negative ints (correlation ids): those index an array
        // when it stays within four slots per flow event; the others go to the hash map.
        int64_t maxId = -1;
        uint64_t flows = 0;
        for (uint32_t row = 0, n = t_.size(); row < n; ++row) {
            if (!isFlow_[row] || t_.kinds[row].flowId != FlowIdStatus::Ok) continue;
            ++flows;
            maxId = std::max(maxId, t_.flowId[row]);
        }
        std::vector<uint32_t> pairOfSmall;
        if (maxId >= 0 && uint64_t(maxId) < 4 * flows + (1u << 16))
            pairOfSmall.assign(std::size_t(maxId) + 1, kNone);
        uint32_t prev = kNone;
        for (uint32_t row = 0, n = t_.size(); row < n; ++row) {
            if (!isFlow_[row]) {
                prev = row;
                continue;
            }
            char ph = t_.phase[row];
            if (ph == 's' || ph == 'f') {
                if (prev == kNone) continue;
                const EventTable::Kinds& k = t_.kinds[row];
                if (k.flowId == FlowIdStatus::Missing) {
                    errors.emplace_back(row, ProcessError{DiagnosticKind::BadFlow,
                                                          eventLabel(row) + " is a flow event "
                                                                            "without \"id\""});
                } else if (k.flowId == FlowIdStatus::Invalid) {
                    errors.emplace_back(row, ProcessError{DiagnosticKind::BadFlow,
                                                          eventLabel(row) + " has a flow \"id\" "
                                                                            "that int() rejects"});
                } else {
                    __int128 id =
                        k.flowId == FlowIdStatus::Big ? t_.bigFlowId.at(row) : t_.flowId[row];
                    uint32_t& pair = id >= 0 && id < __int128(pairOfSmall.size())
                                         ? pairOfSmall[std::size_t(id)]
                                         : pairOf.try_emplace(id, kNone).first->second;
                    if (pair == kNone) {
                        pair = uint32_t(pairs.size());
                        pairs.push_back({kNone, kNone});
                    }
                    (ph == 's' ? pairs[pair].first : pairs[pair].second) = key(prev);
                }
            }
            prev = row;
        }
        src2dst_.assign(keyCount(), kNone);
        dst2src_.assign(keyCount(), kNone);
        for (auto [src, dst] : pairs) {
            if (src == kNone || dst == kNone) continue;
            src2dst_[src] = dst;
            dst2src_[dst] = src;
        }
    }

    // kernel_uids_by_external_id, as one array grouped by External id (file order within).
    void indexKernelsByExternalId(Errors& errors) {
        std::vector<std::pair<KeyId, uint32_t>> found;
        for (uint32_t row = 0, n = t_.size(); row < n; ++row) {
            if (!isReal_[row] || !(catFlags(row) & kKernel)) continue;
            ValueKind args = t_.kinds[row].args;
            if (args != ValueKind::Absent && args != ValueKind::Object) {
                errors.emplace_back(row, ProcessError{DiagnosticKind::BadArgs,
                                                      eventLabel(row) + " (a kernel) has \"args\" "
                                                                        "that is not an object"});
                continue;
            }
            KeyId ext = t_.externalId[row];
            if (ext == kNoKey) continue;
            if (ext == kUnhashable) {
                errors.emplace_back(row, ProcessError{DiagnosticKind::BadExternalId,
                                                      eventLabel(row) + " has a list or object "
                                                                        "as \"External id\""});
                continue;
            }
            found.push_back({ext, key(row)});
        }
        kernelStart_.assign(t_.keys.size() + 1, 0);
        for (auto [ext, k] : found) ++kernelStart_[ext + 1];
        for (std::size_t i = 1; i < kernelStart_.size(); ++i)
            kernelStart_[i] += kernelStart_[i - 1];
        kernelKeys_.resize(found.size());
        std::vector<uint32_t> fill(kernelStart_.begin(), kernelStart_.end() - 1);
        for (auto [ext, k] : found) kernelKeys_[fill[ext]++] = k;
    }

    void sortCompiledRegions() {
        for (uint32_t row : compiled_) {
            try {
                sortedRegions_.push_back(interval(row));
            } catch (const ProcessError&) {
                // Reported by findCoveredIn already.
            }
        }
        sortByStart(sortedRegions_);
        for (const Interval& i : sortedRegions_) regionStarts_.push_back(i.start);
    }

    // _related_compile_region: the nearest compiled event, any thread, strictly around the
    // backward region's fwdbwd source.
    uint32_t relatedRegion(uint32_t regionRow) {
        uint32_t src = dst2src_.empty() ? kNone : dst2src_[key(regionRow)];
        if (src == kNone)
            throw ProcessError{DiagnosticKind::BackwardWithoutFlow,
                               eventLabel(regionRow) + " (" + std::string(t_.nameOf(regionRow)) +
                                   ") is a backward region with no incoming fwdbwd flow"};
        Interval source = interval(rowOf(src));
        long idx =
            std::lower_bound(regionStarts_.begin(), regionStarts_.end(), source.start, pyLess) -
            regionStarts_.begin() - 1;
        for (; idx >= 0; --idx) {
            const Interval& r = sortedRegions_[size_t(idx)];
            if (pyLess(r.start, source.start) && pyLess(source.end, r.end)) return r.row;
        }
        return kNone;
    }

    // _kernel_events_for_op: calls f(row) for each kernel event of the op.
    template <typename F>
    void forEachKernel(uint32_t opKey, F&& f) {
        if (!src2dst_.empty() && src2dst_[opKey] != kNone) {
            f(rowOf(src2dst_[opKey]));
            return;
        }
        uint32_t opRow = rowOf(opKey);
        ValueKind args = t_.kinds[opRow].args;
        if (args != ValueKind::Absent && args != ValueKind::Object)
            throw ProcessError{DiagnosticKind::BadArgs,
                               eventLabel(opRow) + " has \"args\" that is not an object"};
        KeyId ext = t_.externalId[opRow];
        if (ext == kNoKey) return;
        if (ext == kUnhashable)
            throw ProcessError{DiagnosticKind::BadExternalId,
                               eventLabel(opRow) + " has a list or object as \"External id\""};
        if (ext + 1 < kernelStart_.size())
            for (uint32_t i = kernelStart_[ext]; i < kernelStart_[ext + 1]; ++i)
                f(rowOf(kernelKeys_[i]));
    }

    void processRegion(const Group& group) {
        uint32_t regionRow = rowOf(group.regionKey);
        std::string name(t_.nameOf(regionRow));
        bool needBw = name.find(reference::kBackwardMark) != std::string::npos;
        if (needBw) {
            uint32_t forward;
            try {
                forward = relatedRegion(regionRow);
            } catch (const ProcessError& e) {
                fail(regionRow, e);
                return;
            }
            if (forward == kNone) {
                warning(regionRow, DiagnosticKind::ForwardRegionNotFound, name,
                        "Backward region " + eventLabel(regionRow) +
                            " is skipped: no compiled region strictly contains its forward source");
                return;
            }
            name = std::string(t_.nameOf(forward));
        }
        std::string fwKey = pyGraphKey(name, false);
        const std::vector<std::string>& bwKeys = info_.backwardKeys(name);
        // The reference's prefix scan raises on some keys; say so once, at the first scan.
        if (!raisingKeysReported_ && !info_.contains(bwKeys[0]) && !info_.raisingKeys().empty()) {
            raisingKeysReported_ = true;
            for (const std::string& k : info_.raisingKeys())
                error(regionRow, DiagnosticKind::BadGraphKey,
                      "graph key " + k +
                          " makes the reference's ast.literal_eval raise; it is ignored");
        }
        bool known = discover_ || info_.contains(fwKey) ||
                     std::any_of(bwKeys.begin(), bwKeys.end(),
                                 [&](const std::string& k) { return info_.contains(k); });
        if (!known) {
            warning(regionRow, DiagnosticKind::RegionWithoutKernelInfo, name,
                    "Compiled region " + eventLabel(regionRow) + " (" + name +
                        ") has no kernel information under " + fwKey);
            return;
        }
        uint32_t slot =
            regionSlots_.try_emplace({name, needBw}, uint32_t(regionSlots_.size())).first->second;
        for (uint32_t op : group.ops) {
            try {
                forEachKernel(op, [&](uint32_t kernel) {
                    out_.reached[kernel] = 1;
                    if (discover_) return;
                    try {
                        processKernel(kernel, op, slot, fwKey, bwKeys, needBw);
                    } catch (const ProcessError& e) {
                        fail(kernel, e);
                    } catch (const RegistryError& e) {
                        error(kernel, DiagnosticKind::BadKernelInfo, e.what());
                    }
                });
            } catch (const ProcessError& e) {
                fail(rowOf(op), e);
            }
        }
    }

    void setStack(uint32_t row, const OrderedJson& stack) {
        ValueKind args = t_.kinds[row].args;
        if (args != ValueKind::Absent && args != ValueKind::Object)
            throw ProcessError{DiagnosticKind::BadArgs, eventLabel(row) +
                                                            " has \"args\" that is not an object; "
                                                            "its stack cannot be added"};
        auto [it, inserted] = stackIds_.try_emplace(&stack, 0);
        if (inserted) it->second = out_.stacks.intern(stack.dump());
        out_.stack[row] = it->second;
        out_.written[row] = 1;
    }

    // The stack _assign_stack would assign (nullptr: none).
    const OrderedJson* stackFor(const std::string& fw, const std::vector<std::string>& bw,
                                std::string_view kernel) const {
        for (const std::string& k : bw)
            if (const OrderedJson* s = info_.stackForKernel(k, kernel)) return s;
        return info_.stackForKernel(fw, kernel);
    }
    // The stack _assign_single_stack would assign.
    const OrderedJson* singleStackFor(const std::string& fw,
                                      const std::vector<std::string>& bw) const {
        for (const std::string& k : bw)
            if (const OrderedJson* s = info_.singleStack(k)) return s;
        return info_.singleStack(fw);
    }
    bool assign(uint32_t row, const OrderedJson* stack) {
        if (stack) setStack(row, *stack);
        return stack != nullptr;
    }

    // What the kernel information says of a kernel name under a region's graph keys: the same
    // for every launch, so it is looked up once per (region name, kernel name).
    struct KernelLookup {
        bool isExtern = false;
        bool triton = false;
        const OrderedJson* stack = nullptr;  // when not extern
    };
    const KernelLookup& lookup(uint32_t slot, uint32_t nameId, std::string_view name,
                               const std::string& fw, const std::vector<std::string>& bw,
                               bool needBw) {
        uint64_t memoKey = (uint64_t(slot) << 32) | nameId;
        auto it = lookups_.find(memoKey);
        if (it != lookups_.end()) return it->second;
        KernelLookup l;
        // _maybe_extern_call
        l.isExtern = !info_.hasKernelInfo(fw, name) &&
                     (!needBw || std::none_of(bw.begin(), bw.end(), [&](const std::string& key) {
                         return info_.hasKernelInfo(key, name);
                     }));
        if (!l.isExtern) {
            l.triton = name.rfind(reference::kTritonPrefix, 0) == 0;
            l.stack = l.triton ? stackFor(fw, bw, name) : singleStackFor(fw, bw);
        }
        return lookups_.emplace(memoKey, l).first->second;
    }

    // stackFor(fw, bw, _extern_kernel_name(the extern region's name)), once per (region name,
    // extern region name): both the name's regular expression and the lookups repeat.
    const OrderedJson* externStackFor(uint32_t slot, uint32_t externRow, const std::string& fw,
                                      const std::vector<std::string>& bw) {
        uint32_t nameId = t_.kinds[externRow].name == ValueKind::String ? t_.name[externRow] : 0;
        uint64_t memoKey = (uint64_t(slot) << 32) | nameId;
        auto it = externStacks_.find(memoKey);
        if (it != externStacks_.end()) return it->second;
        const OrderedJson* stack =
            stackFor(fw, bw, externKernelName(std::string(t_.strings.at(nameId))));
        return externStacks_.emplace(memoKey, stack).first->second;
    }

    void processKernel(uint32_t row, uint32_t op, uint32_t slot, const std::string& fw,
                       const std::vector<std::string>& bw, bool needBw) {
        const EventTable::Kinds& k = t_.kinds[row];
        if (k.event != ValueKind::Object)
            throw ProcessError{DiagnosticKind::MalformedEvent,
                               eventLabel(row) + " is not a JSON object"};
        if (k.name == ValueKind::Absent)
            throw ProcessError{DiagnosticKind::MissingName,
                               eventLabel(row) + " (a kernel) has no \"name\""};
        if (k.name != ValueKind::String)
            throw ProcessError{DiagnosticKind::BadName,
                               eventLabel(row) + " (a kernel) has a name that is not a string"};
        std::string_view name = t_.nameOf(row);
        const KernelLookup& l = lookup(slot, t_.name[row], name, fw, bw, needBw);
        bool assigned = false, warn = false;
        if (l.isExtern) {
            uint32_t begin = externRegionsStart_.empty() ? 0 : externRegionsStart_[op];
            uint32_t end = externRegionsStart_.empty() ? 0 : externRegionsStart_[op + 1];
            for (uint32_t i = begin; i < end && !assigned; ++i) {
                uint32_t externRow = rowOf(externCovered_[externRegions_[i]].regionKey);
                const EventTable::Kinds& ek = t_.kinds[externRow];
                if (ek.name != ValueKind::String && ek.name != ValueKind::Absent)
                    throw ProcessError{DiagnosticKind::BadName,
                                       eventLabel(externRow) + " has a name that is not a string"};
                assigned = assign(row, externStackFor(slot, externRow, fw, bw));
            }
            if (!assigned) assigned = assign(row, singleStackFor(fw, bw));
        } else {
            warn = !l.triton;
            assigned = assign(row, l.stack);
        }
        if (!assigned && warn)
            warning(row, DiagnosticKind::UnrecognizedKernel, std::string(name),
                    "Kernel " + std::string(name) +
                        " cannot be recognized as a custom kernel or triton kernel. Please try "
                        "profile with stack=True.");
    }

    void finish() {
        for (uint32_t row = 0, n = t_.size(); row < n; ++row) {
            if (out_.stack[row] != StackPool::kNone) ++out_.annotatedCount;
            if (out_.written[row]) ++out_.writtenCount;
        }
    }

    const EventTable& t_;
    const Trace& trace_;
    const KernelInfo& info_;
    Provenance& out_;
    bool discover_;
    unsigned threads_;  // 0: one per core

    bool uidMode_ = false;
    bool raisingKeysReported_ = false;
    std::vector<uint32_t> keyOfRow_, rowOfKey_;
    std::vector<uint8_t> isFlow_, isReal_;
    bool anyFlow_ = false;
    std::vector<uint32_t> compiled_, extern_;
    std::vector<Group> compiledCovered_, externCovered_;
    std::vector<uint32_t> externRegionsStart_, externRegions_;
    std::vector<uint32_t> src2dst_, dst2src_;         // by uid key; kNone where there is no flow
    std::vector<uint32_t> kernelStart_, kernelKeys_;  // kernels by External id
    std::vector<Interval> sortedRegions_;
    std::vector<PyNum> regionStarts_;
    std::unordered_map<const OrderedJson*, uint32_t> stackIds_;
    std::map<std::pair<std::string, bool>, uint32_t> regionSlots_;  // (name, needBw) -> slot
    std::unordered_map<uint64_t, KernelLookup> lookups_;
    std::unordered_map<uint64_t, const OrderedJson*> externStacks_;
    std::set<std::pair<uint32_t, DiagnosticKind>> reported_;  // (row, kind) of the errors so far
    std::vector<uint8_t> stringFlags_;
};

}  // namespace

// What loading the kernel information had to decide (KernelInfo::notes), as warnings ahead of
// the processor's own; none for a registry file, so the reference's warnings stay as they are.
static std::vector<Diagnostic> kernelInfoNotes(const Trace& trace, const KernelInfo& kernelInfo) {
    std::vector<Diagnostic> notes;
    for (const std::string& note : kernelInfo.notes())
        notes.push_back({DiagnosticKind::KernelInfoSource, kNoRow, {}, note});
    if (kernelInfo.appliesToEveryRegion()) {
        const StringPool& strings = trace.events.strings;
        bool regions = false;
        for (uint32_t id = 0; id < strings.size() && !regions; ++id)
            regions = strings.at(id).find(kineto::kCompiledRegion) != std::string_view::npos;
        if (!regions)
            notes.push_back({DiagnosticKind::KernelInfoSource,
                             kNoRow,
                             {},
                             "The kernel information is keyed by kernel only and applies to the "
                             "trace's compiled regions, but the trace has no \"Torch-Compiled "
                             "Region\" event: no kernel can be given a stack."});
    }
    return notes;
}

Provenance runProvenance(const Trace& trace, const KernelInfo& kernelInfo, unsigned threads) {
    Provenance p;
    Processor(trace, kernelInfo, p, threads).run();
    std::vector<Diagnostic> notes = kernelInfoNotes(trace, kernelInfo);
    if (!notes.empty())
        p.diagnostics.insert(p.diagnostics.begin(), std::make_move_iterator(notes.begin()),
                             std::make_move_iterator(notes.end()));
    return p;
}

}  // namespace stackline
