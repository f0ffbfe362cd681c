// Every step below names the reference function it ports. Where the reference would raise, a
// ProcessError is thrown for that event, reported as an error, and the rest goes on.
#include "annotate/provenance.h"

#include <algorithm>
#include <bit>
#include <future>
#include <map>
#include <optional>
#include <set>
#include <thread>
#include <tuple>
#include <unordered_map>

#include "annotate/covered_search.h"
#include "annotate/event_uids.h"
#include "annotate/flow_mapping.h"
#include "annotate/forward_by_sequence.h"
#include "annotate/matched_by_name.h"
#include "annotate/no_compiled_region.h"
#include "annotate/process_error.h"
#include "annotate/stack_lookup.h"
#include "base/grouped_index.h"
#include "model/kineto.h"

namespace stackline {

bool Provenance::isGpuKernel(const EventTable& events, uint32_t row) const {
    return kineto::isGpuKernel(events.catOf(row));
}

KernelStatus Provenance::status(const EventTable& events, uint32_t row) const {
    if (stackOf(row) != StackPool::kNone) return KernelStatus::Annotated;
    if (reached[row] && isGpuKernel(events, row)) return KernelStatus::Unresolved;
    return KernelStatus::Outside;
}

namespace {

constexpr uint32_t kNone = UINT32_MAX;

// Keeps the processing state; one instance per run.
class Processor {
public:
    Processor(const Trace& trace, const KernelInfo& info, Provenance& out, unsigned threads)
        : t_(trace.events),
          trace_(trace),
          info_(info),
          out_(out),
          discover_(info.empty()),
          threads_(threads),
          lookup_(info) {}

    void run() {
        uint32_t n = t_.size();
        out_.applied = !discover_;
        out_.assignUids = out_.applied && !trace_.info.uidAssignedTruthy;
        out_.written.assign(n, false);
        out_.reached.assign(n, false);
        out_.origins.reset(n);
        for (auto& [row, span] : t_.stackValue) {
            out_.stack.set(row, out_.stacks.intern(std::string(trace_.slice(span))));
            out_.origins.setInTrace(row);
        }

        assignUids();
        partition();
        searchAndIndex();
        sortCompiledRegions();
        for (CoveredGroup& group : compiledCovered_) {
            processRegion(group);
            std::vector<uint32_t>().swap(group.ops);  // done with: what processing adds, it frees
        }
        finish();
    }

private:
    uint32_t key(uint32_t row) const { return uids_.key(row); }
    uint32_t rowOf(uint32_t key) const { return uids_.rowOf(key); }

    // name and number: the message's arguments (DiagnosticMessage).
    void error(uint32_t row, DiagnosticMessage message, uint32_t name, uint32_t number) {
        if (discover_) return;
        const Diagnostic d(message, row, name, number);
        // One error per event and kind: a region is also an op of the covered categories, and a
        // kernel is found both by External id and by flow, so one fault would be met twice.
        // (bad_graph_key is about a key, reported at the region: one per key.)
        if (row != kNoRow && d.kind != DiagnosticKind::BadGraphKey &&
            !reported_.emplace(row, d.kind).second)
            return;
        out_.diagnostics.add(d);
    }
    void warning(uint32_t row, DiagnosticMessage message, uint32_t name, uint32_t number) {
        if (discover_) return;
        out_.diagnostics.add(Diagnostic(message, row, name, number));
    }
    void fail(uint32_t row, const ProcessError& e) { error(row, e.message, 0, e.event); }

    // _assign_uniq_id_to_event
    void assignUids() {
        for (uint32_t row : uids_.assign(t_, trace_.info.uidAssignedTruthy))
            fail(row, {DiagnosticMessage::UidMissing, row});
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
        isFlow_.assign(n, false);
        isReal_.assign(n, false);
        for (uint32_t row = 0; row < n; ++row) {
            const EventTable::Kinds& k = t_.kinds[row];
            if (k.event != ValueKind::Object) {
                if (!uids_.fromTrace()) fail(row, {DiagnosticMessage::NotAnObject, row});
                continue;
            }
            bool container = k.name == ValueKind::Array || k.name == ValueKind::Object;
            uint8_t name = nameFlags(row), cat = catFlags(row);
            bool flow = name & kFlowName;
            if (!flow && !container && (k.cat == ValueKind::Array || k.cat == ValueKind::Object)) {
                fail(row, {DiagnosticMessage::CatIsContainer, row});
                continue;
            }
            if (container) {
                fail(row, {DiagnosticMessage::NameIsContainer, row});
                continue;
            }
            flow = flow || (cat & kFlowName);
            if (flow) {
                isFlow_[row] = true;
                anyFlow_ = true;
                continue;
            }
            bool nameIsString = k.name == ValueKind::String || k.name == ValueKind::Absent;
            if ((cat & kRegionCat) && !nameIsString) {
                fail(row, {DiagnosticMessage::CpuOpNameNotString, row});
                continue;
            }
            if (k.name == ValueKind::TruthyScalar) {
                fail(row, {DiagnosticMessage::NameIsNumber, row});
                continue;
            }
            isReal_[row] = true;
            if ((cat & kRegionCat) && (name & kRegionName)) compiled_.push_back(row);
            if ((name & kExternName) && (cat & kExternCat)) extern_.push_back(row);
        }
    }

