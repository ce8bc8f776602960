// GPUSCOPE_RANKS as a recording writes it: a row per process (its pid) beside a merge's rows per hw range,
// and files written before the pid column.
#include "core/model/rank_table.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/db/sqlite_database.h"
#include "core/model/global_id.h"
#include "core/ranks/rank_identity.h"

namespace gpuscope {
namespace {

std::string freshPath(const std::string& name) {
  auto path = std::filesystem::path(::testing::TempDir()) / name;
  std::filesystem::remove(path);
  return path.string();
}

RankRow row(int64_t rank, std::optional<int64_t> pid) {
  RankRow row;
  row.rank = rank;
  row.worldSize = 2;
  row.hostName = "node" + std::to_string(rank);
  row.pid = pid;
  return row;
}

TEST(RankTable, ARowNamingThePidWinsOverTheWholeHwRange) {
  auto db = Database::create(freshPath("rank_table_pid.sqlite"));
  writeRankRows(db, {row(1, 7), row(0, 8), row(1, 9), row(5, std::nullopt)});
  std::vector<RankRow> rows = readRankRows(db);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rankOfGlobalId(rows, global_id::make(0, 0, 7, 0))->rank, 1);
  EXPECT_EQ(rankOfGlobalId(rows, global_id::make(0, 0, 8, 8))->rank, 0);
  EXPECT_EQ(rankOfGlobalId(rows, global_id::make(0, 0, 9, 3))->hostName, "node1");
  EXPECT_EQ(rankOfGlobalId(rows, global_id::make(0, 0, 10, 0))->rank, 5);  // no row of its own
  EXPECT_EQ(rankOfGlobalId(rows, global_id::make(1, 0, 7, 0)), nullptr);   // another hw
  // Several ranks: no one identity.
  EXPECT_FALSE(readRankIdentity(db).rank.has_value());
}

TEST(RankTable, ProcessesOfOneRankAreThatRanksFile) {
  auto db = Database::create(freshPath("rank_table_one.sqlite"));
  writeRankRows(db, {row(3, 40), row(3, 41)});
  RankIdentity identity = readRankIdentity(db);
  EXPECT_EQ(identity.rank, 3);
  EXPECT_EQ(identity.worldSize, 2);
  EXPECT_EQ(identity.hostName, "node3");
}

TEST(RankTable, AFileWrittenBeforeThePidColumnStillReads) {
  auto db = Database::create(freshPath("rank_table_old.sqlite"));
  db.exec(
      "CREATE TABLE GPUSCOPE_RANKS (rank INTEGER PRIMARY KEY, localRank INTEGER, worldSize INTEGER, hostName TEXT, "
      "sessionStartUtcNs INTEGER, hwFirst INTEGER, hwLast INTEGER, correlationIdOffset INTEGER, timeShiftNs INTEGER, "
      "rankSource TEXT, sourcePath TEXT); INSERT INTO GPUSCOPE_RANKS VALUES (2, 0, 4, 'h', 5, 1, 1, 0, 0, 's', 'p')");
  std::vector<RankRow> rows = readRankRows(db);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_FALSE(rows[0].pid.has_value());
  EXPECT_EQ(rankOfGlobalId(rows, global_id::make(1, 0, 99, 0))->rank, 2);
}

}  // namespace
}  // namespace gpuscope
