// bench_nsys_read EXPORT.sqlite --json TRACE.json [--runs N] [--strategies a,b,...]
// How fast the tables an importer needs come out of an Nsight Systems export, beside the JSON
// loader on the trace the export was written from. Each strategy runs in its own process (wall
// time and peak RSS of that process alone); strategies and the JSON load take turns, N rounds;
// the best and median run of each are printed, and the best run's per-table lines. Strategies:
//   json       loadTrace as the viewer loads (nanosecond columns); json-annotate without them
//   step       sqlite3_step over the columns, values not read (SQLite's floor)
//   scan       every needed column into flat vectors in rowid order, texts interned as they are
//              (every emit_nvtx name is distinct: it ends in its op id)
//   split      the same, NVTX names split into the plain name (interned), seq and op_id
//   split-sort split, then each table sorted by start in C++ unless it already is
//   ordered    split with ORDER BY start (SQLite sorts: nsys creates no index)
//   parallel   split-sort with the tables over two threads, one connection each
//   mmap       split-sort with PRAGMA mmap_size (SQLite reads pages through a mapping)
// A child prints "TABLE ROWS SECONDS" per table it read.
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "base/string_pool.h"
#include "bench_process.h"
#include "import/trace_formats.h"
#include "model/trace.h"

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

struct Query {
    const char* table;
    const char* columns;  // SELECT list
    int textColumn;       // a TEXT column interned into the pool, -1 for none
};
// What an importer reads: the columns the model needs, table by table.
const std::vector<Query> kQueries = {
    {"StringIds", "id, value", 1},
    {"CUPTI_ACTIVITY_KIND_KERNEL",
     "start, end, deviceId, contextId, streamId, correlationId, globalPid, demangledName, gridX, "
     "gridY, gridZ, blockX, blockY, blockZ, registersPerThread, staticSharedMemory, "
     "dynamicSharedMemory, graphNodeId",
     -1},
    {"CUPTI_ACTIVITY_KIND_RUNTIME",
     "start, end, eventClass, globalTid, correlationId, nameId, callchainId", -1},
    {"NVTX_EVENTS", "start, end, eventType, text, textId, globalTid, domainId", 3},
    {"CUPTI_ACTIVITY_KIND_MEMCPY",
     "start, end, deviceId, streamId, correlationId, globalPid, bytes, copyKind, srcKind, dstKind",
     -1},
    {"CUPTI_ACTIVITY_KIND_MEMSET",
     "start, end, deviceId, streamId, correlationId, globalPid, bytes, memKind", -1},
    {"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
     "start, end, deviceId, streamId, correlationId, globalPid, syncType", -1},
};

// "name, seq = N, op_id = M" -> name, N, M (-1 for a part that is absent).
std::string_view splitNvtxName(std::string_view s, int64_t& seq, int64_t& opId) {
    auto trailingNumber = [&s](std::string_view key, int64_t& out) {
        size_t i = s.size();
        while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9') --i;
        if (i == s.size() || i < key.size() || s.substr(i - key.size(), key.size()) != key) return;
        int64_t v = 0;
        for (size_t k = i; k < s.size(); ++k) v = v * 10 + (s[k] - '0');
        out = v;
        s = s.substr(0, i - key.size());
    };
    seq = opId = -1;
    trailingNumber(", op_id = ", opId);
    trailingNumber(", seq = ", seq);
    return s;
}

// One table's rows as flat columns (a NULL reads as INT64_MIN, a text as its pool id).
struct Columns {
    std::vector<std::vector<int64_t>> values;
    size_t rows = 0;
};

struct Reader {
    std::string path;
    std::string mode;
    stackline::StringPool pool;

