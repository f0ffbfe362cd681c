#include "import/nsight/sqlite_db.h"

#include <sqlite3.h>

#include <algorithm>

#include "base/errors.h"

namespace stackline::nsight {

namespace {

// A file: URI for path, with the characters URIs reserve escaped.
std::string immutableUri(const std::string& path) {
    std::string uri = "file:";
    for (unsigned char c : path) {
        if (c == '%' || c == '?' || c == '#' || c < 0x20) {
            static const char* hex = "0123456789ABCDEF";
            uri += '%';
            uri += hex[c >> 4];
            uri += hex[c & 15];
        } else {
            uri += char(c);
        }
    }
    return uri + "?immutable=1";
}

}  // namespace

Database::Database(const std::string& path) : path_(path) {
    const int rc =
        sqlite3_open_v2(immutableUri(path).c_str(), &db_,
                        SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        const std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        sqlite3_close(db_);
        db_ = nullptr;
        throw InputError(path + ": cannot open the SQLite database: " + message);
    }
}

Database::~Database() {
    sqlite3_close(db_);
}

void Database::fail(std::string_view what) const {
    throw InputError(path_ + ": " + std::string(what) + ": " + sqlite3_errmsg(db_));
}

bool Database::hasTable(std::string_view name) const {
    Statement s(*this, "SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = '" +
                           std::string(name) + "'");
    return s.step();
}

bool Database::hasColumn(std::string_view table, std::string_view column) const {
    Statement s(*this, "SELECT 1 FROM pragma_table_info('" + std::string(table) +
                           "') WHERE name = '" + std::string(column) + "'");
    return s.step();
}

uint64_t Database::rowCountHint(std::string_view table) const {
    // A table without rowid cannot be asked; it gets no hint.
    const std::string sql = "SELECT max(rowid) FROM " + std::string(table);
    sqlite3_stmt* stmt = nullptr;
    uint64_t rows = 0;
    if (sqlite3_prepare_v2(db_, sql.c_str(), int(sql.size()), &stmt, nullptr) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW)
        rows = uint64_t(std::max<sqlite3_int64>(0, sqlite3_column_int64(stmt, 0)));
    sqlite3_finalize(stmt);
    return rows;
}

Statement::Statement(const Database& db, const std::string& sql) : db_(db) {
    if (sqlite3_prepare_v2(db.handle(), sql.c_str(), int(sql.size()), &stmt_, nullptr) != SQLITE_OK)
        db.fail("cannot read the export");
}

Statement::~Statement() {
    sqlite3_finalize(stmt_);
}

bool Statement::step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    db_.fail("cannot read the export");
}

bool Statement::isNull(int column) const {
    return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

int64_t Statement::integer(int column) const {
    return sqlite3_column_int64(stmt_, column);
}

std::optional<int64_t> Statement::optionalInteger(int column) const {
    if (isNull(column)) return std::nullopt;
    return integer(column);
}

std::string_view Statement::text(int column) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
    return p ? std::string_view(p, size_t(sqlite3_column_bytes(stmt_, column)))
             : std::string_view();
}

}  // namespace stackline::nsight
