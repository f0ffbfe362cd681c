// A read-only SQLite database and its prepared statements, as the Nsight reader uses them: the file
// is opened immutable (no journal, -wal or -shm is read or made, no lock taken), so reading an
// export never changes it or anything beside it. A connection is used by one thread at a time (it
// takes no lock of its own). Errors are InputErrors naming the file and carrying SQLite's message.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace stackline::nsight {

class Database {
public:
    explicit Database(const std::string& path);
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;
    ~Database();

    const std::string& path() const { return path_; }
    sqlite3* handle() const { return db_; }
    bool hasTable(std::string_view name) const;
    bool hasColumn(std::string_view table, std::string_view column) const;
    // About how many rows the table has, for reserving: its largest rowid (found without a
    // scan; exact where rows were only ever appended, as an export's are). 0 when it has none.
    uint64_t rowCountHint(std::string_view table) const;
    // Throws InputError "<path>: <what>: <SQLite's message>".
    [[noreturn]] void fail(std::string_view what) const;

private:
    std::string path_;
    sqlite3* db_ = nullptr;
};

class Statement {
public:
    Statement(const Database& db, const std::string& sql);
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    ~Statement();

    // The next row; false at the end. Throws InputError on a read error (a corrupt page).
    bool step();
    bool isNull(int column) const;
    int64_t integer(int column) const;
    std::optional<int64_t> optionalInteger(int column) const;
    std::string_view text(int column) const;  // valid until the next step

private:
    const Database& db_;
    sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace stackline::nsight
