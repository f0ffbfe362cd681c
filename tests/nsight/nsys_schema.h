// The tables of an Nsight Systems SQLite export that a Stackline importer reads, column for column
// as `nsys export --type sqlite` writes them (names, order, types, NOT NULL, primary keys), for
// two schema versions: 3.0.0 (Nsight Systems 2022.4) and 3.7.2 (2023.4). The column lists were
// read with PRAGMA table_info from exports both versions wrote on a CPU-only machine; the enum
// rows are the ones those exports carry. Sources and version differences: the research notes
// on the export (nsight.md, with the shared notes). nsys's comments in its CREATE statements are
// left out.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace stackline::nsys {

enum class SchemaVersion { v3_0_0, v3_7_2 };  // Nsight Systems 2022.4, 2023.4

struct Column {
    std::string_view name;
    std::string_view type;  // "INTEGER", "TEXT" or "REAL"
    bool notNull = false;
    bool primaryKey = false;  // part of the table's primary key
};

struct Table {
    std::string_view name;
    std::vector<Column> columns;
};

// The tables in the order nsys lists them, for the given version.
std::vector<Table> tables(SchemaVersion version);
// The table named name in version, or nullptr.
const Table* findTable(const std::vector<Table>& tables, std::string_view name);
// CREATE TABLE name (...), with a composite PRIMARY KEY clause where the table has one.
std::string createStatement(const Table& table);

// The export's meta-data table: EXPORT_META_DATA in 3.0.0, META_DATA_EXPORT in 3.7.2.
std::string_view metaDataTable(SchemaVersion version);
std::string_view schemaVersionText(SchemaVersion version);   // "3.0.0", "3.7.2"
std::string_view productVersionText(SchemaVersion version);  // "2022.4.2.1", "2023.4.4.54"

struct EnumRow {
    int id;
    std::string_view name;
    std::string_view label;
};
struct EnumTable {
    std::string_view name;  // ENUM_..., columns (id INTEGER NOT NULL PRIMARY KEY, name, label)
    std::vector<EnumRow> rows;
};
// The ENUM_* tables the CUDA and NVTX tables refer to (ENUM_NSYS_EVENT_TYPE and
// ENUM_NSYS_EVENT_CLASS only with the rows those tables use).
std::vector<EnumTable> enumTables();

// Values the CUDA and NVTX tables hold.
inline constexpr int kNvtxCategory = 33;
inline constexpr int kNvtxMark = 34;
inline constexpr int kNvtxPushPopRange = 59;
inline constexpr int kNvtxStartEndRange = 60;
inline constexpr int kNvtxDomainCreate = 75;
inline constexpr int kEventClassCudaRuntime = 0;
inline constexpr int kEventClassCudaDriver = 1;
inline constexpr int kEventClassGraphNodeCreation = 77;

}  // namespace stackline::nsys
