// Stats reports restricted to a time range (the viewer's ruler range): each report counts exactly the events
// that share time with the range, checked against plain SQL on the same file, and the file is untouched.
#include "core/stats/stats_window.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/stats/stats_reports.h"

namespace gpuscope {
namespace {

const std::string kTranspose = std::string(GPUSCOPE_FIXTURES) + "/nsys/transpose.sqlite";

size_t columnNamed(const ReportTable& table, const std::string& title) {
  for (size_t i = 0; i < table.columns.size(); ++i)
    if (table.columns[i].title == title) return i;
  ADD_FAILURE() << "no column " << title << " in " << table.name;
  return 0;
}

// Per value of "Name", the "Instances" (or NAMECOLUMN's count column) of TABLE.
std::map<std::string, int64_t> countsByName(const ReportTable& table, const std::string& countColumn) {
  std::map<std::string, int64_t> counts;
  size_t name = columnNamed(table, "Name"), count = columnNamed(table, countColumn);
  for (const auto& row : table.rows) counts[std::get<std::string>(row[name])] = std::get<int64_t>(row[count]);
  return counts;
}

// Per kernel name, how many kernels of the file share time with [from, to), by SQL.
std::map<std::string, int64_t> kernelsInRange(TimeNs from, TimeNs to) {
  Database db = Database::openReadOnly(kTranspose);
  auto statement = db.prepare(
      "SELECT s.value, count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName "
      "WHERE k.start < ?1 AND k.end > ?2 GROUP BY 1");
  statement.bind(1, to);
  statement.bind(2, from);
  std::map<std::string, int64_t> counts;
  while (statement.step()) counts[std::string(statement.text(0))] = statement.int64(1);
  return counts;
}

std::pair<TimeNs, TimeNs> kernelSpan() {
  Database db = Database::openReadOnly(kTranspose);
  auto statement = db.prepare("SELECT min(start), max(end) FROM CUPTI_ACTIVITY_KIND_KERNEL");
  EXPECT_TRUE(statement.step());
  return {statement.int64(0), statement.int64(1)};
}

TEST(StatsWindow, KernelSummaryCountsTheKernelsSharingTimeWithTheRange) {
  auto [first, last] = kernelSpan();
  TimeNs middle = first + (last - first) / 2;
  for (TimeInterval range :
       {TimeInterval{first, middle}, TimeInterval{middle, last}, TimeInterval{middle - 1000, middle + 1000}}) {
    auto expected = kernelsInRange(range.start, range.end);
    auto actual = countsByName(runStatsReportInRange(kTranspose, "cuda_gpu_kern_sum", range), "Instances");
    EXPECT_EQ(actual, expected) << range.start << " - " << range.end;
  }
  // The two halves hold every kernel between them (one may straddle the middle and count in both).
  int64_t all = 0, halves = 0;
  for (const auto& [name, count] : kernelsInRange(first, last + 1)) all += count;
  for (TimeInterval half : {TimeInterval{first, middle}, TimeInterval{middle, last + 1}})
    for (const auto& [name, count] : kernelsInRange(half.start, half.end)) halves += count;
  EXPECT_GE(halves, all);
  EXPECT_LE(halves, all + 1);
}

TEST(StatsWindow, AnEmptyRangeIsTheWholeRunAndTheFileIsNotWritten) {
  auto before = std::filesystem::last_write_time(kTranspose);
  auto size = std::filesystem::file_size(kTranspose);
  Database db = Database::openReadOnly(kTranspose);
  EXPECT_EQ(countsByName(runStatsReportInRange(kTranspose, "cuda_api_sum", {}), "Num Calls"),
            countsByName(runStatsReport(db, "cuda_api_sum"), "Num Calls"));
  EXPECT_TRUE(countsByName(runStatsReportInRange(kTranspose, "cuda_api_sum", {1, 2}), "Num Calls").empty());
  EXPECT_EQ(std::filesystem::last_write_time(kTranspose), before);
  EXPECT_EQ(std::filesystem::file_size(kTranspose), size);
}

TEST(StatsWindow, AnUnknownReportIsRefusedBeforeTheFileIsOpened) {
  EXPECT_THROW(runStatsReportInRange("/no/such/file.sqlite", "no_such_report", {1, 2}), TraceError);
}

}  // namespace
}  // namespace gpuscope
