#include "core/roofline/kernel_metrics_table.h"

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/model/trace_file.h"
#include "core/write/trace_writer.h"

namespace gpuscope {

std::vector<KernelMetrics> readKernelMetrics(const Database& db) {
  std::vector<KernelMetrics> rows;
  if (!db.hasTable(kKernelMetricsTable)) return rows;
  const TableSpec& spec = tableSpec(table::kKernelMetrics);
  auto missing = missingNeededColumns(db, spec);
  if (!missing.empty())
    throw TraceError("The file's " + std::string(kKernelMetricsTable) + " table has no " + missing.front() +
                     " column: it was written by another version; import the ncu report again.");
  std::string columns;
  for (const auto& column : spec.columns) {
    if (!columns.empty()) columns += ", ";
    // Optional columns may be absent in files of other versions.
    columns += column.neededToRead || hasColumn(db, spec.name, column.name) ? std::string(column.name) : "NULL";
  }
  auto stmt = db.prepare("SELECT " + columns + " FROM " + std::string(kKernelMetricsTable));
  auto optionalReal = [&stmt](int column) {
    return stmt.isNull(column) ? std::optional<double>() : std::optional<double>(stmt.real(column));
  };
  while (stmt.step()) {
    KernelMetrics row;
    row.globalPid = stmt.isNull(0) ? 0 : stmt.int64(0);
    row.correlationId = static_cast<uint32_t>(stmt.int64(1));
    row.kernelName = std::string(stmt.text(2));
    row.sourceId = stmt.isNull(3) ? -1 : stmt.int64(3);
    if (!stmt.isNull(4)) row.durationNs = stmt.int64(4);
    for (size_t p = 0; p < row.flops.size(); ++p) row.flops[p] = optionalReal(5 + static_cast<int>(p));
    for (size_t l = 0; l < row.bytes.size(); ++l) row.bytes[l] = optionalReal(9 + static_cast<int>(l));
    row.source = std::string(stmt.text(12));
    rows.push_back(std::move(row));
  }
  return rows;
}

void writeKernelMetrics(const std::string& path, const std::vector<KernelMetrics>& rows) {
  bool hasTable = false;
  {
    // Check the target is a trace before changing it.
    auto check = openTraceFile(path);
    hasTable = check.hasTable(kKernelMetricsTable);
    if (hasTable) {
      auto missing = missingNeededColumns(check, tableSpec(table::kKernelMetrics));
      if (!missing.empty())
        throw TraceError(path + " has a " + std::string(kKernelMetricsTable) + " table without a " + missing.front() +
                         " column: it was written by another program.");
    }
  }
  std::unique_ptr<TraceWriter> writer = TraceWriter::addTo(path);
  addKernelMetrics(*writer, rows);
  writer->finish();
}

void addKernelMetrics(TraceWriter& writer, const std::vector<KernelMetrics>& rows) {
  std::vector<std::string_view> columns;
  for (const ColumnSpec& column : tableSpec(table::kKernelMetrics).columns) columns.push_back(column.name);
  int metrics = writer.tableRows(table::kKernelMetrics, columns, TraceWriter::RowConflict::Replace);
  for (const KernelMetrics& row : rows) {
    const auto& f = row.flops;
    const auto& b = row.bytes;
    writer.addRow(metrics, {row.globalPid, int64_t{row.correlationId}, std::string_view(row.kernelName), row.sourceId,
                            optionalCell(row.durationNs), optionalCell(f[0]), optionalCell(f[1]), optionalCell(f[2]),
                            optionalCell(f[3]), optionalCell(b[0]), optionalCell(b[1]), optionalCell(b[2]),
                            std::string_view(row.source)});
  }
}

}  // namespace gpuscope
