#include "import/nsight/nsight_loader.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <deque>
#include <future>
#include <thread>
#include <unordered_map>

#include "import/nsight/backward_pairs.h"
#include "import/nsight/nsight_args_reader.h"
#include "import/nsight/nsight_id_maps.h"
#include "import/nsight/nsight_names.h"
#include "import/nsight/python_backtraces.h"
#include "import/nsight/sqlite_db.h"

namespace stackline::nsight {

namespace {

constexpr std::string_view kSqliteMagic{"SQLite format 3\0", 16};
constexpr const char* kKernelTable = "CUPTI_ACTIVITY_KIND_KERNEL";
constexpr const char* kMemcpyTable = "CUPTI_ACTIVITY_KIND_MEMCPY";
constexpr const char* kMemsetTable = "CUPTI_ACTIVITY_KIND_MEMSET";
constexpr const char* kRuntimeTable = "CUPTI_ACTIVITY_KIND_RUNTIME";
constexpr const char* kSyncTable = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
constexpr const char* kNvtxTable = "NVTX_EVENTS";
// ENUM_NSYS_EVENT_TYPE: NVTX push/pop and start/end ranges; ENUM_NSYS_EVENT_CLASS: the driver.
constexpr int kNvtxPushPopRange = 59, kNvtxStartEndRange = 60;
constexpr int kEventClassCudaDriver = 1;

// The ranges PyTorch opens with user-scope record_function, which Kineto files as user
// annotations, not ops: Inductor's "## Call CompiledFxGraph ... ##", the profiler's
// "ProfilerStep#N", the optimizer's "Optimizer.step#AdamW.step" and "Optimizer.zero_grad#...".
// NVTX keeps no scope, so other user record_function ranges stay cpu_op.
bool isUserAnnotation(std::string_view name) {
    for (std::string_view prefix :
         {"## ", "ProfilerStep#", "Optimizer.step#", "Optimizer.zero_grad#"})
        if (name.starts_with(prefix)) return true;
    return false;
}

class Reader {
public:
    Reader(const Database& db, Trace& trace, const LoadOptions& options)
        : db_(db),
          t_(trace.events),
          meta_(trace.metadata),
          stacks_(trace.launchStacks),
          options_(options),
          // Each row of an export takes more than 8 bytes of its file: a bound on what a
          // table's largest rowid may claim.
          maxRows_(trace.bytes.size() / 8 + 1),
          flows_(4 * (rows(kKernelTable) + rows(kMemcpyTable) + rows(kMemsetTable) +
                      rows(kRuntimeTable)) +
                 65536) {
        catKernel_ = t_.strings.intern("kernel");
        catMemcpy_ = t_.strings.intern("gpu_memcpy");
        catMemset_ = t_.strings.intern("gpu_memset");
        catSync_ = t_.strings.intern("cuda_sync");
        catRuntime_ = t_.strings.intern("cuda_runtime");
        catDriver_ = t_.strings.intern("cuda_driver");
        catOp_ = t_.strings.intern("cpu_op");
        catAnnotation_ = t_.strings.intern("user_annotation");
        catFlow_ = t_.strings.intern("ac2g");
        catFwdBwd_ = t_.strings.intern("fwdbwd");
    }

