#pragma once
// The one declaration of the trace-file tables we read and write (a subset of the nsys export schema).
#include <string>
#include <string_view>
#include <vector>

#include "core/schema/nsys_enums.h"

namespace gpuscope {

class Database;

namespace table {
inline constexpr std::string_view kStringIds = "StringIds";
inline constexpr std::string_view kKernel = "CUPTI_ACTIVITY_KIND_KERNEL";
inline constexpr std::string_view kRuntime = "CUPTI_ACTIVITY_KIND_RUNTIME";
inline constexpr std::string_view kMemcpy = "CUPTI_ACTIVITY_KIND_MEMCPY";
inline constexpr std::string_view kMemset = "CUPTI_ACTIVITY_KIND_MEMSET";
inline constexpr std::string_view kSync = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
inline constexpr std::string_view kNvtx = "NVTX_EVENTS";
inline constexpr std::string_view kOsrt = "OSRT_API";
inline constexpr std::string_view kThreadNames = "ThreadNames";
inline constexpr std::string_view kProcesses = "PROCESSES";
inline constexpr std::string_view kTargetGpu = "TARGET_INFO_GPU";
inline constexpr std::string_view kSessionStart = "TARGET_INFO_SESSION_START_TIME";
inline constexpr std::string_view kCudaStream = "TARGET_INFO_CUDA_STREAM";
inline constexpr std::string_view kMetaDataExport = "META_DATA_EXPORT";
inline constexpr std::string_view kEnumEventClass = "ENUM_NSYS_EVENT_CLASS";
inline constexpr std::string_view kEnumEventType = "ENUM_NSYS_EVENT_TYPE";
inline constexpr std::string_view kEnumMemcpyOper = "ENUM_CUDA_MEMCPY_OPER";
inline constexpr std::string_view kEnumMemKind = "ENUM_CUDA_MEM_KIND";
inline constexpr std::string_view kGpuscopeMeta = "GPUSCOPE_META";
inline constexpr std::string_view kDevicePeaks = "GPUSCOPE_DEVICE_PEAKS";
inline constexpr std::string_view kKernelMetrics = "GPUSCOPE_KERNEL_METRICS";
inline constexpr std::string_view kRanks = "GPUSCOPE_RANKS";
}  // namespace table

// The GPUSCOPE_META names under which a recording or an import stores its rank (the Kineto importer
// writes distributedInfo's rank and world_size there; core/ranks reads them).
namespace rank_meta {
inline constexpr std::string_view kRank = "distributed_rank";
inline constexpr std::string_view kLocalRank = "distributed_local_rank";
inline constexpr std::string_view kWorldSize = "distributed_world_size";
inline constexpr std::string_view kHostName = "host_name";
}  // namespace rank_meta

enum class SqlType { Integer, Text, Real };

struct ColumnSpec {
  std::string_view name;
  SqlType type;
  bool notNull;       // declared NOT NULL, as in the nsys export
  bool neededToRead;  // a reader cannot use the table without it (differs from optional, version-dependent columns)
};

struct TableSpec {
  std::string_view name;
  std::vector<ColumnSpec> columns;
  std::string_view primaryKey;  // empty when none
};

// Every table of docs/DESIGN.md "The trace file", in creation order.
const std::vector<TableSpec>& traceSchema();
// GPUSCOPE_KERNEL_METRICS: per kernel launch, the counters the roofline needs (from `import ncu` or
// `record --metrics roofline`); one row per launch, unique on (globalPid, correlationId). Not part of
// traceSchema(): it is created only when a file gets its first metrics. Column order is the one
// readKernelMetrics and the importer's INSERT rely on.
const TableSpec& kernelMetricsTableSpec();
// CREATE TABLE and its unique index, for a file that lacks the table.
std::vector<std::string> kernelMetricsCreateSql();
// GPUSCOPE_RANKS: one row per rank a file holds (`gpuscope merge` writes one per input), or per process of a
// recording whose environment named its rank (`gpuscope record`, with its pid): its rank, local rank, world
// size, host, absolute session start, and how its rows were told apart and moved in the file: the hw field
// its globalPid/globalTid values carry (hwFirst..hwLast), the offset added to its correlation ids and the
// shift added to its times. Not part of traceSchema(): only files that hold ranks have it.
const TableSpec& ranksTableSpec();
// The spec of one table (kernelMetricsTableSpec() included); throws std::out_of_range for a name not in the
// schema.
const TableSpec& tableSpec(std::string_view name);
std::string createTableSql(const TableSpec& spec);

// Columns the reader needs that the file's table lacks (empty when the table is usable).
std::vector<std::string> missingNeededColumns(const Database& db, const TableSpec& spec);
bool hasColumn(const Database& db, std::string_view table, std::string_view column);

}  // namespace gpuscope
