#pragma once
// The one declaration of the trace-file tables gpuscope reads and writes (the nsys export schema's tables we
// use, the sampling tables, and gpuscope's own), and what is derived from it: CREATE statements, indexes,
// table lists by group, row counts. The declarations themselves are in this folder's *_tables.cpp.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/schema/nsys_enums.h"
#include "core/schema/table_names.h"
#include "core/schema/table_spec.h"

namespace gpuscope {

class Database;

// The GPUSCOPE_META names under which a recording or an import stores its rank (the Kineto importer
// writes distributedInfo's rank and world_size there; core/ranks reads them).
namespace rank_meta {
inline constexpr std::string_view kRank = "distributed_rank";
inline constexpr std::string_view kLocalRank = "distributed_local_rank";
inline constexpr std::string_view kWorldSize = "distributed_world_size";
inline constexpr std::string_view kHostName = "host_name";
}  // namespace rank_meta

// Every declared table, in creation order.
const std::vector<TableSpec>& traceSchema();
// The declaration of NAME; throws std::out_of_range for a name the schema does not declare.
const TableSpec& tableSpec(std::string_view name);
const TableSpec* findTableSpec(std::string_view name);  // nullptr when undeclared

// The declared tables of GROUPS, in schema order.
std::vector<std::string_view> tablesIn(std::initializer_list<TableGroup> groups);
// The tables of timeline events: GPU work, host calls and NVTX (each has a start time).
std::vector<std::string_view> eventTables();

// CREATE TABLE IF NOT EXISTS for SPEC.
std::string createTableSql(const TableSpec& spec);
// What makes SPEC's table whole in a file that lacks it: the table, its unique indexes (which rows rely on)
// and, for an ENUM_ table, its rows. Each statement can be run again harmlessly.
std::vector<std::string> createTableStatements(const TableSpec& spec);
// SPEC's other indexes, created once a written file is complete (faster than keeping them while appending).
std::vector<std::string> createLaterIndexStatements(const TableSpec& spec);

// Columns the reader needs that the file's table lacks (empty when the table is usable).
std::vector<std::string> missingNeededColumns(const Database& db, const TableSpec& spec);
bool hasColumn(const Database& db, std::string_view table, std::string_view column);

struct TableRowCount {
  std::string_view table;
  TableGroup group;
  int64_t rows = 0;
};
// The rows of every declared table DB has, in schema order.
std::vector<TableRowCount> tableRowCounts(const Database& db);

// Declares SPEC on top of the schema while this object lives, for tests that show a new table needs no other
// edit. SPEC's strings must outlive it (literals). Not for use while other threads read the schema.
class ScopedTableDeclaration {
 public:
  explicit ScopedTableDeclaration(TableSpec spec);
  ~ScopedTableDeclaration();
  ScopedTableDeclaration(const ScopedTableDeclaration&) = delete;
  ScopedTableDeclaration& operator=(const ScopedTableDeclaration&) = delete;

 private:
  std::string_view name_;
};

}  // namespace gpuscope