    void run() {
        // At most: each GPU activity and its launch with a flow row, each range with one.
        const uint64_t gpu = rows(kKernelTable) + rows(kMemcpyTable) + rows(kMemsetTable);
        const uint64_t estimate =
            std::min<uint64_t>(3 * gpu + rows(kRuntimeTable) + 2 * rows(kNvtxTable), UINT32_MAX);
        // Reserved pages never written cost nothing (an export's rows have no byte spans).
        t_.reserve(estimate);
        t_.flowIds.reserve(std::min<uint64_t>(2 * gpu, estimate));
        args_.reserve(estimate);
        gpuFlows_.reserve(gpu);
        readStrings();
        readSessionStart();
        readProcesses();
        // The NVTX table is scanned on a connection of its own meanwhile where there are two
        // cores (a third of the reading, in parallel as the JSON loader's is).
        const bool nvtx = db_.hasTable(kNvtxTable);
        std::vector<std::string_view> texts(t_.strings.size());
        for (uint32_t i = 0; i < texts.size(); ++i) texts[i] = t_.strings.at(i);
        std::atomic<bool> stop{false};
        auto scan = [&, nvtxRows = rows(kNvtxTable)](const Database& db) {
            return scanNvtx(db, texts, nvtxRows, stop);
        };
        const unsigned threads =
            options_.threads ? options_.threads : std::thread::hardware_concurrency();
        std::future<NvtxScan> scanned;
        if (nvtx && threads > 1)
            scanned = std::async(std::launch::async, [&] { return scan(Database(db_.path())); });
        // Set on leaving, before scanned's destructor waits: a scan left behind stops early.
        struct StopOnExit {
            std::atomic<bool>& stop;
            ~StopOnExit() { stop = true; }
        } stopOnExit{stop};
        // GPU activity first, so that an API call knows whether its correlation has any and a
        // flow starts only where one finishes.
        readKernels();
        readMemory(kMemcpyTable, catMemcpy_);
        readMemory(kMemsetTable, catMemset_);
        readSyncs();
        readRuntime();
        NvtxScan ranges;
        if (nvtx) {
            ranges = scanned.valid() ? scanned.get() : scan(db_);
            // A scan stopped by a cancel is not all of the table.
            if (options_.progress) options_.progress->throwIfCancelled();
            addNvtx(ranges);
        }
        linkExternalIds(ranges);
        readPythonBacktraces(
            db_, callchains_, [this](int64_t id) { return stringOf(id); }, t_.strings, stacks_);
    }

    ArgsStore takeArgs() { return std::move(args_); }

private:
    void tick() {
        if (Progress* p = options_.progress; p && (t_.size() & 0xFFFF) == 0) p->throwIfCancelled();
    }

    // The table's row count as its largest rowid says, 0 when it is absent.
    uint64_t rows(const char* table) const {
        return db_.hasTable(table) ? std::min(db_.rowCountHint(table), maxRows_) : 0;
    }

    uint32_t stringOf(int64_t id) const { return strings_[id]; }

    void readStrings() {
        Statement s(db_, "SELECT id, value FROM StringIds");
        std::vector<std::pair<int64_t, uint32_t>> ids;
        while (s.step()) ids.emplace_back(s.integer(0), t_.strings.intern(s.text(1)));
        strings_.assign(std::move(ids));
    }

    void readSessionStart() {
        if (!db_.hasTable("TARGET_INFO_SESSION_START_TIME")) return;
        Statement s(db_, "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME LIMIT 1");
        if (s.step()) meta_.baseTimeNs = s.optionalInteger(0);
    }

    // Named as Kineto names them: "CPU" processes and "thread TID (NAME)" threads sorted by id,
    // "GPU N" devices after them with "stream N" threads.
    void readProcesses() {
        auto key = [](int64_t v) { return DisplayKey{true, v, {}}; };
        if (db_.hasTable("PROCESSES")) {
            Statement s(db_, "SELECT globalPid, name FROM PROCESSES");
            while (s.step()) {
                const int64_t pid = pidOfGlobalId(s.integer(0));
                ProcessNaming& p = meta_.processes[key(pid)];
                if (!s.text(1).empty()) p.name = std::string(s.text(1));
                p.labels = "CPU";
                p.sortIndex = pid;
            }
        }
        if (db_.hasTable("ThreadNames")) {
            Statement s(db_, "SELECT nameId, globalTid FROM ThreadNames");
            while (s.step()) {
                const int64_t g = s.integer(1), tid = tidOfGlobalId(g);
                ThreadNaming& t = meta_.threads[{key(pidOfGlobalId(g)), key(tid)}];
                t.name = "thread " + std::to_string(tid) + " (" +
                         std::string(t_.strings.at(stringOf(s.integer(0)))) + ")";
                t.sortIndex = tid;
            }
        }
    }

    void nameStream(int64_t device, int64_t stream) {
        if (device == lastStream_.first && stream == lastStream_.second) return;
        lastStream_ = {device, stream};
        const DisplayKey d{true, device, {}}, s{true, stream, {}};
        ThreadNaming& t = meta_.threads[{d, s}];
        if (t.name) return;
        t.name = "stream " + std::to_string(stream);
        t.sortIndex = stream;
        ProcessNaming& p = meta_.processes[d];
        p.labels = "GPU " + std::to_string(device);
        p.sortIndex = 5000000 + device;
    }

