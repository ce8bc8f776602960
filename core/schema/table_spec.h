#pragma once
// How one trace-file table is declared: its columns with their SQL types and their roles, its group, its
// keys and indexes. Everything that handles tables generically (CREATE statements, merge, table lists,
// counts) reads these declarations instead of knowing tables by name.
#include <span>
#include <string_view>
#include <vector>

#include "core/schema/nsys_enums.h"

namespace gpuscope {

enum class SqlType { Integer, Text, Real };

// What a column's values mean, so that code moving rows between files knows what to do with them.
enum class ColumnRole {
  Plain,        // a value that means the same in every file
  Time,         // ns on the file's clock: shifted when files are put on one clock
  GlobalId,     // a globalPid or globalTid (core/model/global_id.h): the file's own hw field
  HwField,      // a hw field on its own (TARGET_INFO_CUDA_STREAM.hwId): moved with the global ids
  Correlation,  // a CUDA correlation id: kept apart per file
  StringRef,    // an id into StringIds
  Enum,         // an id into an ENUM_ table: the same in every file
  LocalId,      // a row id that other rows refer to (ColumnSpec::idSpace names which): kept apart per file
};

// What a table holds. Event tables are GpuWork, HostCalls and Nvtx (eventTables()).
enum class TableGroup {
  GpuWork,    // kernels, copies, memsets: work that ran on a GPU
  HostCalls,  // CUDA API, synchronization and OS-runtime calls of host threads
  Nvtx,       // NVTX ranges and marks
  Samples,    // CPU samples, their callchains, thread scheduling, call backtraces
  Counters,   // series over time of a GPU: hardware metric samples, device memory allocations and frees
  Metadata,   // processes, threads, devices, streams, measured roofs and counters: copied by a merge
  Rebuilt,    // strings, enums, session and export facts, ranks: written anew by a merge
};

struct ColumnSpec {
  std::string_view name = {};
  SqlType type = SqlType::Integer;
  bool notNull = false;       // declared NOT NULL, as in the nsys export
  bool neededToRead = false;  // a reader cannot use the table without it (others are version-dependent)
  ColumnRole role = ColumnRole::Plain;
  std::string_view idSpace = {};  // LocalId only: columns that share a space refer to the same rows

  constexpr ColumnSpec as(ColumnRole newRole, std::string_view space = {}) const {
    ColumnSpec column = *this;
    column.role = newRole;
    column.idSpace = space;
    return column;
  }
};

struct IndexSpec {
  std::vector<std::string_view> columns = {};
  bool unique = false;  // created with the table; the others once a written file is complete
};

struct TableSpec {
  std::string_view name = {};
  TableGroup group = TableGroup::Metadata;
  std::vector<ColumnSpec> columns = {};
  std::vector<std::string_view> primaryKey = {};  // empty when none
  // Created in every file gpuscope writes; the others only once a row is written to them.
  bool inEveryFile = true;
  std::vector<IndexSpec> indexes = {};
  // Two files' rows equal on these columns are one row (the same GPU seen by two ranks): a merge keeps one.
  std::vector<std::string_view> sameRowKey = {};
  std::span<const nsys_enum::EnumRow> enumRows = {};  // the rows of an ENUM_ table

  const ColumnSpec* column(std::string_view columnName) const {
    for (const ColumnSpec& spec : columns)
      if (spec.name == columnName) return &spec;
    return nullptr;
  }
};

namespace schema_decl {
// Declaration shorthands: a column the reader needs (NOT NULL unless said) or an optional one.
constexpr ColumnSpec need(std::string_view n, SqlType t, bool notNull = true) { return {n, t, notNull, true}; }
constexpr ColumnSpec opt(std::string_view n, SqlType t, bool notNull = false) { return {n, t, notNull, false}; }
constexpr SqlType I = SqlType::Integer;
constexpr SqlType T = SqlType::Text;
constexpr SqlType R = SqlType::Real;
constexpr ColumnRole kTime = ColumnRole::Time;
constexpr ColumnRole kGlobalId = ColumnRole::GlobalId;
constexpr ColumnRole kCorrelation = ColumnRole::Correlation;
constexpr ColumnRole kString = ColumnRole::StringRef;
constexpr ColumnRole kEnum = ColumnRole::Enum;
constexpr ColumnRole kLocalId = ColumnRole::LocalId;
// The id spaces of LocalId columns.
constexpr std::string_view kSampleIds = "sample";                 // COMPOSITE_EVENTS.id = SAMPLING_CALLCHAINS.id
constexpr std::string_view kOsrtCallchainIds = "osrt_callchain";  // OSRT_API.callchainId = OSRT_CALLCHAINS.id
constexpr std::string_view kCudaCallchainIds = "cuda_callchain";  // CUPTI_ACTIVITY_KIND_RUNTIME.callchainId
// An ENUM_ table (id, name, label) holding ROWS.
TableSpec enumTable(std::string_view name, std::span<const nsys_enum::EnumRow> rows);
}  // namespace schema_decl

// The declarations, one function per family of tables (cuda_tables.cpp, host_tables.cpp, sample_tables.cpp,
// metric_tables.cpp, gpuscope_tables.cpp); trace_schema.cpp puts them together in this order.
std::vector<TableSpec> cudaTables();
std::vector<TableSpec> hostTables();
std::vector<TableSpec> sampleTables();
std::vector<TableSpec> metricTables();
std::vector<TableSpec> gpuscopeTables();

}  // namespace gpuscope
