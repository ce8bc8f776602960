#include "collector/launch/recorded_tables.h"

#include <iostream>

#include "core/roofline/kernel_metrics_table.h"
#include "core/schema/table_names.h"
#include "core/write/trace_writer.h"

namespace gpuscope {

void writeMetricRows(TraceWriter& writer, const std::vector<KernelMetrics>& rows) {
  if (rows.empty()) {
    std::cerr << "gpuscope: --metrics roofline profiled no kernel launch (none matched, or profiling failed: see "
                 "above)\n";
    return;
  }
  addKernelMetrics(writer, rows);
}

void writeRecordedRanks(TraceWriter& writer, std::vector<RankRow> rows, int64_t sessionStartUtcNs,
                        const std::string& path) {
  if (rows.empty()) return;
  int ranks = writer.tableRows(table::kRanks,
                               {"rank", "localRank", "worldSize", "hostName", "sessionStartUtcNs", "hwFirst", "hwLast",
                                "correlationIdOffset", "timeShiftNs", "rankSource", "sourcePath", "pid"});
  for (const RankRow& row : rows) {
    writer.addRow(
        ranks, {row.rank, optionalCell(row.localRank), optionalCell(row.worldSize),
                row.hostName.empty() ? TraceWriter::Cell() : TraceWriter::Cell(std::string_view(row.hostName)),
                sessionStartUtcNs, int64_t{row.hwFirst}, int64_t{row.hwLast}, row.correlationIdOffset, row.timeShiftNs,
                std::string_view(row.rankSource), std::string_view(path), optionalCell(row.pid)});
  }
}

}  // namespace gpuscope