    sqlite3* open() {
        sqlite3* db = nullptr;
        if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX,
                            nullptr) != SQLITE_OK)
            throw std::runtime_error(path + ": " + sqlite3_errmsg(db));
        if (mode == "mmap") sqlite3_exec(db, "PRAGMA mmap_size = 17179869184", 0, 0, 0);
        return db;
    }

    bool hasTable(sqlite3* db, const char* table) {
        sqlite3_stmt* s = nullptr;
        sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", -1,
                           &s, nullptr);
        sqlite3_bind_text(s, 1, table, -1, SQLITE_STATIC);
        const bool found = sqlite3_step(s) == SQLITE_ROW;
        sqlite3_finalize(s);
        return found;
    }

    // Reads one table; pool is only touched when it is this thread's.
    Columns read(sqlite3* db, const Query& q, stackline::StringPool& strings) {
        Columns c;
        if (!hasTable(db, q.table)) return c;
        sqlite3_stmt* s = nullptr;
        std::string sql = "SELECT max(rowid) FROM " + std::string(q.table);
        sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr);
        const int64_t expected = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
        sqlite3_finalize(s);
        sql = "SELECT " + std::string(q.columns) + " FROM " + q.table;
        if (mode == "ordered" && std::string(q.table) != "StringIds") sql += " ORDER BY start";
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) != SQLITE_OK)
            throw std::runtime_error(path + ": " + sqlite3_errmsg(db));
        const int n = sqlite3_column_count(s);
        const bool split = mode != "scan" && mode != "step" && q.textColumn >= 0 &&
                           std::string(q.table) == "NVTX_EVENTS";
        c.values.resize(size_t(n) + (split ? 2 : 0));
        if (mode != "step")
            for (auto& v : c.values) v.reserve(size_t(expected));
        int rc;
        while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
            ++c.rows;
            if (mode == "step") continue;
            for (int i = 0; i < n; ++i) {
                int64_t v;
                if (sqlite3_column_type(s, i) == SQLITE_NULL) {
                    v = INT64_MIN;
                } else if (i == q.textColumn) {
                    const char* t = reinterpret_cast<const char*>(sqlite3_column_text(s, i));
                    std::string_view text(t, size_t(sqlite3_column_bytes(s, i)));
                    if (split) {
                        int64_t seq, opId;
                        text = splitNvtxName(text, seq, opId);
                        c.values[size_t(n)].push_back(seq);
                        c.values[size_t(n) + 1].push_back(opId);
                    }
                    v = strings.intern(text);
                } else {
                    v = sqlite3_column_int64(s, i);
                }
                c.values[size_t(i)].push_back(v);
            }
        }
        if (rc != SQLITE_DONE) throw std::runtime_error(path + ": " + sqlite3_errmsg(db));
        sqlite3_finalize(s);
        return c;
    }

    // The rows' order by start, as the model's tracks need it.
    static std::vector<uint32_t> byStart(const Columns& c) {
        std::vector<uint32_t> order;
        if (c.values.empty() || c.values[0].empty()) return order;
        const std::vector<int64_t>& start = c.values[0];
        if (std::is_sorted(start.begin(), start.end())) return order;  // nsys wrote them sorted
        order.resize(c.rows);
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(),
                         [&](uint32_t a, uint32_t b) { return start[a] < start[b]; });
        return order;
    }
};

