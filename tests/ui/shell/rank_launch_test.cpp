// Launching windows. gpuscope-ui --ranks merges the rank files as `gpuscope merge` does, with its --relative and
// --align-collectives: each changes where a rank's times land, and the merged file's GPUSCOPE_RANKS says by how
// much.
#include "ui/launch/rank_launch.h"

#include <gtest/gtest.h>

#include <QGuiApplication>
#include <QScreen>
#include <cstdlib>
#include <vector>

#include "core/db/sqlite_database.h"
#include "core/model/rank_table.h"
#include "tests/core/testing/gz_fixture.h"
#include "ui/launch/viewer_launch.h"

namespace gpuscope::ui {
namespace {

// The DDP run's two nsys rank exports (tests/fixtures/ranks), decompressed once.
QStringList ddpRankFiles() {
  QStringList files;
  for (int rank = 0; rank < 2; ++rank) {
    std::string name = "rank" + std::to_string(rank);
    files << QString::fromStdString(testing::gunzippedFixture(
        std::string(GPUSCOPE_FIXTURES) + "/ranks/nsys/" + name + ".sqlite.gz", "ranks_nsys_" + name + ".sqlite"));
  }
  return files;
}

// Each input's shift in the file MERGED wrote, by rank.
std::vector<int64_t> shiftsOf(const MergedRankFile& merged) {
  std::vector<int64_t> shifts;
  for (const RankRow& row : readRankRows(Database::openReadOnly(merged.path().toStdString())))
    shifts.push_back(row.timeShiftNs);
  return shifts;
}

TEST(RankLaunch, RelativeAndAlignedMergesMoveTheRanksAsMergeDoes) {
  const QStringList files = ddpRankFiles();
  MergedRankFile absolute, relative, aligned;
  ASSERT_FALSE(absolute.merge(files, false, false));
  ASSERT_FALSE(relative.merge(files, true, false));
  ASSERT_FALSE(aligned.merge(files, false, true));
  EXPECT_TRUE(absolute.path().endsWith(QStringLiteral("ranks_nsys_rank0+ranks_nsys_rank1.sqlite")))
      << absolute.path().toStdString();

  const std::vector<int64_t> byStart = shiftsOf(absolute);
  const std::vector<int64_t> ownStart = shiftsOf(relative);
  const std::vector<int64_t> byCollectives = shiftsOf(aligned);
  ASSERT_EQ(byStart.size(), 2u);
  ASSERT_EQ(ownStart.size(), 2u);
  ASSERT_EQ(byCollectives.size(), 2u);
  // Absolute: the later rank moves by the gap between the session starts; relative: neither moves.
  EXPECT_NE(byStart[0], byStart[1]);
  EXPECT_EQ(ownStart[0], ownStart[1]);
  // Aligned: rank 0 stays; rank 1 moves by the collectives' median end difference, 19.087 us on this run.
  EXPECT_EQ(byCollectives[0], byStart[0]);
  EXPECT_NEAR(static_cast<double>(std::llabs(byCollectives[1] - byStart[1])), 19'087.0, 1'000.0);
}

// A window opened from the command line (one trace, or two compared) fits the screen: the compare window
// opened 1400x900 on a 1280x720 screen, its bottom and right edges off it.
TEST(WindowLaunch, AFirstWindowSizeFitsTheScreen) {
  const QSize free = QGuiApplication::primaryScreen()->availableGeometry().size();
  const QSize fitted = fittedWindowSize(free * 2);
  EXPECT_LE(fitted.width(), free.width() * 9 / 10 + 1);
  EXPECT_LE(fitted.height(), free.height() * 9 / 10 + 1);
  EXPECT_EQ(fittedWindowSize(QSize(300, 200)), QSize(300, 200));
}
}  // namespace
}  // namespace gpuscope::ui
