// CPU samples, their callchains, thread scheduling and OS-runtime backtraces, as nsys 2025.3's exports
// declare them (COMPOSITE_EVENTS, SAMPLING_CALLCHAINS, SCHED_EVENTS, OSRT_CALLCHAINS and their enums).
#include "core/schema/table_names.h"
#include "core/schema/table_spec.h"

namespace gpuscope {
namespace {
using namespace schema_decl;

// SAMPLING_CALLCHAINS and OSRT_CALLCHAINS: one row per frame, stackDepth 0 the leaf.
TableSpec callchainTable(std::string_view name, std::string_view idSpace) {
  return {name,
          TableGroup::Samples,
          {need("id", I).as(kLocalId, idSpace), need("symbol", I).as(kString), need("module", I).as(kString),
           opt("kernelMode", I), opt("thumbCode", I), opt("unresolved", I), opt("specialEntry", I),
           opt("originalIP", I), opt("unwindMethod", I).as(kEnum), need("stackDepth", I)},
          {"id", "stackDepth"},
          false};
}

}  // namespace

std::vector<TableSpec> sampleTables() {
  return {
      {table::kCompositeEvents,
       TableGroup::Samples,
       {need("id", I).as(kLocalId, kSampleIds), need("start", I).as(kTime), opt("cpu", I),
        opt("threadState", I).as(kEnum), need("globalTid", I, false).as(kGlobalId), opt("cpuCycles", I, true)},
       {"id"},
       false,
       {{{"start"}}}},
      callchainTable(table::kSamplingCallchains, kSampleIds),
      {table::kSchedEvents,
       TableGroup::Samples,
       {need("start", I).as(kTime), opt("cpu", I, true), need("isSchedIn", I),
        need("globalTid", I, false).as(kGlobalId), opt("threadState", I).as(kEnum), opt("threadBlock", I).as(kEnum)},
       {},
       false,
       {{{"globalTid", "start"}}}},
      callchainTable(table::kOsrtCallchains, kOsrtCallchainIds),
      enumTable(table::kEnumStackUnwindMethod, nsys_enum::kStackUnwindMethodRows),
      enumTable(table::kEnumSamplingThreadState, nsys_enum::kSamplingThreadStateRows),
      enumTable(table::kEnumSchedulingThreadBlock, nsys_enum::kSchedulingThreadBlockRows),
  };
}

}  // namespace gpuscope
