// Writes an SQLite file shaped as an Nsight Systems export (nsys_schema.h): the tables created
// lazily as nsys does (a table exists once it has a row, the ENUM_* tables always), strings
// interned into StringIds, no index beyond the primary keys (nsys creates none). The file is
// written under a temporary name and renamed by finish(). Errors throw std::runtime_error with
// SQLite's message and the file's name.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "nsys_schema.h"

namespace stackline::nsys {

// One bound value: NULL, an integer, a real or a text.
struct Value {
    enum Kind : uint8_t { Null, Int, Real, Text } kind = Null;
    int64_t i = 0;
    double d = 0;
    std::string_view s;
    Value() = default;
    Value(std::nullopt_t) {}
    Value(int v) : kind(Int), i(v) {}
    Value(int64_t v) : kind(Int), i(v) {}
    Value(uint32_t v) : kind(Int), i(v) {}
    Value(double v) : kind(Real), d(v) {}
    Value(std::optional<int64_t> v) : kind(v ? Int : Null), i(v.value_or(0)) {}
    Value(std::string_view v) : kind(Text), s(v) {}
    Value(const char* v) : kind(Text), s(v) {}
};

class ExportWriter {
public:
    struct Options {
        SchemaVersion version = SchemaVersion::v3_7_2;
        std::set<std::string> omitTables;  // never created, as if nsys had no such data
    };

    // A prepared INSERT of the named columns into one table; the table's other NOT NULL columns
    // get 0, as nsys writes its defaults. A row of an omitted table is dropped.
    class Insert {
    public:
        void row(std::initializer_list<Value> values);
        uint64_t rows() const { return rows_; }

    private:
        friend class ExportWriter;
        ExportWriter* writer_ = nullptr;
        std::string table_;
        size_t values_ = 0;
        std::string sql_;
        sqlite3_stmt* stmt_ = nullptr;
        uint64_t rows_ = 0;
    };

    ExportWriter(std::string path, Options options);
    ~ExportWriter();
    ExportWriter(const ExportWriter&) = delete;
    ExportWriter& operator=(const ExportWriter&) = delete;

    // The StringIds id of s, interned on first use.
    int64_t stringId(std::string_view s);
    uint64_t stringCount() const { return stringOrder_.size(); }
    // The insert of these columns into table (one statement per table and column list).
    Insert& insert(std::string_view table, const std::vector<std::string>& columns);
    bool omitted(std::string_view table) const;
    // Writes StringIds and the enum tables, commits and renames the file into place.
    void finish();

    const std::string& path() const { return path_; }

private:
    void exec(const std::string& sql);
    void ensureTable(std::string_view table);
    [[noreturn]] void fail(const std::string& what) const;

    std::string path_, tmpPath_;
    Options options_;
    std::vector<Table> tables_;
    sqlite3* db_ = nullptr;
    std::set<std::string, std::less<>> created_;
    std::map<std::string, std::unique_ptr<Insert>, std::less<>> inserts_;
    std::unordered_map<std::string, int64_t> strings_;
    std::vector<const std::string*> stringOrder_;
    bool finished_ = false;
};

// Damages a written export the way broken copies are: "header" overwrites the file header (not a
// database), "page" overwrites the second half's pages (malformed), "truncate" cuts the file in
// half.
void corruptExport(const std::string& path, const std::string& how);

}  // namespace stackline::nsys
