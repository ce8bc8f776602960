// NVTX, OS runtime, processes and threads, target facts and the nsys enums, as nsys 2025.3's exports
// declare them.
#include "core/schema/table_names.h"
#include "core/schema/table_spec.h"

namespace gpuscope {
namespace {
using namespace schema_decl;

TableSpec nvtxTable() {
  return {table::kNvtx,
          TableGroup::Nvtx,
          {need("start", I).as(kTime),
           need("end", I, false).as(kTime),
           need("eventType", I).as(kEnum),
           opt("rangeId", I),
           opt("category", I),
           opt("color", I),
           need("text", T, false),
           need("globalTid", I, false).as(kGlobalId),
           opt("endGlobalTid", I).as(kGlobalId),
           need("textId", I, false).as(kString),
           need("domainId", I, false),  // a domain's number, not a string
           opt("uint64Value", I),
           opt("int64Value", I),
           opt("doubleValue", R),
           opt("uint32Value", I),
           opt("int32Value", I),
           opt("floatValue", R),
           opt("jsonTextId", I).as(kString),
           opt("jsonText", T),
           opt("binaryData", T)},
          {},
          true,
          {{{"start"}}, {{"globalTid"}}}};
}

TableSpec osrtTable() {
  return {table::kOsrt,
          TableGroup::HostCalls,
          {need("start", I).as(kTime), need("end", I).as(kTime), need("eventClass", I).as(kEnum),
           need("globalTid", I, false).as(kGlobalId), need("nameId", I).as(kString), opt("returnValue", I, true),
           opt("nestingLevel", I), opt("callchainId", I).as(kLocalId, kOsrtCallchainIds)},
          {},
          true,
          {{{"start"}}, {{"globalTid"}}}};
}

TableSpec targetGpuTable() {
  TableSpec spec{table::kTargetGpu,
                 TableGroup::Metadata,
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
                  opt("smMinor", I)}};
  spec.sameRowKey = {"id", "uuid"};
  return spec;
}

}  // namespace

std::vector<TableSpec> hostTables() {
  return {
      nvtxTable(),
      osrtTable(),
      {table::kThreadNames,
       TableGroup::Metadata,
       {need("nameId", I).as(kString), opt("priority", I), need("globalTid", I, false).as(kGlobalId)}},
      {table::kProcesses,
       TableGroup::Metadata,
       {need("globalPid", I, false).as(kGlobalId), need("pid", I, false), need("name", T, false)}},
      targetGpuTable(),
      {table::kSessionStart, TableGroup::Rebuilt, {opt("utcEpochNs", I), opt("utcTime", T), opt("localTime", T)}},
      {table::kCudaStream,
       TableGroup::Metadata,
       {need("streamId", I), opt("hwId", I, true).as(ColumnRole::HwField), opt("vmId", I, true), need("processId", I),
        need("contextId", I), opt("priority", I, true), opt("flag", I, true)}},
      {table::kMetaDataExport, TableGroup::Rebuilt, {need("name", T, false), need("value", T, false)}},
      enumTable(table::kEnumEventClass, nsys_enum::kEventClassRows),
      enumTable(table::kEnumEventType, nsys_enum::kEventTypeRows),
      enumTable(table::kEnumMemcpyOper, nsys_enum::kMemcpyOperRows),
      enumTable(table::kEnumMemKind, nsys_enum::kMemKindRows),
  };
}

}  // namespace gpuscope