    // Appends a row; args: its args, or none.
    uint32_t addRow(uint32_t name, uint32_t cat, char phase, int64_t pid, int64_t tid,
                    int64_t startNs, int64_t durNs, const ArgsRecord* args, int64_t externalId) {
        tick();
        const uint32_t row = t_.size();
        t_.name.push_back(name);
        t_.cat.push_back(cat);
        t_.phase.push_back(phase);
        t_.pid.push_back(t_.keys.intKey(pid));
        t_.tid.push_back(t_.keys.intKey(tid));
        t_.externalId.push_back(externalId == kNoValue ? kNoKey : t_.keys.intKey(externalId));
        // As Kineto writes them: microseconds with a fraction.
        auto bits = [](int64_t ns) {
            const double us = double(ns) / 1000.0;
            uint64_t b;
            std::memcpy(&b, &us, sizeof b);
            return b;
        };
        t_.tsBits.push_back(bits(startNs));
        EventTable::Kinds k{};
        k.event = ValueKind::Object;
        k.name = ValueKind::String;
        k.cat = ValueKind::String;
        k.args = args ? ValueKind::Object : ValueKind::Absent;
        k.callFrom = CallFrom::No;
        k.ts = PyNum::Kind::Float;
        k.dur = phase == 'X' ? PyNum::Kind::Float : PyNum::Kind::Missing;
        t_.pushDur(k.dur, phase == 'X' ? bits(durNs) : 0);
        k.flowId = FlowIdStatus::Missing;
        t_.kinds.push_back(k);
        if (options_.nanoseconds) t_.setNanos(row, k.ts, startNs, k.dur, phase == 'X' ? durNs : 0);
        args_.push(args);
        return row;
    }

    void addFlow(char phase, uint32_t cat, int64_t id, int64_t pid, int64_t tid, int64_t ts) {
        const uint32_t row = addRow(cat, cat, phase, pid, tid, ts, 0, nullptr, kNoValue);
        t_.kinds[row].flowId = FlowIdStatus::Ok;
        t_.flowIds.push(row, id);
    }

    void readGpuRow(const Statement& s, uint32_t name, uint32_t cat, ArgsRecord r) {
        const int64_t start = s.integer(0), end = s.integer(1);
        r.device = int32_t(s.integer(2));
        r.context = int32_t(s.integer(3));
        r.stream = int32_t(s.integer(4));
        const auto correlation = s.optionalInteger(5);
        const auto globalPid = s.optionalInteger(6);
        if (correlation) r.correlation = *correlation;
        nameStream(r.device, r.stream);
        const uint32_t row =
            addRow(name, cat, 'X', r.device, r.stream, start, end - start, &r, kNoValue);
        if (correlation && globalPid) {
            const uint32_t id = flows_.add(*globalPid, *correlation);
            gpuFlows_.push_back({row, id});
            addFlow('f', catFlow_, id, r.device, r.stream, start);
        }
    }

    void readKernels() {
        if (!db_.hasTable(kKernelTable)) return;
        Statement s(db_, std::string("SELECT start, end, deviceId, contextId, streamId, "
                                     "correlationId, globalPid, demangledName, gridX, gridY, "
                                     "gridZ, blockX, blockY, blockZ, registersPerThread, "
                                     "staticSharedMemory + dynamicSharedMemory FROM ") +
                             kKernelTable);
        while (s.step()) {
            ArgsRecord r;
            r.kind = ArgsRecord::Kind::Kernel;
            for (int i = 0; i < 3; ++i) {
                r.grid[i] = int32_t(s.integer(8 + i));
                r.block[i] = int32_t(s.integer(11 + i));
            }
            r.registers = int32_t(s.integer(14));
            r.sharedMemory = int32_t(s.integer(15));
            readGpuRow(s, stringOf(s.integer(7)), catKernel_, r);
        }
    }