int child(const std::string& mode, const std::string& exportPath, const std::string& json) {
    const auto t0 = Clock::now();
    if (mode == "json" || mode == "json-annotate") {
        stackline::LoadOptions o;
        o.nanoseconds = mode == "json";
        const stackline::Trace t = stackline::loadTrace(json, o);
        std::printf("traceEvents %u %.3f\n", t.events.size(), since(t0));
        return 0;
    }
    Reader r{exportPath, mode, {}};
    const bool sort = mode == "split-sort" || mode == "parallel" || mode == "mmap";
    auto one = [&](sqlite3* db, const Query& q, stackline::StringPool& strings,
                   std::vector<std::string>& lines) {
        const auto t = Clock::now();
        Columns c = r.read(db, q, strings);
        const std::vector<uint32_t> order = sort && std::string(q.table) != "StringIds"
                                                ? Reader::byStart(c)
                                                : std::vector<uint32_t>();
        if (!order.empty()) {
            for (auto& col : c.values) {
                std::vector<int64_t> sorted(col.size());
                for (size_t i = 0; i < col.size(); ++i) sorted[i] = col[order[i]];
                col.swap(sorted);
            }
        }
        char line[160];
        std::snprintf(line, sizeof line, "%s %zu %.3f", q.table, c.rows, since(t));
        lines.push_back(line);
        return c;
    };
    std::vector<std::string> lines;
    std::vector<Columns> kept;
    if (mode == "parallel") {
        // NVTX (texts to intern) on one thread, every other table on the other.
        std::vector<std::string> other;
        stackline::StringPool nvtxStrings;
        std::vector<Columns> otherKept;
        std::thread nvtx([&] {
            sqlite3* db = r.open();
            for (const Query& q : kQueries)
                if (std::string(q.table) == "NVTX_EVENTS")
                    otherKept.push_back(one(db, q, nvtxStrings, other));
            sqlite3_close(db);
        });
        sqlite3* db = r.open();
        for (const Query& q : kQueries)
            if (std::string(q.table) != "NVTX_EVENTS") kept.push_back(one(db, q, r.pool, lines));
        sqlite3_close(db);
        nvtx.join();
        r.pool.merge(nvtxStrings);  // one pool in the end, as the model has
        lines.insert(lines.end(), other.begin(), other.end());
    } else {
        sqlite3* db = r.open();
        for (const Query& q : kQueries) kept.push_back(one(db, q, r.pool, lines));
        sqlite3_close(db);
    }
    for (const std::string& l : lines) std::printf("%s\n", l.c_str());
    std::printf("total %zu %.3f\n", size_t(0), since(t0));
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::string exportPath, json, one,
        strategies =
            "json,json-annotate,step,scan,split,"
            "split-sort,ordered,parallel,mmap";
    int runs = 3;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--json" && i + 1 < argc)
            json = argv[++i];
        else if (a == "--runs" && i + 1 < argc)
            runs = std::atoi(argv[++i]);
        else if (a == "--strategies" && i + 1 < argc)
            strategies = argv[++i];
        else if (a == "--one" && i + 1 < argc)
            one = argv[++i];
        else if (exportPath.empty())
            exportPath = a;
        else {
            std::fprintf(stderr,
                         "usage: bench_nsys_read EXPORT.sqlite --json TRACE.json "
                         "[--runs N] [--strategies a,b]\n");
            return 2;
        }
    }
    try {
        if (!one.empty()) return child(one, exportPath, json);
        std::vector<std::string> names;
        std::stringstream list(strategies);
        for (std::string s; std::getline(list, s, ',');) names.push_back(s);
        std::map<std::string, stackline::bench::Proc> best;
        std::map<std::string, std::vector<double>> times;
        std::map<std::string, std::string> output;
        for (int round = 0; round < runs; ++round)
            for (const std::string& name : names) {
                const std::string out = "/tmp/bench_nsys_read." + name + ".out";
                const auto p = stackline::bench::runChecked(
                    {argv[0], exportPath, "--json", json, "--one", name}, out, out + ".err");
                times[name].push_back(p.seconds);
                if (!best.count(name) || p.seconds < best[name].seconds) {
                    best[name] = p;
                    output[name] = stackline::bench::readFile(out);
                }
            }
        const double jsonBest = best.count("json") ? best["json"].seconds : 0;
        const double jsonMedian = times.count("json") ? stackline::bench::median(times["json"]) : 0;
        std::printf("%-12s %8s %8s %8s %8s %8s\n", "strategy", "best s", "median s", "peak MB",
                    "x json", "(median)");
        for (const std::string& name : names) {
            const double m = stackline::bench::median(times[name]);
            std::printf("%-12s %8.3f %8.3f %8.0f %8.2f %8.2f\n", name.c_str(), best[name].seconds,
                        m, best[name].peakRssMb, jsonBest ? best[name].seconds / jsonBest : 0,
                        jsonMedian ? m / jsonMedian : 0);
        }
        for (const std::string& name : names)
            std::printf("\n[%s]\n%s", name.c_str(), output[name].c_str());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_nsys_read: %s\n", e.what());
        return 1;
    }
    return 0;
}
