#include "core/ranks/merge_columns.h"

#include <algorithm>

#include "core/schema/trace_schema.h"

namespace gpuscope {
namespace {

struct StringColumn {
  std::string_view table;
  std::string_view column;
};

// Columns that hold StringIds ids. NVTX_EVENTS.domainId is a domain's number, not a string.
constexpr StringColumn kStringColumns[] = {
    {table::kKernel, "demangledName"}, {table::kKernel, "shortName"},   {table::kKernel, "mangledName"},
    {table::kRuntime, "nameId"},       {table::kOsrt, "nameId"},        {table::kNvtx, "textId"},
    {table::kNvtx, "jsonTextId"},      {table::kThreadNames, "nameId"},
};

}  // namespace

const std::vector<std::string_view>& mergedTables() {
  static const std::vector<std::string_view> tables = {
      table::kProcesses, table::kThreadNames, table::kTargetGpu,     table::kCudaStream, table::kDevicePeaks,
      table::kKernel,    table::kRuntime,     table::kMemcpy,        table::kMemset,     table::kSync,
      table::kNvtx,      table::kOsrt,        table::kKernelMetrics,
  };
  return tables;
}

bool rebuiltByMerge(std::string_view table) {
  return table == table::kStringIds || table == table::kSessionStart || table == table::kMetaDataExport ||
         table == table::kGpuscopeMeta || table == table::kRanks || table.substr(0, 5) == "ENUM_";
}

ColumnRole columnRole(std::string_view table, std::string_view column) {
  bool timed = table != table::kKernelMetrics && table != table::kDevicePeaks;
  if (timed && (column == "start" || column == "end")) return ColumnRole::Time;
  if (column == "globalPid" || column == "globalTid" || column == "endGlobalTid") return ColumnRole::GlobalId;
  if (table == table::kCudaStream && column == "hwId") return ColumnRole::HwField;
  if (column == "correlationId") return ColumnRole::Correlation;
  bool isString = std::any_of(std::begin(kStringColumns), std::end(kStringColumns),
                              [&](const StringColumn& c) { return c.table == table && c.column == column; });
  return isString ? ColumnRole::StringRef : ColumnRole::Plain;
}

}  // namespace gpuscope