    void readMemory(const char* table, uint32_t cat) {
        if (!db_.hasTable(table)) return;
        const bool copy = cat == catMemcpy_;
        Statement s(db_, std::string("SELECT start, end, deviceId, contextId, streamId, "
                                     "correlationId, globalPid, bytes, ") +
                             (copy ? "copyKind, srcKind, dstKind" : "memKind, 0, 0") + " FROM " +
                             table);
        std::unordered_map<int64_t, uint32_t> names;  // by the kinds, packed
        while (s.step()) {
            ArgsRecord r;
            r.kind = copy ? ArgsRecord::Kind::Memcpy : ArgsRecord::Kind::Memset;
            r.bytes = s.integer(7);
            const int64_t a = s.integer(8), b = s.integer(9), c = s.integer(10);
            const int64_t packed = (a << 32) | (b << 16) | c;
            auto it = names.find(packed);
            if (it == names.end())
                it = names
                         .emplace(packed,
                                  t_.strings.intern(copy ? memcpyName(a, b, c) : memsetName(a)))
                         .first;
            readGpuRow(s, it->second, cat, r);
        }
    }

    // Synchronizations on their stream's track (-1: an event or context sync), linked to their
    // call as Kineto links them.
    void readSyncs() {
        if (!db_.hasTable(kSyncTable)) return;
        // CUPTI's invalid stream (0xFFFFFFFF) reads as -1, as Kineto writes it; so does none.
        Statement s(db_, std::string("SELECT start, end, deviceId, contextId, "
                                     "coalesce(streamId, -1), correlationId, globalPid, "
                                     "syncType FROM ") +
                             kSyncTable);
        std::unordered_map<int64_t, uint32_t> names;  // by syncType
        while (s.step()) {
            ArgsRecord r;
            r.kind = ArgsRecord::Kind::Sync;
            const int64_t type = s.integer(7);
            auto it = names.find(type);
            if (it == names.end())
                it = names.emplace(type, t_.strings.intern(syncName(type))).first;
            readGpuRow(s, it->second, catSync_, r);
        }
    }

    // The calls and ranges of a thread, for linkExternalIds, each as read (deques: they grow
    // without copying): the calls' extents and rows, the ranges' indexes in their NvtxScan.
    struct CpuRow {
        int64_t start, end;
        uint32_t row;
    };
    struct ThreadRows {
        std::deque<CpuRow> calls;
        std::deque<uint32_t> ranges;
    };
    // The rows of globalTid's (pid, tid), the thread its rows are on.
    ThreadRows& threadRows(int64_t globalTid) {
        const int64_t thread = globalTid & 0xFFFFFFFFFFFF;
        if (thread != lastThread_.first || !lastThread_.second)
            lastThread_ = {thread, &threads_[thread]};
        return *lastThread_.second;
    }

    void readRuntime() {
        if (!db_.hasTable(kRuntimeTable)) return;
        // The Python backtrace of a call, where the export has them (python_backtraces.h).
        const bool chains =
            db_.hasColumn(kRuntimeTable, "callchainId") && db_.hasTable("CUDA_CALLCHAINS");
        Statement s(db_, std::string("SELECT start, end, eventClass, globalTid, correlationId, "
                                     "nameId, ") +
                             (chains ? "callchainId" : "NULL") + " FROM " + kRuntimeTable);
        std::unordered_map<uint32_t, uint32_t> plain;  // versioned name -> name, pool ids
        while (s.step()) {
            const int64_t start = s.integer(0), end = s.integer(1), g = s.integer(3);
            const auto correlation = s.optionalInteger(4);
            const uint32_t versioned = stringOf(s.integer(5));
            auto it = plain.find(versioned);
            if (it == plain.end())
                it = plain
                         .emplace(versioned,
                                  t_.strings.intern(withoutVersionSuffix(t_.strings.at(versioned))))
                         .first;
            ArgsRecord r;
            r.kind = ArgsRecord::Kind::Api;
            if (correlation) r.correlation = *correlation;
            const int64_t pid = pidOfGlobalId(g), tid = tidOfGlobalId(g);
            const uint32_t cat = s.integer(2) == kEventClassCudaDriver ? catDriver_ : catRuntime_;
            const uint32_t row =
                addRow(it->second, cat, 'X', pid, tid, start, end - start, &r, kNoValue);
            threadRows(g).calls.push_back({start, end, row});
            if (!s.isNull(6)) callchains_.push_back({row, s.integer(6)});
            // globalPid is globalTid without its thread bits.
            const uint32_t flow =
                correlation ? flows_.find(g & ~int64_t(0xFFFFFF), *correlation) : 0;
            if (flow) {
                if (apiOfFlow_.size() <= flow) apiOfFlow_.resize(flows_.size() + 1, kNoRow);
                apiOfFlow_[flow] = row;
                addFlow('s', catFlow_, flow, pid, tid, start);
            }
        }
    }

