#include "nsys_export_writer.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace stackline::nsys {

ExportWriter::ExportWriter(std::string path, Options options)
    : path_(std::move(path)),
      tmpPath_(path_ + ".tmp"),
      options_(std::move(options)),
      tables_(tables(options_.version)) {
    std::filesystem::remove(tmpPath_);
    if (sqlite3_open_v2(tmpPath_.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                        nullptr) != SQLITE_OK)
        fail("cannot create");
    // Written once, start to end: no journal, no syncs until the final close.
    exec("PRAGMA journal_mode = OFF");
    exec("PRAGMA synchronous = OFF");
    exec("BEGIN");
    stringId("[Unknown]");  // id 0, as in nsys's exports
}

ExportWriter::~ExportWriter() {
    for (auto& [key, ins] : inserts_) sqlite3_finalize(ins->stmt_);
    if (db_) sqlite3_close(db_);
    if (!finished_) std::filesystem::remove(tmpPath_);
}

void ExportWriter::fail(const std::string& what) const {
    const std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
    throw std::runtime_error(tmpPath_ + ": " + what + ": " + message);
}

void ExportWriter::exec(const std::string& sql) {
    char* error = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
        const std::string message = error ? error : "unknown error";
        sqlite3_free(error);
        throw std::runtime_error(tmpPath_ + ": " + message + " in: " + sql.substr(0, 80));
    }
}

bool ExportWriter::omitted(std::string_view table) const {
    return options_.omitTables.count(std::string(table)) != 0;
}

void ExportWriter::ensureTable(std::string_view table) {
    if (created_.count(table)) return;
    const Table* t = findTable(tables_, table);
    if (!t) throw std::logic_error("no table " + std::string(table) + " in this schema version");
    exec(createStatement(*t));
    created_.insert(std::string(table));
}

int64_t ExportWriter::stringId(std::string_view s) {
    auto [it, inserted] = strings_.try_emplace(std::string(s), int64_t(stringOrder_.size()));
    if (inserted) stringOrder_.push_back(&it->first);
    return it->second;
}

ExportWriter::Insert& ExportWriter::insert(std::string_view table,
                                           const std::vector<std::string>& columns) {
    std::string key(table);
    for (const std::string& c : columns) key += "," + c;
    if (auto it = inserts_.find(key); it != inserts_.end()) return *it->second;
    auto ins = std::make_unique<Insert>();
    ins->writer_ = this;
    ins->table_ = std::string(table);
    ins->values_ = columns.size();
    if (!omitted(table)) {
        const Table* t = findTable(tables_, table);
        if (!t) throw std::logic_error("no table " + std::string(table) + " in this schema");
        std::string names, values;
        for (const std::string& c : columns) {
            names += (names.empty() ? "" : ", ") + c;
            values += values.empty() ? "?" : ", ?";
        }
        for (const Column& c : t->columns) {
            if (!c.notNull) continue;
            bool given = false;
            for (const std::string& g : columns) given = given || g == c.name;
            if (given) continue;
            names += ", " + std::string(c.name);
            values += ", 0";
        }
        ins->sql_ =
            "INSERT INTO " + std::string(table) + " (" + names + ") VALUES (" + values + ")";
    }
    return *inserts_.emplace(key, std::move(ins)).first->second;
}

void ExportWriter::Insert::row(std::initializer_list<Value> values) {
    ExportWriter& w = *writer_;
    if (w.omitted(table_)) return;
    if (!stmt_) {
        w.ensureTable(table_);
        if (sqlite3_prepare_v2(w.db_, sql_.c_str(), -1, &stmt_, nullptr) != SQLITE_OK)
            w.fail("cannot prepare an insert into " + table_);
    }
    if (values.size() != values_) throw std::logic_error("wrong number of values");
    int i = 1;
    for (const Value& v : values) {
        int rc = SQLITE_OK;
        switch (v.kind) {
            case Value::Null:
                rc = sqlite3_bind_null(stmt_, i);
                break;
            case Value::Int:
                rc = sqlite3_bind_int64(stmt_, i, v.i);
                break;
            case Value::Real:
                rc = sqlite3_bind_double(stmt_, i, v.d);
                break;
            case Value::Text:
                rc = sqlite3_bind_text(stmt_, i, v.s.data(), int(v.s.size()), SQLITE_TRANSIENT);
                break;
        }
        if (rc != SQLITE_OK) w.fail("cannot bind a value of " + table_);
        ++i;
    }
    if (sqlite3_step(stmt_) != SQLITE_DONE) w.fail("cannot insert into " + table_);
    sqlite3_reset(stmt_);
    ++rows_;
}

void ExportWriter::finish() {
    if (!omitted("StringIds")) {
        Insert& s = insert("StringIds", {"id", "value"});
        for (size_t id = 0; id < stringOrder_.size(); ++id)
            s.row({int64_t(id), std::string_view(*stringOrder_[id])});
    }
    for (const EnumTable& e : enumTables()) {
        if (omitted(e.name)) continue;
        exec("CREATE TABLE " + std::string(e.name) +
             " (\n    id INTEGER NOT NULL PRIMARY KEY,\n    name TEXT,\n    label TEXT\n);");
        sqlite3_stmt* stmt = nullptr;
        const std::string sql = "INSERT INTO " + std::string(e.name) + " VALUES (?, ?, ?)";
        if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
            fail("cannot prepare " + sql);
        for (const EnumRow& r : e.rows) {
            sqlite3_bind_int(stmt, 1, r.id);
            sqlite3_bind_text(stmt, 2, r.name.data(), int(r.name.size()), SQLITE_STATIC);
            sqlite3_bind_text(stmt, 3, r.label.data(), int(r.label.size()), SQLITE_STATIC);
            if (sqlite3_step(stmt) != SQLITE_DONE) {
                sqlite3_finalize(stmt);
                fail("cannot insert into " + std::string(e.name));
            }
            sqlite3_reset(stmt);
        }
        sqlite3_finalize(stmt);
    }
    exec("COMMIT");
    for (auto& [key, ins] : inserts_) {
        sqlite3_finalize(ins->stmt_);
        ins->stmt_ = nullptr;
    }
    if (sqlite3_close(db_) != SQLITE_OK) fail("cannot close");
    db_ = nullptr;
    std::filesystem::rename(tmpPath_, path_);
    finished_ = true;
}

void corruptExport(const std::string& path, const std::string& how) {
    const uintmax_t size = std::filesystem::file_size(path);
    if (how == "truncate") {
        std::filesystem::resize_file(path, size / 2);
        return;
    }
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    if (!f) throw std::runtime_error(path + ": cannot open to corrupt it");
    if (how == "header") {
        const std::string junk(100, 'x');
        f.write(junk.data(), std::streamsize(junk.size()));
    } else if (how == "page") {
        // Every page of the second half: b-tree pages with nonsense headers.
        const std::string junk(4096, '\x7f');
        for (uintmax_t at = (size / 2) / 4096 * 4096; at < size; at += 4096) {
            f.seekp(std::streamoff(at));
            f.write(junk.data(), std::streamsize(std::min<uintmax_t>(4096, size - at)));
        }
    } else {
        throw std::invalid_argument("corrupt how: header, page or truncate, not " + how);
    }
}

}  // namespace stackline::nsys