    // _EventItem(event); region says whether a failure is the region's or a covered event's.
    Interval interval(uint32_t row) const {
        PyNum ts = t_.ts(row), dur = t_.dur(row);
        if (ts.kind == PyNum::Kind::Missing) throw ProcessError{DiagnosticMessage::TsMissing, row};
        if (ts.kind == PyNum::Kind::Invalid)
            throw ProcessError{DiagnosticMessage::TsNotNumber, row};
        if (dur.kind == PyNum::Kind::Missing) dur = PyNum::integer(0);
        if (dur.kind == PyNum::Kind::Invalid)
            throw ProcessError{DiagnosticMessage::DurNotNumber, row};
        return {ts, pyAdd(ts, dur), row};
    }

    // event.get("tid"): a missing tid is None, which matches regions whose tid is null.
    KeyId tidKey(uint32_t row) const {
        KeyId k = t_.tid[row];
        return k == kNoKey ? t_.keys.existingNullKey() : k;
    }

    // The start and end of a row whose ts is a float other than NaN and whose dur is a number or
    // absent, as doubles (false: the row takes the general path).
    bool floatSpan(uint32_t row, double& start, double& end) const {
        const EventTable::Kinds& k = t_.kinds[row];
        if (k.ts != PyNum::Kind::Float || k.dur == PyNum::Kind::Invalid) return false;
        start = std::bit_cast<double>(t_.tsBits[row]);
        if (start != start) return false;
        const uint64_t durBits = t_.durBitsOf(row);
        double dur = k.dur == PyNum::Kind::Float ? std::bit_cast<double>(durBits)
                     : k.dur == PyNum::Kind::Int ? double(int64_t(durBits))
                                                 : 0.0;
        end = start + dur;
        return true;
    }

    // _find_events_covered_in(real_events, regions)
    // Its errors are returned in order, not reported, so that two calls can run at once.
    struct Covered {
        std::vector<CoveredGroup> groups;
        ProcessErrors errors;
    };
    Covered findCoveredIn(const std::vector<uint32_t>& regions) const {
        Covered out;
        if (regions.empty()) return out;
        CoveredSearch search(uids_.keyOfRow());
        for (uint32_t row : regions) {
            try {
                if (t_.tid[row] == kNoKey)
                    throw ProcessError{DiagnosticMessage::RegionTidMissing, row};
                if (t_.tid[row] == kUnhashable)
                    throw ProcessError{DiagnosticMessage::TidIsContainer, row};
                ThreadRegions& thread = search.threadRegions(t_.tid[row]);
                thread.add(interval(row));
            } catch (const ProcessError& e) {
                out.errors.emplace_back(row, e);
            }
        }
        search.sortRegions();
        std::vector<uint8_t> covered(t_.strings.size());
        for (uint32_t id = 0; id < covered.size(); ++id)
            covered[id] = reference::isCoveredCategory(t_.strings.at(id));
        for (uint32_t row = 0, n = t_.size(); row < n; ++row) {
            if (!isReal_[row] || t_.kinds[row].cat != ValueKind::String || !covered[t_.cat[row]])
                continue;
            try {
                if (t_.kinds[row].callFrom == CallFrom::Yes) continue;
                if (t_.kinds[row].callFrom == CallFrom::Raises)
                    throw ProcessError{DiagnosticMessage::ArgsNotObject, row};
                KeyId tid = tidKey(row);
                if (tid == kUnhashable) throw ProcessError{DiagnosticMessage::TidIsContainer, row};
                ThreadRegions* thread = search.find(tid);
                if (!thread) continue;
                double start, end;
                std::ptrdiff_t found = thread->floatsOnly() && floatSpan(row, start, end)
                                           ? thread->coveringFloat(start, end)
                                           : thread->covering(interval(row));
                if (found != ThreadRegions::kNotCovered) search.cover(*thread, size_t(found), row);
            } catch (const ProcessError& e) {
                out.errors.emplace_back(row, e);
            }
        }
        out.groups = search.takeGroups();
        return out;
    }