    // An NVTX table's ranges as read, names interned into their own pool (the scan may run on
    // another thread while this one fills the table).
    struct NvtxScan {
        std::vector<SequencedRange> ranges;  // name: an id of `names`
        struct Rest {
            int64_t end, globalTid, opId;
        };
        std::vector<Rest> rest;
        StringPool names;
        std::vector<uint32_t> rows;  // each range's row, once added
    };

    // Scans the ranges of db's NVTX table; texts is the pool's strings by id, as readStrings
    // left them. Stops (returning what it has) when `stop` is set or the load is cancelled.
    NvtxScan scanNvtx(const Database& db, const std::vector<std::string_view>& texts,
                      uint64_t rowsHint, const std::atomic<bool>& stop) const {
        Statement s(db, std::string("SELECT start, end, globalTid, text, textId FROM ") +
                            kNvtxTable + " WHERE eventType IN (" +
                            std::to_string(kNvtxPushPopRange) + ", " +
                            std::to_string(kNvtxStartEndRange) + ") AND end IS NOT NULL");
        NvtxScan scan;
        scan.ranges.reserve(rowsHint);
        scan.rest.reserve(rowsHint);
        while (s.step()) {
            if ((scan.ranges.size() & 0xFFFF) == 0 &&
                (stop || (options_.progress && options_.progress->cancelled())))
                break;
            const int64_t g = s.integer(2);
            const std::string_view text = s.isNull(3) ? texts[stringOf(s.integer(4))] : s.text(3);
            const NvtxName n = parseNvtxName(text);
            scan.ranges.push_back({s.integer(0), int32_t(pidOfGlobalId(g)),
                                   scan.names.intern(n.plain), n.sequence.value_or(-1)});
            scan.rest.push_back({s.integer(1), g, n.opId.value_or(kNoValue)});
        }
        return scan;
    }

    // The ranges are read first, so that the forward and backward ends of each fwdbwd link are
    // known when their rows are written: each flow row follows its range's, as in Kineto.
    void addNvtx(NvtxScan& scan) {
        std::vector<SequencedRange>& ranges = scan.ranges;
        const std::vector<uint32_t> names = t_.strings.merge(scan.names);
        for (SequencedRange& r : ranges) r.name = names[r.name];
        const std::vector<int64_t> links =
            pairForwardBackward(ranges, t_.strings, int64_t(flows_.size()) + 1);
        scan.rows.reserve(ranges.size());
        for (uint32_t i = 0; i < ranges.size(); ++i) {
            const SequencedRange& n = ranges[i];
            const NvtxScan::Rest& x = scan.rest[i];
            ArgsRecord r;
            r.kind = ArgsRecord::Kind::Range;
            if (n.sequence >= 0) r.sequence = n.sequence;
            const bool annotation = isUserAnnotation(t_.strings.at(n.name));
            const int64_t pid = pidOfGlobalId(x.globalTid), tid = tidOfGlobalId(x.globalTid);
            const uint32_t row = addRow(n.name, annotation ? catAnnotation_ : catOp_, 'X', pid, tid,
                                        n.start, x.end - n.start, &r, x.opId);
            scan.rows.push_back(row);
            threadRows(x.globalTid).ranges.push_back(i);
            if (links[i])
                addFlow(links[i] > 0 ? 's' : 'f', catFwdBwd_, std::abs(links[i]), pid, tid,
                        n.start);
        }
    }

