// The cells every verdict table shares: each shows its own part of the judged window, sorts by the number
// behind its text, and explains itself with the verdict's sentence.
#include "ui/analysis/verdict_cells.h"

#include <gtest/gtest.h>

namespace gpuscope::ui {
namespace {

constexpr int kSortRole = Qt::UserRole + 1;

// A window of 1 ms whose parts are all different, so that a cell showing another cell's part is caught.
Verdict handmadeVerdict() {
  Verdict verdict;
  verdict.kind = BottleneckClass::Communication;
  VerdictEvidence& e = verdict.evidence;
  e.wallNs = 1'000'000;
  e.gpuBusyNs = 900'000;
  e.kernelBusyNs = 900'000;
  e.collectiveOnlyNs = 600'000;
  e.idleApiNs = 20'000;
  e.idleSyncNs = 30'000;
  e.idleCpuNs = 50'000;
  return verdict;
}

TEST(VerdictCells, EachShareCellShowsItsOwnPartOfTheWindow) {
  Verdict verdict = handmadeVerdict();
  auto text = [&](VerdictCell cell) { return verdictCellData(verdict, cell, Qt::DisplayRole, kSortRole).toString(); };
  EXPECT_EQ(text(VerdictCell::Class), QStringLiteral("communication"));
  EXPECT_EQ(text(VerdictCell::Wall), QStringLiteral("1.000 ms"));
  EXPECT_EQ(text(VerdictCell::GpuBusy), QStringLiteral("90.0%"));
  EXPECT_EQ(text(VerdictCell::CollectivesAlone), QStringLiteral("60.0%"));
  EXPECT_EQ(text(VerdictCell::CudaApi), QStringLiteral("2.0%"));
  EXPECT_EQ(text(VerdictCell::Sync), QStringLiteral("3.0%"));
  EXPECT_EQ(text(VerdictCell::CpuWhileIdle), QStringLiteral("5.0%"));
}

TEST(VerdictCells, CellsSortByTheirNumbersAndExplainThemselves) {
  Verdict verdict = handmadeVerdict();
  EXPECT_EQ(verdictCellData(verdict, VerdictCell::Wall, kSortRole, kSortRole).toLongLong(), 1'000'000);
  EXPECT_DOUBLE_EQ(verdictCellData(verdict, VerdictCell::Sync, kSortRole, kSortRole).toDouble(), 0.03);
  QString tooltip = verdictCellData(verdict, VerdictCell::GpuBusy, Qt::ToolTipRole, kSortRole).toString();
  EXPECT_EQ(tooltip.toStdString(), verdictSentence(verdict));
  EXPECT_FALSE(verdictCellData(verdict, VerdictCell::Class, Qt::TextAlignmentRole, kSortRole).isValid());
  EXPECT_TRUE(verdictCellData(verdict, VerdictCell::CpuWhileIdle, Qt::TextAlignmentRole, kSortRole).isValid());
  EXPECT_EQ(verdictCellTitle(VerdictCell::CollectivesAlone), QStringLiteral("Collectives Alone"));
}

}  // namespace
}  // namespace gpuscope::ui