    // For each op, the extern regions covering it, in group order. The groups' ops are not read
    // after this: they are freed (as many as the events, on big traces).
    void indexExternRegions(std::vector<CoveredGroup>& externCovered) {
        if (externCovered.empty()) return;
        externRegionsOfOp_ = GroupedIndex::build(uids_.count(), [&](auto add) {
            for (std::size_t g = 0; g < externCovered.size(); ++g)
                for (uint32_t op : externCovered[g].ops) add(op, uint32_t(g));
        });
        for (CoveredGroup& group : externCovered) std::vector<uint32_t>().swap(group.ops);
    }

    // Both _find_events_covered_in calls, then the indexes of flows, kernels and extern regions.
    // When the trace is big enough to pay for it, the extern search and its index run on another
    // core beside the compiled search and the flows; errors are then reported in the reference's
    // order. The kernel index comes after both searches, so that its scratch (a pair per kernel)
    // is not held beside theirs (a group entry per covered op): the processor's peak is the CLI's
    // (1 GB kineto shape: 249 MiB against 271; the flows after them too saved nothing more).
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
        ProcessErrors flowErrors, kernelErrors;
        if (anyFlow_) flows_ = buildFlowMapping(t_, isFlow_, uids_, flowErrors);
        Covered covered = parallel ? pending.get() : externs();
        indexKernelsByExternalId(kernelErrors);
        for (const ProcessErrors* errors :
             {&compiled.errors, &covered.errors, &flowErrors, &kernelErrors})
            for (const auto& [row, e] : *errors) fail(row, e);
        compiledCovered_ = std::move(compiled.groups);
        externCovered_ = std::move(covered.groups);
    }

    // kernel_uids_by_external_id, as one array grouped by External id (file order within).
    void indexKernelsByExternalId(ProcessErrors& errors) {
        std::vector<std::pair<KeyId, uint32_t>> found;
        for (uint32_t row = 0, n = t_.size(); row < n; ++row) {
            if (!isReal_[row] || !(catFlags(row) & kKernel)) continue;
            ValueKind args = t_.kinds[row].args;
            if (args != ValueKind::Absent && args != ValueKind::Object) {
                errors.emplace_back(row, ProcessError{DiagnosticMessage::KernelArgsNotObject, row});
                continue;
            }
            KeyId ext = t_.externalId[row];
            if (ext == kNoKey) continue;
            if (ext == kUnhashable) {
                errors.emplace_back(row,
                                    ProcessError{DiagnosticMessage::ExternalIdIsContainer, row});
                continue;
            }
            found.push_back({ext, key(row)});
        }
        kernelsByExternalId_ = GroupedIndex::build(t_.keys.size(), [&](auto add) {
            for (auto [ext, k] : found) add(ext, k);
        });
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
        regionEnds_.emplace(sortedRegions_);
    }

    // _related_compile_region: the nearest compiled event, any thread, strictly around the
    // backward region's fwdbwd source (where the format writes no such flows, its forward op
    // found by Sequence number, with a warning saying so).
    uint32_t relatedRegion(uint32_t regionRow) {
        uint32_t src = flows_.srcOf(key(regionRow));
        if (src == kNone && !trace_.metadata.forwardBackwardFlows) {
            if (!bySequence_) bySequence_.emplace(trace_);
            if (const uint32_t fwd = bySequence_->forwardOf(regionRow); fwd != kNoRow) {
                warning(regionRow, DiagnosticMessage::ForwardBySequenceNumber, t_.name[regionRow],
                        fwd);
                src = key(fwd);
            }
        }
        if (src == kNone) throw ProcessError{DiagnosticMessage::BackwardWithoutFlow, regionRow};
        Interval source = interval(rowOf(src));
        long idx =
            std::lower_bound(regionStarts_.begin(), regionStarts_.end(), source.start, pyLess) -
            regionStarts_.begin() - 1;
        // Every region before idx starts before the source when the order is total: the last
        // one ending after it is the answer.
        if (regionEnds_->exact() && !pyIsNan(source.start) && !pyIsNan(source.end)) {
            const long found = regionEnds_->lastEndingAfter(std::size_t(idx + 1), source.end);
            return found >= 0 ? sortedRegions_[std::size_t(found)].row : kNone;
        }
        for (; idx >= 0; --idx) {
            const Interval& r = sortedRegions_[size_t(idx)];
            if (pyLess(r.start, source.start) && pyLess(source.end, r.end)) return r.row;
        }
        return kNone;
    }