    // Kineto's "External id" of an API call is the op innermost around it on its thread (the
    // RecordFunction active at the launch), and its GPU activity's is the launch's: one sweep per
    // thread over its ranges and calls by start, longer first (a range before a call of the same
    // extent, which it encloses), then through the flows. nsys writes each table in start order,
    // so the sweep only merges the two.
    void linkExternalIds(const NvtxScan& scan) {
        auto before = [](const CpuRow& a, const CpuRow& b) {
            if (a.start != b.start) return a.start < b.start;
            if (a.end != b.end) return a.end > b.end;
            return a.row < b.row;
        };
        auto range = [&](uint32_t i) {
            return CpuRow{scan.ranges[i].start, scan.rest[i].end, scan.rows[i]};
        };
        auto rangeBefore = [&](uint32_t a, uint32_t b) { return before(range(a), range(b)); };
        // A range before a call of the same extent.
        auto callFirst = [](const CpuRow& call, const CpuRow& range) {
            return call.start != range.start ? call.start < range.start : call.end > range.end;
        };
        std::vector<CpuRow> open;  // ranges around the current row, outermost first
        auto closeBefore = [&](int64_t start) {
            while (!open.empty() && open.back().end <= start) open.pop_back();
        };
        for (auto& [thread, rows] : threads_) {
            if (!std::is_sorted(rows.calls.begin(), rows.calls.end(), before))
                std::sort(rows.calls.begin(), rows.calls.end(), before);
            if (!std::is_sorted(rows.ranges.begin(), rows.ranges.end(), rangeBefore))
                std::sort(rows.ranges.begin(), rows.ranges.end(), rangeBefore);
            open.clear();
            auto next = rows.ranges.begin();
            for (const CpuRow& call : rows.calls) {
                for (; next != rows.ranges.end() && !callFirst(call, range(*next)); ++next) {
                    closeBefore(range(*next).start);
                    open.push_back(range(*next));
                }
                closeBefore(call.start);
                for (size_t k = open.size(); k-- > 0;)
                    if (t_.externalId[open[k].row] != kNoKey) {
                        t_.externalId[call.row] = t_.externalId[open[k].row];
                        break;
                    }
            }
            rows = ThreadRows();
        }
        for (auto [row, id] : gpuFlows_) {
            const uint32_t api = id < apiOfFlow_.size() ? apiOfFlow_[id] : kNoRow;
            if (api != kNoRow) t_.externalId[row] = t_.externalId[api];
        }
    }

    const Database& db_;
    EventTable& t_;
    TraceMetadata& meta_;
    LaunchStacks& stacks_;
    const LoadOptions& options_;
    uint64_t maxRows_;
    ArgsStore args_;
    StringIdMap strings_;
    FlowIds flows_;
    // For linkExternalIds: each thread's calls and ranges (by pid and tid; the last one asked); GPU
    // rows with their flow id; the API call of each flow id.
    std::unordered_map<int64_t, ThreadRows> threads_;
    std::pair<int64_t, ThreadRows*> lastThread_{0, nullptr};
    std::vector<std::pair<uint32_t, uint32_t>> gpuFlows_;
    std::vector<uint32_t> apiOfFlow_;
    std::vector<CallchainOfCall> callchains_;         // calls with a callchainId, rows ascending
    std::pair<int64_t, int64_t> lastStream_{-1, -1};  // (device, stream) last named
    uint32_t catKernel_, catMemcpy_, catMemset_, catSync_, catRuntime_, catDriver_, catOp_,
        catAnnotation_, catFlow_, catFwdBwd_;
};

// Refuses a database that is not an Nsight export, naming what it lacks.
void requireNsightTables(const Database& db) {
    // The first read of the schema is where SQLite finds a file that is not a database.
    if (!db.hasTable("StringIds"))
        throw InputError(db.path() +
                         ": an SQLite database but not an Nsight Systems export: it has no "
                         "StringIds table");
    for (const char* t : {kKernelTable, kRuntimeTable, kNvtxTable})
        if (db.hasTable(t)) return;
    throw InputError(db.path() +
                     ": an SQLite database but not an Nsight Systems export: it has none of the "
                     "tables CUPTI_ACTIVITY_KIND_KERNEL, CUPTI_ACTIVITY_KIND_RUNTIME, NVTX_EVENTS");
}

}  // namespace

bool looksLikeSqlite(std::string_view head) {
    return head.substr(0, kSqliteMagic.size()) == kSqliteMagic;
}

Trace readNsightSqlite(TraceBytes bytes, const std::string& name, const LoadOptions& options) {
    if (!bytes.stamp() || bytes.wasCompressed())
        throw InputError(name +
                         ": an Nsight Systems export is read from its own file, uncompressed");
    Trace trace;
    trace.path = name;
    trace.bytes = std::move(bytes);
    const Database db(name);
    requireNsightTables(db);
    Reader reader(db, trace, options);
    reader.run();
    trace.argsReader = nsightArgsReader(reader.takeArgs());
    return trace;
}

}  // namespace stackline::nsight
