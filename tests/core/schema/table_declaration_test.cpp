// The schema is the one declaration of the trace tables: a table declared there (here a test-only one) is
// created by the writer, written by column name with its strings interned, listed among the event tables,
// counted, and merged with its times shifted and its ids kept apart per rank, with no other edit.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "core/db/sqlite_database.h"
#include "core/model/global_id.h"
#include "core/ranks/merge_columns.h"
#include "core/ranks/trace_merge.h"
#include "core/schema/trace_schema.h"
#include "core/write/trace_writer.h"
#include "tests/core/testing/test_files.h"

namespace gpuscope {
namespace {

constexpr std::string_view kTestTable = "GPUSCOPE_TEST_LAUNCHES";

TableSpec testTableSpec() {
  using namespace schema_decl;
  return {kTestTable,
          TableGroup::HostCalls,
          {need("start", I).as(kTime), need("end", I).as(kTime), need("globalTid", I, false).as(kGlobalId),
           need("correlationId", I, false).as(kCorrelation), need("nameId", I).as(kString), opt("note", T)}};
}

bool contains(const std::vector<std::string_view>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// A file of rank RANK that started START_NS and holds two rows of the test table and one OS-runtime call.
std::string writeTestRank(const std::string& name, int rank, int64_t startNs) {
  std::string path = testing::processTempPath("table_declaration", name);
  TraceWriter writer(path);
  writer.setSessionStart(startNs);
  writer.addMeta(rank_meta::kRank, std::to_string(rank));
  const int64_t tid = global_id::make(0, 1, 77, 77);
  writer.addOsRuntime({100, 2'000'000'000, tid, "poll"});
  int rows = writer.tableRows(kTestTable, {"start", "end", "globalTid", "correlationId", "nameId", "note"});
  writer.addRow(rows,
                {int64_t{1000}, int64_t{2000}, tid, int64_t{5}, std::string_view("launch_a"), std::string_view("x")});
  writer.addRow(rows, {int64_t{3000}, int64_t{4000}, tid, int64_t{6}, std::string_view("launch_b"), {}});
  writer.finish();
  return path;
}

TEST(TableDeclaration, TheEventTablesAreOneListReadOffTheGroups) {
  std::vector<std::string_view> events = eventTables();
  for (std::string_view name :
       {table::kKernel, table::kMemcpy, table::kMemset, table::kRuntime, table::kSync, table::kNvtx, table::kOsrt})
    EXPECT_TRUE(contains(events, name)) << name;
  EXPECT_EQ(events.size(), 7u);
  EXPECT_FALSE(contains(events, table::kCompositeEvents));
  EXPECT_EQ(tablesIn({TableGroup::Samples}),
            (std::vector<std::string_view>{table::kCompositeEvents, table::kSamplingCallchains, table::kSchedEvents,
                                           table::kOsrtCallchains}));
}

TEST(TableDeclaration, SamplingColumnsSayWhatTheyHold) {
  EXPECT_EQ(columnRole(table::kCompositeEvents, "id"), ColumnRole::LocalId);
  EXPECT_EQ(idSpaceOf(table::kCompositeEvents, "id"), idSpaceOf(table::kSamplingCallchains, "id"));
  EXPECT_EQ(idSpaceOf(table::kOsrt, "callchainId"), idSpaceOf(table::kOsrtCallchains, "id"));
  EXPECT_NE(idSpaceOf(table::kOsrt, "callchainId"), idSpaceOf(table::kCompositeEvents, "id"));
  EXPECT_EQ(columnRole(table::kSamplingCallchains, "symbol"), ColumnRole::StringRef);
  EXPECT_EQ(columnRole(table::kSchedEvents, "start"), ColumnRole::Time);
  EXPECT_EQ(columnRole(table::kSchedEvents, "globalTid"), ColumnRole::GlobalId);
  EXPECT_EQ(columnRole(table::kNvtx, "domainId"), ColumnRole::Plain);
  EXPECT_TRUE(rebuiltByMerge(table::kEnumSamplingThreadState));
  EXPECT_TRUE(rebuiltByMerge("ENUM_SOMETHING_NSYS_HAS"));
  EXPECT_FALSE(rebuiltByMerge(table::kCompositeEvents));
}

TEST(TableDeclaration, ANewTableIsWrittenListedCountedAndMergedWithNoOtherEdit) {
  std::string rank0, rank1, merged = testing::processTempPath("table_declaration", "job.sqlite");
  {
    ScopedTableDeclaration declared(testTableSpec());
    EXPECT_TRUE(contains(eventTables(), kTestTable));
    EXPECT_TRUE(contains(mergedTables(), kTestTable));
    rank0 = writeTestRank("r0.sqlite", 0, 1'790'000'000'000'000'000);
    rank1 = writeTestRank("r1.sqlite", 1, 1'790'000'000'000'500'000);
    {
      Database db = Database::openReadOnly(rank1);
      std::vector<TableRowCount> counts = tableRowCounts(db);
      auto row =
          std::find_if(counts.begin(), counts.end(), [](const TableRowCount& c) { return c.table == kTestTable; });
      ASSERT_NE(row, counts.end());
      EXPECT_EQ(row->rows, 2);
    }
    MergeSummary summary = mergeTraces({rank0, rank1}, merged);
    for (const std::string& line : summary.notKept) ADD_FAILURE() << "not kept: " << line;
    const RankRow& second = summary.inputs.at(1).rank;
    Database db = Database::openReadOnly(merged);
    auto rows = db.prepare(
        "SELECT t.start, t.globalTid, t.correlationId, s.value, t.note FROM GPUSCOPE_TEST_LAUNCHES t JOIN StringIds s "
        "ON s.id = t.nameId ORDER BY t.globalTid, t.start");
    std::vector<std::string> seen;
    while (rows.step()) {
      bool ofRank1 = global_id::hw(rows.int64(1)) == second.hwFirst;
      EXPECT_EQ(rows.int64(0) - (ofRank1 ? second.timeShiftNs : 0), rows.isNull(4) ? 3000 : 1000);
      EXPECT_EQ(rows.int64(2) - (ofRank1 ? second.correlationIdOffset : 0), rows.isNull(4) ? 6 : 5);
      seen.push_back(std::to_string(ofRank1) + std::string(rows.text(3)));
    }
    EXPECT_EQ(seen, (std::vector<std::string>{"0launch_a", "0launch_b", "1launch_a", "1launch_b"}));
    EXPECT_EQ(second.timeShiftNs, 500'000);
  }
  EXPECT_EQ(findTableSpec(kTestTable), nullptr);
  for (const std::string& path : {rank0, rank1, merged}) std::filesystem::remove(path);
}

}  // namespace
}  // namespace gpuscope
