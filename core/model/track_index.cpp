#include "model/track_index.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <unordered_set>

#include "model/event_categories.h"

namespace stackline {

namespace {

// 16 bytes: every slice of the trace is held at once while the levels are built (beside the
// processor's work, at the viewer's peak of memory); its end is read back from the event table.
struct SliceRef {
    int64_t start;
    uint32_t row;
    uint32_t level = 0;  // set by buildLevels
};

// The end of the last slice on each level, with the smallest end of every power-of-two block of
// levels above it (a segment tree): the first level at or below some level that is free at a time
// is found in O(log levels) however many levels are busy (concurrent slices that overlap without
// nesting each take one).
class FreeLevels {
public:
    // The first level >= from whose last slice ends at or before t (a new level if none).
    uint32_t firstFreeFrom(uint32_t from, int64_t t) const {
        if (from >= count_) return count_;
        if (tree_[width_ + from] <= t) return from;
        const uint32_t found = search(1, 0, width_, from, t);
        return found == UINT32_MAX ? count_ : found;
    }
    // Records that level's last slice now ends at end (level <= the level count).
    void occupy(uint32_t level, int64_t end) {
        if (level == count_) {
            if (count_ == width_) grow();
            ++count_;
        }
        size_t i = width_ + level;
        tree_[i] = end;
        for (i /= 2; i >= 1; i /= 2) tree_[i] = std::min(tree_[2 * i], tree_[2 * i + 1]);
    }

private:
    // The first leaf >= from in node's range [lo, hi) holding a value <= t, else UINT32_MAX.
    uint32_t search(size_t node, uint32_t lo, uint32_t hi, uint32_t from, int64_t t) const {
        if (hi <= from || tree_[node] > t) return UINT32_MAX;
        if (hi - lo == 1) return lo;
        const uint32_t mid = lo + (hi - lo) / 2;
        const uint32_t left = search(2 * node, lo, mid, from, t);
        return left != UINT32_MAX ? left : search(2 * node + 1, mid, hi, from, t);
    }
    void grow() {
        const uint32_t width = width_ * 2;
        std::vector<int64_t> tree(2 * size_t(width), INT64_MAX);
        std::copy(tree_.begin() + width_, tree_.begin() + width_ + count_, tree.begin() + width);
        for (size_t i = width; i-- > 1;) tree[i] = std::min(tree[2 * i], tree[2 * i + 1]);
        tree_ = std::move(tree);
        width_ = width;
    }
    uint32_t width_ = 8, count_ = 0;  // leaves (a power of two), levels in use
    std::vector<int64_t> tree_ = std::vector<int64_t>(16, INT64_MAX);
};

// Places a track's slices (sorted by start, longer first) on levels: a slice goes one level below
// its innermost enclosing slice, or to the first level below that which is free at its start, so
// a slice that overlaps another without nesting gets a row of its own instead of being dropped.
int64_t endOf(const EventTable& ev, const SliceRef& s) {
    return s.start + std::max<int64_t>(0, ev.durNs(s.row));
}

void buildLevels(const EventTable& ev, Track& track, std::vector<SliceRef>& slices,
                 std::vector<uint32_t>& trackOf, std::vector<uint16_t>& levelOf, uint32_t trackId) {
    auto before = [&ev](const SliceRef& a, const SliceRef& b) {
        if (a.start != b.start) return a.start < b.start;
        if (const int64_t ea = endOf(ev, a), eb = endOf(ev, b); ea != eb) return ea > eb;
        return a.row < b.row;
    };
    // A thread's slices come nearly in order (with_stack traces: a block of ops, then one of
    // Python frames): when they form a few sorted runs, merging them beats sorting them all.
    // The order is total (rows differ), so both give the same result.
    std::vector<size_t> runs{0};
    for (size_t i = 1; i < slices.size() && runs.size() <= 16; ++i)
        if (before(slices[i], slices[i - 1])) runs.push_back(i);
    if (runs.size() > 16) {
        std::sort(slices.begin(), slices.end(), before);
    } else {
        runs.push_back(slices.size());
        for (size_t width = 1; width + 1 < runs.size(); width *= 2)
            for (size_t r = 0; r + width + 1 < runs.size(); r += 2 * width)
                std::inplace_merge(
                    slices.begin() + ptrdiff_t(runs[r]),
                    slices.begin() + ptrdiff_t(runs[r + width]),
                    slices.begin() + ptrdiff_t(runs[std::min(r + 2 * width, runs.size() - 1)]),
                    before);
    }
    // The open slices that may still be the innermost one around a later slice, outermost at the
    // bottom. Pushing a slice drops those on top that end no later than it does: every later
    // search would find it first, and it closes no sooner. So ends never increase upwards, the
    // slices that close are always on top, and the innermost one ending at or after a slice is
    // one binary search (a deep nest costs O(log depth) a slice, not O(depth)).
    struct Open {
        int64_t start, end;
        uint32_t level;
    };
    // Each slice's level first, then the levels filled at their exact size (grown by doubling,
    // they would briefly need three times their bytes).
    std::vector<Open> open;
    FreeLevels free;
    std::vector<uint32_t> perLevel;
    for (SliceRef& s : slices) {
        const int64_t end = endOf(ev, s);
        const bool zero = end == s.start;
        // A zero-length slice at its parent's very end still belongs inside it.
        while (!open.empty() &&
               !(open.back().end > s.start ||
                 (zero && open.back().end == s.start && open.back().start < s.start)))
            open.pop_back();
        // The innermost open slice that ends at or after this one: the topmost with end >= its end,
        // a prefix from the bottom.
        uint32_t minLevel = 0;
        if (!open.empty() && open.back().end >= end) {
            minLevel = open.back().level + 1;
        } else {
            auto it = std::partition_point(open.begin(), open.end(),
                                           [&](const Open& o) { return o.end >= end; });
            if (it != open.begin()) minLevel = std::prev(it)->level + 1;
        }
        const uint32_t level = free.firstFreeFrom(minLevel, s.start);
        if (level >= perLevel.size()) perLevel.resize(level + 1);
        ++perLevel[level];
        free.occupy(level, end);
        s.level = level;
        // A zero-length slice starting where an open one ends stays below it: that one still
        // takes the zero-length slices after this one, which this one would not.
        while (!open.empty() &&
               (open.back().end < end ||
                (open.back().end == end && (!zero || open.back().start == s.start))))
            open.pop_back();
        open.push_back({s.start, end, level});
    }
    track.levels.resize(perLevel.size());
    for (size_t i = 0; i < perLevel.size(); ++i) {
        TrackLevel& l = track.levels[i];
        l.start.reserve(perLevel[i]);
        l.end.reserve(perLevel[i]);
        l.row.reserve(perLevel[i]);
    }
    for (const SliceRef& slice : slices) {
        TrackLevel& l = track.levels[slice.level];
        l.start.push_back(slice.start);
        l.end.push_back(endOf(ev, slice));
        l.row.push_back(slice.row);
        trackOf[slice.row] = trackId;
        levelOf[slice.row] = uint16_t(std::min<uint32_t>(slice.level, UINT16_MAX - 1));
    }
    for (TrackLevel& l : track.levels) l.finish();
    track.sliceCount = uint32_t(slices.size());
    slices.clear();
    slices.shrink_to_fit();
}

// Runs job(i) for i in [0, n) on up to `threads` threads.
template <class Job>
void parallelFor(size_t n, unsigned threads, Job job) {
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    threads = unsigned(std::min<size_t>(threads, n));
    if (threads <= 1) {
        for (size_t i = 0; i < n; ++i) job(i);
        return;
    }
    std::atomic<size_t> next{0};
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back([&] {
            for (size_t i; (i = next.fetch_add(1)) < n;) job(i);
        });
    for (auto& th : pool) th.join();
}

}  // namespace

void TrackLevel::finish() {
    blockEnd.clear();
    for (size_t b = kBlock - 1; b < end.size() + kBlock - 1; b += kBlock)
        blockEnd.push_back(end[std::min(b, end.size() - 1)]);
}

size_t gallopLowerBound(const std::vector<int64_t>& sorted, int64_t t, size_t from) {
    const size_t n = sorted.size();
    if (from >= n || sorted[from] >= t) return std::min(from, n);
    size_t lo = from, step = 1;  // sorted[lo] < t
    while (lo + step < n && sorted[lo + step] < t) {
        lo += step;
        step *= 2;
    }
    const size_t hi = std::min(n, lo + step + 1);
    return size_t(std::lower_bound(sorted.begin() + long(lo) + 1, sorted.begin() + long(hi), t) -
                  sorted.begin());
}

size_t TrackLevel::firstEndingAtOrAfter(int64_t t, size_t from) const {
    // Painting mostly hops a few slices ahead; those are on the cache lines just read.
    const size_t n = end.size();
    for (size_t i = from, stop = std::min(n, from + 8); i < stop; ++i)
        if (end[i] >= t) return i;
    if (from + 8 >= n) return n;
    const size_t b = gallopLowerBound(blockEnd, t, (from + 8) / kBlock);
    if (b >= blockEnd.size()) return n;
    const size_t lo = std::max(from + 8, b * kBlock), hi = std::min(n, (b + 1) * kBlock);
    return size_t(std::lower_bound(end.begin() + long(lo), end.begin() + long(hi), t) -
                  end.begin());
}

size_t TrackLevel::firstStartingAfter(int64_t t) const {
    return size_t(std::upper_bound(start.begin(), start.end(), t) - start.begin());
}

std::string Process::label() const {
    if (labels.rfind("GPU", 0) == 0) return labels;
    if (gpu) return "GPU " + pid.label();
    if (!pid.isInt) return pid.text.empty() ? std::string("(empty pid)") : pid.text;
    std::string s = labels.empty() ? std::string() : labels + " · ";
    return s + (name.empty() ? std::string("process") : name) + " (pid " + pid.label() + ")";
}

uint32_t TrackIndex::displayId(const DisplayKey& key) const {
    auto it = displayIds_.find(key);
    return it == displayIds_.end() ? UINT32_MAX : it->second;
}

uint32_t TrackIndex::findTrack(KeyId pid, KeyId tid) const {
    uint32_t p = displayId(displayKey(events_->keys, pid));
    uint32_t t = displayId(displayKey(events_->keys, tid));
    if (p == UINT32_MAX || t == UINT32_MAX) return kNoTrack;
    auto it = trackByKey_.find((uint64_t(p) << 32) | t);
    return it == trackByKey_.end() ? kNoTrack : it->second;
}

TrackIndex TrackIndex::build(const EventTable& ev, const TraceMetadata& metadata,
                             unsigned threads) {
    TrackIndex ix;
    ix.events_ = &ev;
    const uint32_t n = ev.size();
    ix.trackOf_.assign(n, kNoTrack);
    ix.levelOf_.assign(n, 0);

    // Raw key -> normalised key id, cached per KeyId since a trace has few distinct pids and tids.
    std::vector<DisplayKey> keys;
    std::unordered_map<KeyId, uint32_t> rawToDisplay;
    auto keyId = [&](KeyId raw) {
        auto it = rawToDisplay.find(raw);
        if (it != rawToDisplay.end()) return it->second;
        DisplayKey k = displayKey(ev.keys, raw);
        auto [d, inserted] = ix.displayIds_.try_emplace(k, uint32_t(keys.size()));
        if (inserted) keys.push_back(k);
        rawToDisplay.emplace(raw, d->second);
        return d->second;
    };

    const EventCategories categories(ev);

    struct Pending {
        uint32_t pid, tid;
        bool gpu = false;
        std::vector<SliceRef> slices;
        std::vector<std::pair<int64_t, uint32_t>> instants;
        uint32_t sliceCount = 0, instantCount = 0;  // by the first pass
    };
    std::vector<Pending> pending;
    uint64_t lastKey = UINT64_MAX;
    uint32_t lastTrack = 0;
    auto pendingOf = [&](uint32_t row) -> Pending& {
        const uint64_t key = (uint64_t(ev.pid[row]) << 32) | ev.tid[row];
        if (key != lastKey) {
            uint64_t dkey = (uint64_t(keyId(ev.pid[row])) << 32) | keyId(ev.tid[row]);
            auto [it, inserted] = ix.trackByKey_.try_emplace(dkey, uint32_t(pending.size()));
            if (inserted) {
                pending.emplace_back();
                pending.back().pid = uint32_t(dkey >> 32);
                pending.back().tid = uint32_t(dkey);
            }
            lastKey = key;
            lastTrack = it->second;
        }
        return pending[lastTrack];
    };
    auto placed = [&](uint32_t row) {
        const PyNum::Kind tk = ev.kinds[row].ts;
        return tk == PyNum::Kind::Int || tk == PyNum::Kind::Float;
    };
    // Each track's slices and instants counted first, so that they are held at their exact size
    // (grown by doubling, they would briefly need three times their bytes).
    for (uint32_t row = 0; row < n; ++row) {
        const char ph = ev.phase[row];
        if ((ph == 'X' || ph == 'i' || ph == 'I') && placed(row)) {
            Pending& p = pendingOf(row);
            ++(ph == 'X' ? p.sliceCount : p.instantCount);
        }
    }
    for (Pending& p : pending) {
        p.slices.reserve(p.sliceCount);
        p.instants.reserve(p.instantCount);
    }
    lastKey = UINT64_MAX;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    std::unordered_set<uint32_t> counterPids;
    std::vector<std::pair<ScopedInstant, uint32_t>> scoped;  // with the display pid
    size_t nextScope = 0;
    for (uint32_t row = 0; row < n; ++row) {
        const char ph = ev.phase[row];
        const bool slice = ph == 'X';
        if (!slice && ph != 'i' && ph != 'I' && ph != 'C') continue;
        if (!placed(row)) continue;
        if (ph == 'C') {
            // Counters are drawn by CounterIndex; here they only widen the extent and make
            // their pid a process.
            counterPids.insert(keyId(ev.pid[row]));
            lo = std::min(lo, ev.tsNs(row));
            hi = std::max(hi, ev.tsNs(row));
            continue;
        }
        Pending& p = pendingOf(row);
        const int64_t ts = ev.tsNs(row);
        if (slice) {
            const int64_t end = ts + std::max<int64_t>(0, ev.durNs(row));
            p.slices.push_back({ts, row, 0});
            if (kineto::isGpuActivity(categories.of(row))) p.gpu = true;
            hi = std::max(hi, end);
        } else {
            p.instants.emplace_back(ts, row);
            hi = std::max(hi, ts);
            if (const char scope = metadata.instantScopes.at(row, 't', nextScope);
                scope == 'g' || scope == 'p')
                scoped.push_back({{ts, row, scope == 'g' ? kNoProcess : 0}, p.pid});
        }
        lo = std::min(lo, ts);
    }
    ix.start_ = lo == INT64_MAX ? 0 : lo;
    ix.end_ = hi == INT64_MIN ? 0 : hi;

    // Processes, then display order: Kineto's sort indexes put GPUs after CPU processes and its
    // own spans last; without them the same is guessed.
    std::unordered_map<uint32_t, uint32_t> processOf;
    std::vector<Process> procs;
    auto processFor = [&](uint32_t pid) -> Process& {
        auto [it, inserted] = processOf.try_emplace(pid, uint32_t(procs.size()));
        if (inserted) {
            Process pr;
            pr.pid = keys[pid];
            if (auto m = metadata.processes.find(pr.pid); m != metadata.processes.end()) {
                pr.name = m->second.name.value_or("");
                pr.labels = m->second.labels.value_or("");
                pr.sortIndex = m->second.sortIndex.value_or(INT64_MIN);
            } else {
                pr.sortIndex = INT64_MIN;
            }
            procs.push_back(std::move(pr));
        }
        return procs[it->second];
    };
    for (Pending& pt : pending) processFor(pt.pid).gpu |= pt.gpu;
    // In order of first appearance (pids are numbered so), as the pending tracks are.
    std::vector<uint32_t> counterOnly(counterPids.begin(), counterPids.end());
    std::sort(counterOnly.begin(), counterOnly.end());
    for (uint32_t pid : counterOnly) processFor(pid);
    for (Process& pr : procs) {
        pr.gpu |= pr.labels.rfind(kineto::kGpuLabelPrefix, 0) == 0;
        if (pr.sortIndex != INT64_MIN) continue;
        if (!pr.pid.isInt)
            pr.sortIndex = kineto::kSpansSortIndex + 1;
        else
            pr.sortIndex = pr.gpu ? kineto::kGpuSortIndexBase + pr.pid.value : pr.pid.value;
    }
    std::vector<uint32_t> procOrder(procs.size());
    for (uint32_t i = 0; i < procOrder.size(); ++i) procOrder[i] = i;
    std::sort(procOrder.begin(), procOrder.end(), [&](uint32_t a, uint32_t b) {
        if (procs[a].sortIndex != procs[b].sortIndex)
            return procs[a].sortIndex < procs[b].sortIndex;
        return procs[a].pid < procs[b].pid;
    });
    std::vector<uint32_t> procRank(procs.size());
    for (uint32_t i = 0; i < procOrder.size(); ++i) procRank[procOrder[i]] = i;

    std::vector<Track> tracks(pending.size());
    for (uint32_t i = 0; i < pending.size(); ++i) {
        Track& tr = tracks[i];
        const Pending& pt = pending[i];
        tr.process = procRank[processOf[pt.pid]];
        tr.tid = keys[pt.tid];
        tr.gpu = procs[processOf[pt.pid]].gpu;
        auto m = metadata.threads.find({keys[pt.pid], keys[pt.tid]});
        const bool named = m != metadata.threads.end();
        if (named && !m->second.name.value_or("").empty())
            tr.name = *m->second.name;
        else if (!tr.tid.isInt)
            tr.name = tr.tid.text.empty() ? "(empty tid)" : tr.tid.text;
        else
            tr.name = (tr.gpu ? "stream " : "thread ") + tr.tid.label();
        if (named && m->second.sortIndex)
            tr.sortIndex = *m->second.sortIndex;
        else
            tr.sortIndex = tr.tid.isInt ? tr.tid.value : INT64_MAX;
    }
    std::vector<uint32_t> order(tracks.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        const Track &x = tracks[a], &y = tracks[b];
        if (x.process != y.process) return x.process < y.process;
        if (x.sortIndex != y.sortIndex) return x.sortIndex < y.sortIndex;
        return x.tid < y.tid;
    });
    std::vector<uint32_t> rank(order.size());
    for (uint32_t i = 0; i < order.size(); ++i) rank[order[i]] = i;
    for (auto& [key, track] : ix.trackByKey_) track = rank[track];

