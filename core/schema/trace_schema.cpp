#include "core/schema/trace_schema.h"

#include <algorithm>
#include <stdexcept>

#include "core/db/sqlite_database.h"

namespace gpuscope {
namespace {

constexpr SqlType I = SqlType::Integer;
constexpr SqlType T = SqlType::Text;
constexpr SqlType R = SqlType::Real;
// Column shorthands: needed by the reader and NOT NULL / optional.
ColumnSpec need(std::string_view n, SqlType t, bool notNull = true) { return {n, t, notNull, true}; }
ColumnSpec opt(std::string_view n, SqlType t, bool notNull = false) { return {n, t, notNull, false}; }

std::vector<ColumnSpec> enumColumns() { return {need("id", I), opt("name", T), opt("label", T)}; }

std::vector<TableSpec> buildSchema() {
  std::vector<TableSpec> s;
  s.push_back({table::kStringIds, {need("id", I), need("value", T)}, "id"});
  s.push_back({table::kKernel,
               {need("start", I),
                need("end", I),
                need("deviceId", I),
                need("contextId", I),
                opt("greenContextId", I),
                need("streamId", I),
                need("correlationId", I, false),
                need("globalPid", I, false),
                need("demangledName", I),
                need("shortName", I),
                opt("mangledName", I),
                opt("launchType", I),
                opt("cacheConfig", I),
                opt("registersPerThread", I, true),
                opt("gridX", I, true),
                opt("gridY", I, true),
                opt("gridZ", I, true),
                opt("blockX", I, true),
                opt("blockY", I, true),
                opt("blockZ", I, true),
                opt("staticSharedMemory", I, true),
                opt("dynamicSharedMemory", I, true),
                opt("localMemoryPerThread", I, true),
                opt("localMemoryTotal", I, true),
                opt("gridId", I, true),
                opt("sharedMemoryExecuted", I),
                opt("graphNodeId", I),
                opt("sharedMemoryLimitConfig", I)},
               {}});
  s.push_back({table::kRuntime,
               {need("start", I), need("end", I), need("eventClass", I), need("globalTid", I, false),
                need("correlationId", I, false), need("nameId", I), opt("returnValue", I, true), opt("callchainId", I)},
               {}});
  s.push_back({table::kMemcpy,
               {need("start", I),
                need("end", I),
                need("deviceId", I),
                need("contextId", I),
                opt("greenContextId", I),
                need("streamId", I),
                need("correlationId", I, false),
                need("globalPid", I, false),
                need("bytes", I),
                need("copyKind", I),
                opt("deprecatedSrcId", I),
                opt("srcKind", I),
                opt("dstKind", I),
                opt("srcDeviceId", I),
                opt("srcContextId", I),
                opt("dstDeviceId", I),
                opt("dstContextId", I),
                opt("migrationCause", I),
                opt("graphNodeId", I),
                opt("virtualAddress", I)},
               {}});
  s.push_back({table::kMemset,
               {need("start", I), need("end", I), need("deviceId", I), need("contextId", I), opt("greenContextId", I),
                need("streamId", I), need("correlationId", I, false), need("globalPid", I, false),
                opt("value", I, true), need("bytes", I), opt("graphNodeId", I), opt("memKind", I)},
               {}});
  s.push_back({table::kSync,
               {need("start", I), need("end", I), need("deviceId", I), need("contextId", I), opt("greenContextId", I),
                need("streamId", I), need("correlationId", I, false), need("globalPid", I, false),
                opt("deprecatedSyncType", I), need("syncType", I), opt("eventId", I, true), opt("eventSyncId", I)},
               {}});
  s.push_back(
      {table::kNvtx,
       {need("start", I),       need("end", I, false),    need("eventType", I),       opt("rangeId", I),
        opt("category", I),     opt("color", I),          need("text", T, false),     need("globalTid", I, false),
        opt("endGlobalTid", I), need("textId", I, false), need("domainId", I, false), opt("uint64Value", I),
        opt("int64Value", I),   opt("doubleValue", R),    opt("uint32Value", I),      opt("int32Value", I),
        opt("floatValue", R),   opt("jsonTextId", I),     opt("jsonText", T),         opt("binaryData", T)},
       {}});
  s.push_back({table::kOsrt,
               {need("start", I), need("end", I), need("eventClass", I), need("globalTid", I, false), need("nameId", I),
                opt("returnValue", I, true), opt("nestingLevel", I), opt("callchainId", I)},
               {}});
  s.push_back({table::kThreadNames, {need("nameId", I), opt("priority", I), need("globalTid", I, false)}, {}});
  s.push_back({table::kProcesses, {need("globalPid", I, false), need("pid", I, false), need("name", T, false)}, {}});
  s.push_back({table::kTargetGpu,
               {opt("vmId", I, true),
                need("id", I),
                opt("name", T),
                opt("busLocation", T),
                opt("isDiscrete", I),
                opt("l2CacheSize", I),
                opt("totalMemory", I),
                opt("memoryBandwidth", I),
                opt("clockRate", I),
                opt("smCount", I),
                opt("pwGpuId", I),
                opt("uuid", T),
                opt("luid", I),
                opt("chipName", T),
                opt("cuDevice", I),
                opt("ctxswDevPath", T),
                opt("ctrlDevPath", T),
                opt("revision", I),
                opt("nodeMask", I),
                opt("constantMemory", I),
                opt("maxIPC", I),
                opt("maxRegistersPerBlock", I),
                opt("maxShmemPerBlock", I),
                opt("maxShmemPerBlockOptin", I),
                opt("maxShmemPerSm", I),
                opt("maxRegistersPerSm", I),
                opt("threadsPerWarp", I),
                opt("asyncEngines", I),
                opt("maxWarpsPerSm", I),
                opt("maxBlocksPerSm", I),
                opt("maxThreadsPerBlock", I),
                opt("maxBlockDimX", I),
                opt("maxBlockDimY", I),
                opt("maxBlockDimZ", I),
                opt("maxGridDimX", I),
                opt("maxGridDimY", I),
                opt("maxGridDimZ", I),
                opt("computeMajor", I),
                opt("computeMinor", I),
                opt("smMajor", I),
                opt("smMinor", I)},
               {}});
  s.push_back({table::kSessionStart, {opt("utcEpochNs", I), opt("utcTime", T), opt("localTime", T)}, {}});
  s.push_back({table::kCudaStream,
               {need("streamId", I), opt("hwId", I, true), opt("vmId", I, true), need("processId", I),
                need("contextId", I), opt("priority", I, true), opt("flag", I, true)},
               {}});
  s.push_back({table::kMetaDataExport, {need("name", T, false), need("value", T, false)}, {}});
  s.push_back({table::kEnumEventClass, enumColumns(), "id"});
  s.push_back({table::kEnumEventType, enumColumns(), "id"});
  s.push_back({table::kEnumMemcpyOper, enumColumns(), "id"});
  s.push_back({table::kEnumMemKind, enumColumns(), "id"});
  s.push_back({table::kGpuscopeMeta, {need("name", T), need("value", T, false)}, {}});
  // Roofs measured on the GPU itself by `gpuscope peaks --store`: one row per (device, kind, measurement);
  // kind is fp64/fp32/fp16/tensor (value in FLOP/s) or dram/l2/l1 (bytes/s); measuredAt in ns since the
  // UTC epoch. deviceId is the TARGET_INFO_GPU id; name and uuid are those of the GPU measured.
  s.push_back({table::kDevicePeaks,
               {need("deviceId", I), opt("name", T), opt("uuid", T), need("kind", T), need("value", R),
                opt("method", T), opt("measuredAt", I)},
               {}});
  return s;
}

TableSpec buildKernelMetricsSpec() {
  return {table::kKernelMetrics,
          {need("globalPid", I, false), need("correlationId", I), opt("kernelName", T), opt("sourceId", I, false),
           need("durationNs", I, false), need("flopsFp64", R, false), need("flopsFp32", R, false),
           need("flopsFp16", R, false), need("flopsTensor", R, false), need("dramBytes", R, false),
           need("l2Bytes", R, false), need("l1Bytes", R, false), opt("source", T)},
          ""};
}

TableSpec buildRanksSpec() {
  return {table::kRanks,
          {need("rank", I), opt("localRank", I), opt("worldSize", I), opt("hostName", T), opt("sessionStartUtcNs", I),
           need("hwFirst", I), need("hwLast", I), need("correlationIdOffset", I), need("timeShiftNs", I),
           opt("rankSource", T), opt("sourcePath", T), opt("pid", I)},
          ""};  // no key: a recording has a row per process, and a rank's workers share its rank
}

std::string_view typeName(SqlType type) {
  switch (type) {
    case SqlType::Integer:
      return "INTEGER";
    case SqlType::Text:
      return "TEXT";
    case SqlType::Real:
      return "REAL";
  }
  return "INTEGER";
}

}  // namespace

const std::vector<TableSpec>& traceSchema() {
  static const std::vector<TableSpec> schema = buildSchema();
  return schema;
}

const TableSpec& kernelMetricsTableSpec() {
  static const TableSpec spec = buildKernelMetricsSpec();
  return spec;
}

const TableSpec& ranksTableSpec() {
  static const TableSpec spec = buildRanksSpec();
  return spec;
}

std::vector<std::string> kernelMetricsCreateSql() {
  return {createTableSql(kernelMetricsTableSpec()),
          "CREATE UNIQUE INDEX IF NOT EXISTS GPUSCOPE_KERNEL_METRICS_KEY ON " + std::string(table::kKernelMetrics) +
              " (globalPid, correlationId)"};
}

const TableSpec& tableSpec(std::string_view name) {
  for (const auto& spec : traceSchema()) {
    if (spec.name == name) return spec;
  }
  if (name == table::kKernelMetrics) return kernelMetricsTableSpec();
  if (name == table::kRanks) return ranksTableSpec();
  throw std::out_of_range("no table " + std::string(name) + " in the trace schema");
}

std::string createTableSql(const TableSpec& spec) {
  std::string sql = "CREATE TABLE " + std::string(spec.name) + " (";
  for (size_t i = 0; i < spec.columns.size(); ++i) {
    const auto& column = spec.columns[i];
    if (i) sql += ", ";
    sql += std::string(column.name) + " " + std::string(typeName(column.type));
    if (column.notNull) sql += " NOT NULL";
    if (column.name == spec.primaryKey) sql += " PRIMARY KEY";
  }
  return sql + ")";
}

std::vector<std::string> missingNeededColumns(const Database& db, const TableSpec& spec) {
  auto present = db.columnsOf(spec.name);
  std::vector<std::string> missing;
  for (const auto& column : spec.columns) {
    if (column.neededToRead && std::find(present.begin(), present.end(), column.name) == present.end())
      missing.emplace_back(column.name);
  }
  return missing;
}

bool hasColumn(const Database& db, std::string_view table, std::string_view column) {
  auto present = db.columnsOf(table);
  return std::find(present.begin(), present.end(), column) != present.end();
}

}  // namespace gpuscope
