// Finding evidence shown to people counts times in seconds from the trace start, as the viewer and --range do;
// the CSV stays nsys analyze's, in nanoseconds on the file's clock.
#include "core/analysis/finding_format.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "core/analysis/rule_registry.h"
#include "core/analysis/verdict/judged_window.h"
#include "core/model/trace_file.h"
#include "tests/core/testing/test_files.h"

namespace gpuscope {
namespace {

TEST(FindingFormat, EvidenceTablesShowStartsInSecondsFromTheTraceStart) {
  Database db = openTraceFile(testing::fixturePath("nsys/loader2.sqlite"));
  Finding gaps = runAnalysis(db, {parseRuleRequest("gpu_gaps")}).front();
  ASSERT_TRUE(gaps.found());
  size_t column = 0;
  while (column < gaps.evidence.columns.size() && gaps.evidence.columns[column].title != "Start (ns)") ++column;
  ASSERT_LT(column, gaps.evidence.columns.size());
  TimeNs start = std::get<int64_t>(gaps.evidence.rows.front()[column]);
  TimeNs traceStart = traceStartNs(db);
  ASSERT_GT(traceStart, 0);

  std::string text = findingText(gaps, traceStart);
  EXPECT_EQ(text.find("Start (ns)"), std::string::npos) << text;
  EXPECT_NE(text.find("Start (s)"), std::string::npos) << text;
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.6f", static_cast<double>(start - traceStart) / 1e9);
  EXPECT_NE(text.find(seconds), std::string::npos) << seconds << " in\n" << text;
  EXPECT_EQ(text.find(std::to_string(start)), std::string::npos) << text;

  std::string csv = findingCsv(gaps);
  EXPECT_NE(csv.find("Start (ns)"), std::string::npos);
  EXPECT_NE(csv.find(std::to_string(start)), std::string::npos);
}

TEST(FindingFormat, OnlyStartColumnsChange) {
  ReportTable evidence{"rule", "Rule", {{"Duration (ns)", 0}, {"Kernel Start (ns)", 0}, {"Name", 0}}, {}};
  evidence.rows.push_back({int64_t{2'000}, int64_t{3'500'250'000}, std::string("k")});
  ReportTable shown = evidenceForPeople(evidence, 1'000'000'000);
  EXPECT_EQ(shown.columns[0].title, "Duration (ns)");
  EXPECT_EQ(shown.columns[1].title, "Kernel Start (s)");
  EXPECT_EQ(cellText(shown.rows[0][1], shown.columns[1]), "2.500250");
  EXPECT_EQ(std::get<int64_t>(shown.rows[0][0]), 2'000);
}

}  // namespace
}  // namespace gpuscope
