// StringIds and the CUPTI activity tables, as nsys 2025.3's exports declare them.
#include "core/schema/table_names.h"
#include "core/schema/table_spec.h"

namespace gpuscope {
namespace {
using namespace schema_decl;

// The columns every GPU activity record starts with: when, where, and who launched it.
std::vector<ColumnSpec> gpuActivityColumns() {
  return {need("start", I).as(kTime),
          need("end", I).as(kTime),
          need("deviceId", I),
          need("contextId", I),
          opt("greenContextId", I),
          need("streamId", I),
          need("correlationId", I, false).as(kCorrelation),
          need("globalPid", I, false).as(kGlobalId)};
}

std::vector<ColumnSpec> withColumns(std::vector<ColumnSpec> columns, std::initializer_list<ColumnSpec> more) {
  columns.insert(columns.end(), more.begin(), more.end());
  return columns;
}

// Indexes on start and correlationId (docs/DESIGN.md), and EXTRA.
std::vector<IndexSpec> activityIndexes(std::initializer_list<std::string_view> extra = {}) {
  std::vector<IndexSpec> indexes = {{{"start"}}, {{"correlationId"}}};
  for (std::string_view column : extra) indexes.push_back({{column}});
  return indexes;
}

TableSpec kernelTable() {
  return {table::kKernel,
          TableGroup::GpuWork,
          withColumns(gpuActivityColumns(), {need("demangledName", I).as(kString),
                                             need("shortName", I).as(kString),
                                             opt("mangledName", I).as(kString),
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
                                             opt("sharedMemoryLimitConfig", I)}),
          {},
          true,
          activityIndexes()};
}

TableSpec runtimeTable() {
  return {table::kRuntime,
          TableGroup::HostCalls,
          {need("start", I).as(kTime), need("end", I).as(kTime), need("eventClass", I).as(kEnum),
           need("globalTid", I, false).as(kGlobalId), need("correlationId", I, false).as(kCorrelation),
           need("nameId", I).as(kString), opt("returnValue", I, true),
           opt("callchainId", I).as(kLocalId, kCudaCallchainIds)},
          {},
          true,
          activityIndexes({"globalTid"})};
}

TableSpec memcpyTable() {
  return {table::kMemcpy,
          TableGroup::GpuWork,
          withColumns(
              gpuActivityColumns(),
              {need("bytes", I), need("copyKind", I).as(kEnum), opt("deprecatedSrcId", I), opt("srcKind", I).as(kEnum),
               opt("dstKind", I).as(kEnum), opt("srcDeviceId", I), opt("srcContextId", I), opt("dstDeviceId", I),
               opt("dstContextId", I), opt("migrationCause", I), opt("graphNodeId", I), opt("virtualAddress", I)}),
          {},
          true,
          activityIndexes()};
}

TableSpec memsetTable() {
  return {table::kMemset,
          TableGroup::GpuWork,
          withColumns(gpuActivityColumns(),
                      {opt("value", I, true), need("bytes", I), opt("graphNodeId", I), opt("memKind", I).as(kEnum)}),
          {},
          true,
          activityIndexes()};
}

// A host thread waiting on a stream, an event or the device: host calls, though CUPTI records it per stream.
TableSpec syncTable() {
  return {table::kSync,
          TableGroup::HostCalls,
          withColumns(gpuActivityColumns(), {opt("deprecatedSyncType", I), need("syncType", I), opt("eventId", I, true),
                                             opt("eventSyncId", I)}),
          {},
          true,
          activityIndexes()};
}

}  // namespace

std::vector<TableSpec> cudaTables() {
  return {{table::kStringIds, TableGroup::Rebuilt, {need("id", I), need("value", T)}, {"id"}},
          kernelTable(),
          runtimeTable(),
          memcpyTable(),
          memsetTable(),
          syncTable()};
}

}  // namespace gpuscope