    for (auto& [instant, pid] : scoped) {
        if (instant.process != kNoProcess) instant.process = procRank[processOf[pid]];
        ix.scopedInstants_.push_back(instant);
    }
    std::sort(ix.scopedInstants_.begin(), ix.scopedInstants_.end(),
              [](const ScopedInstant& a, const ScopedInstant& b) { return a.ts < b.ts; });

    ix.processes_.resize(procs.size());
    for (uint32_t i = 0; i < procOrder.size(); ++i)
        ix.processes_[i] = std::move(procs[procOrder[i]]);
    ix.tracks_.resize(tracks.size());
    std::vector<std::vector<SliceRef>> slices(tracks.size());
    std::vector<std::vector<std::pair<int64_t, uint32_t>>> instants(tracks.size());
    for (uint32_t i = 0; i < order.size(); ++i) {
        ix.tracks_[i] = std::move(tracks[order[i]]);
        slices[i] = std::move(pending[order[i]].slices);
        instants[i] = std::move(pending[order[i]].instants);
        ix.processes_[ix.tracks_[i].process].tracks.push_back(i);
        ix.sliceCount_ += slices[i].size();
    }

    // Sorting and levelling dominate for big traces; tracks are independent, so the largest go
    // first across the threads.
    std::vector<uint32_t> bySize(order.size());
    for (uint32_t i = 0; i < bySize.size(); ++i) bySize[i] = i;
    std::sort(bySize.begin(), bySize.end(),
              [&](uint32_t a, uint32_t b) { return slices[a].size() > slices[b].size(); });
    parallelFor(bySize.size(), threads, [&](size_t k) {
        const uint32_t i = bySize[k];
        Track& tr = ix.tracks_[i];
        buildLevels(ev, tr, slices[i], ix.trackOf_, ix.levelOf_, i);
        auto& inst = instants[i];
        std::sort(inst.begin(), inst.end());
        tr.instantTs.reserve(inst.size());
        tr.instantRow.reserve(inst.size());
        for (auto [ts, row] : inst) {
            tr.instantTs.push_back(ts);
            tr.instantRow.push_back(row);
            ix.trackOf_[row] = i;
            ix.levelOf_[row] = UINT16_MAX;
        }
    });
    return ix;
}

