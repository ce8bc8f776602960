// The timeline of a file holding several ranks (a gpuscope merge of the two-rank DDP run's nsys exports):
// each process row says its rank and host, and a one-rank file's rows say neither.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/model/trace_loader.h"
#include "core/ranks/trace_merge.h"
#include "tests/core/testing/gz_fixture.h"
#include "ui/timeline/timeline_layout.h"
#include "ui/timeline/timeline_row_kinds.h"

namespace gpuscope::ui {
namespace {

std::string ddpRankFile(int rank) {
  std::string name = "ranks_ui_rank" + std::to_string(rank) + ".sqlite";
  return testing::gunzippedFixture(
      std::string(GPUSCOPE_FIXTURES) + "/ranks/nsys/rank" + std::to_string(rank) + ".sqlite.gz", name);
}

// The label (or, with DETAIL, the grey detail) of each row of KIND, as the timeline lays TRACE out.
std::vector<std::string> rowTexts(const Trace& trace, RowKind kind, bool detail) {
  TimelineRowKinds kinds;
  kinds.onTraceChanged(&trace);
  TimelineLayout layout;
  layout.build(trace, kinds);
  std::vector<std::string> texts;
  for (const TimelineRow& row : layout.rows())
    if (row.kind == kind) texts.push_back((detail ? row.detail : row.label).toStdString());
  return texts;
}

std::vector<std::string> processDetails(const Trace& trace) { return rowTexts(trace, RowKind::Process, true); }
std::vector<std::string> deviceLabels(const Trace& trace) { return rowTexts(trace, RowKind::Device, false); }

TEST(RankRows, EachProcessRowOfAMergeSaysItsRankAndHost) {
  std::string merged = (std::filesystem::path(::testing::TempDir()) / "rank_rows_merged.sqlite").string();
  mergeTraces({ddpRankFile(0), ddpRankFile(1)}, merged);
  auto trace = loadTrace(merged);
  ASSERT_EQ(trace->processes().size(), 2u);
  EXPECT_EQ(trace->processes()[0].rank, 0);
  EXPECT_EQ(trace->processes()[1].rank, 1);
  EXPECT_EQ(processDetails(*trace), (std::vector<std::string>{"pid 907, rank 0 on vm", "pid 910, rank 1 on vm"}));

  auto single = loadTrace(ddpRankFile(0));
  EXPECT_FALSE(single->processes()[0].rank.has_value());
  EXPECT_EQ(processDetails(*single), (std::vector<std::string>{"pid 907"}));
}

// Issue 40, point 9: in a ranks view each GPU row says whose GPU it is; a one-rank file's do not.
TEST(RankRows, EachGpuRowOfAMergeSaysItsRank) {
  std::string merged = (std::filesystem::path(::testing::TempDir()) / "rank_rows_gpus.sqlite").string();
  mergeTraces({ddpRankFile(0), ddpRankFile(1)}, merged);
  auto trace = loadTrace(merged);
  std::vector<std::string> labels = deviceLabels(*trace);
  ASSERT_EQ(labels.size(), 2u);
  EXPECT_NE(labels[0].find("rank 0"), std::string::npos) << labels[0];
  EXPECT_NE(labels[1].find("rank 1"), std::string::npos) << labels[1];
  for (const std::string& label : deviceLabels(*loadTrace(ddpRankFile(0))))
    EXPECT_EQ(label.find("rank"), std::string::npos) << label;
}

}  // namespace
}  // namespace gpuscope::ui