    // _kernel_events_for_op: calls f(row) for each kernel event of the op.
    template <typename F>
    void forEachKernel(uint32_t opKey, F&& f) {
        if (uint32_t dst = flows_.dstOf(opKey); dst != FlowMapping::kNoFlow) {
            f(rowOf(dst));
            return;
        }
        uint32_t opRow = rowOf(opKey);
        ValueKind args = t_.kinds[opRow].args;
        if (args != ValueKind::Absent && args != ValueKind::Object)
            throw ProcessError{DiagnosticMessage::ArgsNotObject, opRow};
        KeyId ext = t_.externalId[opRow];
        if (ext == kNoKey) return;
        if (ext == kUnhashable) throw ProcessError{DiagnosticMessage::ExternalIdIsContainer, opRow};
        for (uint32_t kernel : kernelsByExternalId_[ext]) f(rowOf(kernel));
    }

    void processRegion(const CoveredGroup& group) {
        uint32_t regionRow = rowOf(group.regionKey);
        std::string name(t_.nameOf(regionRow));
        uint32_t nameId = t_.name[regionRow];  // a compiled region's name is a string
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
                warning(regionRow, DiagnosticMessage::ForwardRegionNotFound, 0, regionRow);
                return;
            }
            name = std::string(t_.nameOf(forward));
            nameId = t_.name[forward];
        }
        std::string fwKey = pyGraphKey(name, false);
        const std::vector<std::string>& bwKeys = info_.backwardKeys(name);
        // The reference's prefix scan raises on some keys; say so once, at the first scan.
        if (!raisingKeysReported_ && !info_.contains(bwKeys[0]) && !info_.raisingKeys().empty()) {
            raisingKeysReported_ = true;
            for (const std::string& k : info_.raisingKeys())
                error(regionRow, DiagnosticMessage::GraphKeyRaises, out_.diagnostics.text(k), 0);
        }
        bool known = discover_ || info_.contains(fwKey) ||
                     std::any_of(bwKeys.begin(), bwKeys.end(),
                                 [&](const std::string& k) { return info_.contains(k); });
        if (!known) {
            warning(regionRow, DiagnosticMessage::RegionWithoutKernelInfo, nameId, regionRow);
            return;
        }
        uint32_t slot =
            regionSlots_.try_emplace({name, needBw}, uint32_t(regionSlots_.size())).first->second;
        const RegionKeys region{slot, fwKey, bwKeys, needBw};
        for (uint32_t op : group.ops) {
            try {
                forEachKernel(op, [&](uint32_t kernel) {
                    out_.reached[kernel] = true;
                    if (discover_) return;
                    try {
                        processKernel(kernel, op, region);
                    } catch (const ProcessError& e) {
                        fail(kernel, e);
                    } catch (const RegistryError& e) {
                        error(kernel, DiagnosticMessage::KernelInfoUnreadable,
                              out_.diagnostics.text(e.what()), 0);
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
            throw ProcessError{DiagnosticMessage::StackArgsNotObject, row};
        auto [it, inserted] = stackIds_.try_emplace(&stack, 0);
        if (inserted) it->second = out_.stacks.intern(stack.dump());
        out_.stack.set(row, it->second);
        out_.written[row] = true;
    }

    // nameId: the StringPool id of the name looked up (an extern call's when externCall), kNone
    // for the single-stack rule.
    bool assign(uint32_t row, FoundStack found, const RegionKeys& region, uint32_t nameId,
                bool externCall = false) {
        if (!found.stack) return false;
        setStack(row, *found.stack);
        auto [it, inserted] =
            sourceIds_.try_emplace({region.slot, nameId, found.key, externCall}, 0);
        if (inserted) {
            std::string kernel;
            if (nameId != kNone) kernel = std::string(t_.strings.at(nameId));
            if (externCall) kernel = externKernelName(kernel);
            it->second = out_.origins.addSource({region.key(found.key), std::move(kernel)});
        }
        out_.origins.setWritten(
            row, nameId == kNone ? StackOrigin::SingleStack : StackOrigin::Matched, it->second);
        return true;
    }

    void processKernel(uint32_t row, uint32_t op, const RegionKeys& region) {
        const EventTable::Kinds& k = t_.kinds[row];
        if (k.event != ValueKind::Object)
            throw ProcessError{DiagnosticMessage::KernelNotAnObject, row};
        if (k.name == ValueKind::Absent)
            throw ProcessError{DiagnosticMessage::KernelNameMissing, row};
        if (k.name != ValueKind::String)
            throw ProcessError{DiagnosticMessage::KernelNameNotString, row};
        std::string_view name = t_.nameOf(row);
        const StackLookup::Kernel& l = lookup_.kernel(region, t_.name[row], name);
        bool assigned = false, warn = false;
        if (l.isExtern) {
            for (uint32_t group : externRegionsOfOp_[op]) {
                uint32_t externRow = rowOf(externCovered_[group].regionKey);
                const EventTable::Kinds& ek = t_.kinds[externRow];
                if (ek.name != ValueKind::String && ek.name != ValueKind::Absent)
                    throw ProcessError{DiagnosticMessage::NameNotString, externRow};
                uint32_t nameId = ek.name == ValueKind::String ? t_.name[externRow] : 0;
                assigned = assign(row, lookup_.externStack(region, nameId, t_.strings.at(nameId)),
                                  region, nameId, true);
                if (assigned) break;
            }
            if (!assigned) assigned = assign(row, lookup_.singleStack(region), region, kNone);
        } else {
            warn = !l.triton;
            assigned = assign(row, l.stack, region, l.triton ? t_.name[row] : kNone);
        }
        if (!assigned && warn) warning(row, DiagnosticMessage::UnrecognizedKernel, t_.name[row], 0);
    }

    void finish() {
        out_.stack.seal(t_.size());
        out_.annotatedCount = uint32_t(out_.stack.size());
        for (uint32_t row = 0, n = t_.size(); row < n; ++row)
            if (out_.written[row]) ++out_.writtenCount;
    }

    const EventTable& t_;
    const Trace& trace_;
    const KernelInfo& info_;
    Provenance& out_;
    bool discover_;
    unsigned threads_;  // 0: one per core

    bool raisingKeysReported_ = false;
    EventUids uids_;
    std::vector<bool> isFlow_, isReal_;  // by row: the partition's flow and real events
    bool anyFlow_ = false;
    std::vector<uint32_t> compiled_, extern_;
    std::vector<CoveredGroup> compiledCovered_, externCovered_;
    GroupedIndex externRegionsOfOp_;  // by op key: indexes into externCovered_
    FlowMapping flows_;
    GroupedIndex kernelsByExternalId_;  // kernel keys by External id
    std::vector<Interval> sortedRegions_;
    // Backward regions' forward ops where the format writes no fwdbwd flows; built when needed.
    std::optional<ForwardBySequence> bySequence_;
    std::vector<PyNum> regionStarts_;
    std::optional<RegionEnds> regionEnds_;  // of sortedRegions_
    std::unordered_map<const OrderedJson*, uint32_t> stackIds_;
    // (region slot, name looked up, FoundStack::key, extern call) -> StackOrigins source
    std::map<std::tuple<uint32_t, uint32_t, uint32_t, bool>, uint32_t> sourceIds_;
    std::map<std::pair<std::string, bool>, uint32_t> regionSlots_;  // (name, needBw) -> slot
    StackLookup lookup_;
    std::set<std::pair<uint32_t, DiagnosticKind>> reported_;  // (row, kind) of the errors so far
    std::vector<uint8_t> stringFlags_;
};

}  // namespace

// What reading the trace skipped (Trace::notes), what loading the kernel information had to decide
// (KernelInfo::notes), then, for a trace without compiled regions, what Stackline's rule by name
// placed and why the rest has no stack: Stackline's diagnostics, ahead of the processor's own;
// none for a registry file applied to a trace with regions, so the reference's warnings stay as
// they are.
static std::vector<Diagnostic> kernelInfoNotes(const Trace& trace, const KernelInfo& kernelInfo,
                                               Provenance& p) {
    std::vector<Diagnostic> notes;
    for (const std::string& note : trace.notes)
        notes.emplace_back(DiagnosticMessage::TraceReaderNote, kNoRow, p.diagnostics.text(note));
    for (const std::string& note : kernelInfo.notes())
        notes.emplace_back(DiagnosticMessage::KernelInfoNote, kNoRow, p.diagnostics.text(note));
    for (const Diagnostic& d : matchByName(trace, kernelInfo, p)) notes.push_back(d);
    for (const Diagnostic& d : noCompiledRegionWarnings(trace, kernelInfo, p, p.diagnostics))
        notes.push_back(d);
    return notes;
}

Provenance runProvenance(const Trace& trace, const KernelInfo& kernelInfo, unsigned threads) {
    Provenance p;
    Processor(trace, kernelInfo, p, threads).run();
    p.diagnostics.prepend(kernelInfoNotes(trace, kernelInfo, p));
    return p;
}

}  // namespace stackline