bool TrackIndex::isInstant(uint32_t row) const {
    return trackOf(row) != kNoTrack && levelOf_[row] == UINT16_MAX;
}

std::vector<uint32_t> TrackIndex::enclosing(uint32_t row) const {
    std::vector<uint32_t> out;
    forEachEnclosing(row, [&](uint32_t r) {
        out.push_back(r);
        return true;
    });
    return out;
}

std::vector<uint32_t> TrackIndex::innermostEnclosingAll(std::span<const uint8_t> marked) const {
    std::vector<uint32_t> out(trackOf_.size(), kNoRow);
    // Per track, in time order: each level's last slice started so far is what enclosing() finds
    // on it; a max tree over the levels holds that slice's end where it is marked, so a row's
    // answer is on the deepest level above it whose value reaches the row's end.
    struct Start {
        int64_t ts;
        uint32_t level, index;  // the slice's place on its level
    };
    struct Query {
        int64_t ts, end;
        uint32_t levels, row;  // the levels above it
    };
    std::vector<Start> starts;
    std::vector<Query> queries;
    std::vector<int64_t> tree;
    std::vector<uint32_t> current;  // per level: the row of its last slice started so far
    auto isMarked = [&](uint32_t row) { return row < marked.size() && marked[row]; };
    for (const Track& tr : tracks_) {
        const auto levels = uint32_t(tr.levels.size());
        bool any = false;
        starts.clear();
        queries.clear();
        for (uint32_t l = 0; l < levels; ++l) {
            const TrackLevel& lv = tr.levels[l];
            for (uint32_t i = 0; i < lv.size(); ++i) {
                starts.push_back({lv.start[i], l, i});
                queries.push_back({lv.start[i], lv.end[i], levelOf_[lv.row[i]], lv.row[i]});
                any = any || isMarked(lv.row[i]);
            }
        }
        if (!any) continue;
        for (size_t i = 0; i < tr.instantRow.size(); ++i)
            queries.push_back({tr.instantTs[i], tr.instantTs[i], levels, tr.instantRow[i]});
        std::sort(starts.begin(), starts.end(), [](const Start& a, const Start& b) {
            return a.ts != b.ts         ? a.ts < b.ts
                   : a.level != b.level ? a.level < b.level
                                        : a.index < b.index;
        });
        std::sort(queries.begin(), queries.end(),
                  [](const Query& a, const Query& b) { return a.ts < b.ts; });
        size_t width = 1;
        while (width < levels) width *= 2;
        tree.assign(2 * width, INT64_MIN);
        current.assign(levels, kNoRow);
        // The deepest leaf below `before` in node's range [lo, hi) holding a value >= end.
        auto deepest = [&](auto& self, size_t node, size_t lo, size_t hi, size_t before,
                           int64_t end) -> size_t {
            if (lo >= before || tree[node] < end) return SIZE_MAX;
            if (hi - lo == 1) return lo;
            const size_t mid = lo + (hi - lo) / 2;
            const size_t right = self(self, 2 * node + 1, mid, hi, before, end);
            return right != SIZE_MAX ? right : self(self, 2 * node, lo, mid, before, end);
        };
        size_t next = 0;
        for (const Query& q : queries) {
            for (; next < starts.size() && starts[next].ts <= q.ts; ++next) {
                const Start& st = starts[next];
                const TrackLevel& lv = tr.levels[st.level];
                current[st.level] = lv.row[st.index];
                size_t at = width + st.level;
                tree[at] = isMarked(lv.row[st.index]) ? lv.end[st.index] : INT64_MIN;
                for (at /= 2; at >= 1; at /= 2) tree[at] = std::max(tree[2 * at], tree[2 * at + 1]);
            }
            const size_t l = deepest(deepest, 1, 0, width, std::min(q.levels, levels), q.end);
            if (l != SIZE_MAX) out[q.row] = current[l];
        }
    }
    return out;
}

uint32_t TrackIndex::sliceAt(uint32_t track, int64_t t) const {
    if (track >= tracks_.size()) return kNoRow;
    const Track& tr = tracks_[track];
    uint32_t best = kNoRow;
    for (size_t l = tr.levels.size(); l-- > 0;) {
        const TrackLevel& lv = tr.levels[l];
        size_t i = lv.firstStartingAfter(t);
        if (i == 0) continue;
        --i;
        if (lv.end[i] < t) continue;
        if (lv.start[i] == t) return lv.row[i];
        if (best == kNoRow) best = lv.row[i];
    }
    return best;
}

uint32_t TrackIndex::nextSliceFrom(uint32_t track, int64_t t) const {
    if (track >= tracks_.size()) return kNoRow;
    uint32_t best = kNoRow;
    int64_t bestStart = INT64_MAX;
    for (const TrackLevel& lv : tracks_[track].levels) {
        size_t i = size_t(std::lower_bound(lv.start.begin(), lv.start.end(), t) - lv.start.begin());
        if (i < lv.size() && lv.start[i] < bestStart) {
            bestStart = lv.start[i];
            best = lv.row[i];
        }
    }
    return best;
}

}  // namespace stackline
