// mergeTraces on real nsys exports (tests/fixtures/nsys/loader2.sqlite) and a PyTorch profiler trace: both
// runs' kernels in one file on one clock, each input's processes, correlation ids and strings kept apart,
// GPUSCOPE_RANKS filled in, and bad inputs refused with one sentence.
#include "core/ranks/trace_merge.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <vector>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/model/global_id.h"
#include "core/open/open_trace.h"

namespace gpuscope {
namespace {

constexpr int64_t kSecondRunLaterNs = 2'500'000'000;
constexpr int64_t kLoader2StartNs = 1'795'318'595'866'316'752;  // its TARGET_INFO_SESSION_START_TIME
const std::string kKernelTable = "CUPTI_ACTIVITY_KIND_KERNEL";

const std::string kMergeLoader2 = std::string(GPUSCOPE_FIXTURES) + "/nsys/loader2.sqlite";

// A path in the test temp folder for this test's file NAME.
std::string mergeTestPath(const std::string& name) {
  std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  return (std::filesystem::path(::testing::TempDir()) / ("merge_" + test + "_" + name)).string();
}

// A copy of loader2.sqlite named for the test and NAME, for a test to edit.
std::string mergeFixtureCopy(const std::string& name) {
  auto path = mergeTestPath(name);
  std::filesystem::copy_file(kMergeLoader2, path, std::filesystem::copy_options::overwrite_existing);
  return path;
}

// Runs SQL on a copy, as a tool that rewrote the file would.
void editMergeInput(const std::string& path, const std::string& sql) {
  auto db = Database::openWritable(path);
  db.exec(sql);
}

void startMergeInputLater(const std::string& path, int64_t ns) {
  editMergeInput(path, "UPDATE TARGET_INFO_SESSION_START_TIME SET utcEpochNs = utcEpochNs + " + std::to_string(ns));
}

std::vector<int64_t> mergeColumnValues(const Database& db, const std::string& sql) {
  std::vector<int64_t> values;
  auto rows = db.prepare(sql);
  while (rows.step()) values.push_back(rows.int64(0));
  return values;
}

int64_t mergeCount(const Database& db, const std::string& sql) { return mergeColumnValues(db, sql).at(0); }

// The kernel starts of the rank whose globalPid values carry HW, in order.
std::vector<int64_t> kernelStartsOfHw(const Database& db, uint32_t hw) {
  return mergeColumnValues(db, "SELECT start FROM " + kKernelTable + " WHERE " + global_id::sqlHw("globalPid") + " = " +
                                   std::to_string(hw) + " ORDER BY start, \"end\"");
}

std::vector<int64_t> shiftedBy(std::vector<int64_t> values, int64_t add) {
  for (auto& value : values) value += add;
  return values;
}

std::vector<int64_t> fixtureKernelStarts() {
  auto db = Database::openReadOnly(kMergeLoader2);
  return kernelStartsOfHw(db, 0);
}

TEST(TraceMerge, SecondRunStartedLaterHasItsKernelsShiftedByExactlyThatMuch) {
  auto first = mergeFixtureCopy("first.sqlite");
  auto second = mergeFixtureCopy("second.sqlite");
  startMergeInputLater(second, kSecondRunLaterNs);
  auto out = mergeTestPath("merged.sqlite");
  auto summary = mergeTraces({first, second}, out);

  auto starts = fixtureKernelStarts();
  ASSERT_EQ(starts.size(), 984u);
  ASSERT_EQ(summary.inputs.size(), 2u);
  EXPECT_EQ(summary.inputs[0].kernels, 984);
  EXPECT_EQ(summary.inputs[1].kernels, 984);
  EXPECT_EQ(summary.inputs[1].rank.timeShiftNs, kSecondRunLaterNs);
  EXPECT_EQ(summary.earliestStartUtcNs, kLoader2StartNs);

  auto db = Database::openReadOnly(out);
  EXPECT_EQ(mergeCount(db, "SELECT count(*) FROM " + kKernelTable), 2 * 984);
  EXPECT_EQ(kernelStartsOfHw(db, 0), starts);
  EXPECT_EQ(kernelStartsOfHw(db, 1), shiftedBy(starts, kSecondRunLaterNs));
  EXPECT_EQ(mergeCount(db, "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME"), kLoader2StartNs);
  // Each process kept apart: the 196 processes of each run under globalPids of their own.
  EXPECT_EQ(mergeCount(db, "SELECT count(DISTINCT globalPid) FROM PROCESSES"), 2 * 196);
  EXPECT_EQ(mergeCount(db, "SELECT count(DISTINCT globalPid) FROM " + kKernelTable), 2);
  // The readers take it: the loader sees both runs' kernels.
  EXPECT_EQ(openTrace(out).load()->counts().kernels, 2u * 984u);
}

TEST(TraceMerge, RelativeLinesUpEachInputsOwnStart) {
  auto first = mergeFixtureCopy("first.sqlite");
  auto second = mergeFixtureCopy("second.sqlite");
  startMergeInputLater(second, kSecondRunLaterNs);
  auto out = mergeTestPath("merged.sqlite");
  auto summary = mergeTraces({first, second}, out, {MergeClock::Relative});
  EXPECT_EQ(summary.inputs[1].rank.timeShiftNs, 0);
  auto db = Database::openReadOnly(out);
  EXPECT_EQ(kernelStartsOfHw(db, 1), fixtureKernelStarts());
}

// An nsys export made with --ts-normalize: every time is since the Unix epoch, and META_DATA_EXPORT says so.
void normalizeMergeInput(const std::string& path) {
  std::string sql = "UPDATE META_DATA_EXPORT SET value = 'true' WHERE name = 'EXPORT_PARAM_TIME_NORMALIZE';";
  for (std::string table :
       {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_MEMCPY",
        "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "NVTX_EVENTS", "OSRT_API"}) {
    sql += "UPDATE " + table +
           " SET start = start + (SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME), \"end\" = \"end\" + "
           "(SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME);";
  }
  editMergeInput(path, sql);
}

TEST(TraceMerge, NormalizedExportIsNotShiftedTwice) {
  auto first = mergeFixtureCopy("first.sqlite");
  auto second = mergeFixtureCopy("second.sqlite");
  startMergeInputLater(second, kSecondRunLaterNs);
  normalizeMergeInput(second);
  auto out = mergeTestPath("merged.sqlite");
  mergeTraces({first, second}, out);
  auto db = Database::openReadOnly(out);
  EXPECT_EQ(kernelStartsOfHw(db, 1), shiftedBy(fixtureKernelStarts(), kSecondRunLaterNs));
  EXPECT_EQ(mergeCount(db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE start > 1000000000000000000"), 0);
}

TEST(TraceMerge, ExportTimeShiftIsUndone) {
  auto first = mergeFixtureCopy("first.sqlite");
  auto second = mergeFixtureCopy("second.sqlite");
  editMergeInput(second,
                 "UPDATE META_DATA_EXPORT SET value = '777' WHERE name = 'EXPORT_PARAM_TIME_SHIFT';"
                 "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = start + 777, \"end\" = \"end\" + 777;");
  auto out = mergeTestPath("merged.sqlite");
  mergeTraces({first, second}, out);
  auto db = Database::openReadOnly(out);
  EXPECT_EQ(kernelStartsOfHw(db, 1), fixtureKernelStarts());
}

TEST(TraceMerge, CorrelationIdsAreUniqueAndStillPairEachKernelWithItsLaunch) {
  auto out = mergeTestPath("merged.sqlite");
  auto summary = mergeTraces({mergeFixtureCopy("first.sqlite"), mergeFixtureCopy("second.sqlite")}, out);
  EXPECT_EQ(summary.inputs[1].rank.correlationIdOffset, 17077 + 1);  // loader2's largest correlation id + 1
  auto db = Database::openReadOnly(out);
  EXPECT_EQ(mergeCount(db,
                       "SELECT count(*) FROM (SELECT correlationId FROM CUPTI_ACTIVITY_KIND_RUNTIME GROUP BY "
                       "correlationId HAVING count(DISTINCT " +
                           global_id::sqlHw("globalTid") + ") > 1)"),
            0);
  EXPECT_EQ(mergeCount(db, "SELECT count(DISTINCT correlationId) FROM " + kKernelTable), 2 * 984);
  // Joined on the correlation id alone, every kernel still finds the call of its own process.
  EXPECT_EQ(mergeCount(db, "SELECT count(*) FROM " + kKernelTable +
                               " k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId WHERE " +
                               global_id::sqlSameProcess("k.globalPid", "r.globalTid")),
            2 * 984);
}

// Every id of the input's StringIds moved by 100000, as another exporter might number them.
void renumberMergeInputStrings(const std::string& path) {
  editMergeInput(path,
                 "UPDATE StringIds SET id = id + 100000;"
                 "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET shortName = shortName + 100000, demangledName = demangledName "
                 "+ 100000, mangledName = mangledName + 100000;"
                 "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET nameId = nameId + 100000;"
                 "UPDATE OSRT_API SET nameId = nameId + 100000;"
                 "UPDATE ThreadNames SET nameId = nameId + 100000;");
}

std::map<std::string, int64_t> kernelNameCounts(const Database& db, const std::string& where) {
  std::map<std::string, int64_t> counts;
  auto rows = db.prepare("SELECT s.value, count(*) FROM " + kKernelTable +
                         " k JOIN StringIds s ON s.id = k.shortName WHERE " + where + " GROUP BY s.value");
  while (rows.step()) counts[std::string(rows.text(0))] = rows.int64(1);
  return counts;
}

TEST(TraceMerge, StringsAreInternedOnceAndEveryNameSurvives) {
  auto second = mergeFixtureCopy("second.sqlite");
  renumberMergeInputStrings(second);
  auto out = mergeTestPath("merged.sqlite");
  mergeTraces({mergeFixtureCopy("first.sqlite"), second}, out);
  auto fixture = Database::openReadOnly(kMergeLoader2);
  auto expected = kernelNameCounts(fixture, "1");
  auto db = Database::openReadOnly(out);
  EXPECT_EQ(mergeCount(db, "SELECT count(*) - count(DISTINCT value) FROM StringIds"), 0);
  EXPECT_EQ(kernelNameCounts(db, global_id::sqlHw("k.globalPid") + " = 0"), expected);
  EXPECT_EQ(kernelNameCounts(db, global_id::sqlHw("k.globalPid") + " = 1"), expected);
  auto threadNames = [](const Database& d, const std::string& where) {
    return mergeColumnValues(d, "SELECT count(*) FROM ThreadNames t JOIN StringIds s ON s.id = t.nameId WHERE " +
                                    where + " AND s.value = 'pt_data_worker'");
  };
  EXPECT_EQ(threadNames(db, global_id::sqlHw("t.globalTid") + " = 1"), threadNames(fixture, "1"));
}

TEST(TraceMerge, RanksTableSaysRankHostStartAndIdRangeOfEachInput) {
  auto first = mergeFixtureCopy("first.sqlite");
  auto second = mergeFixtureCopy("second.sqlite");
  startMergeInputLater(second, kSecondRunLaterNs);
  auto out = mergeTestPath("merged.sqlite");
  mergeTraces({first, second}, out);
  auto db = Database::openReadOnly(out);
  auto rows = readRankRows(db);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].rank, 0);
  EXPECT_EQ(rows[1].rank, 1);
  EXPECT_EQ(rows[0].hostName, "vm");  // TARGET_INFO_SYSTEM_ENV Hostname
  EXPECT_EQ(rows[1].sessionStartUtcNs, kLoader2StartNs + kSecondRunLaterNs);
  EXPECT_EQ(rows[0].hwFirst, 0u);
  EXPECT_EQ(rows[1].hwFirst, 1u);
  EXPECT_EQ(rows[1].hwLast, 1u);
  EXPECT_EQ(rows[1].timeShiftNs, kSecondRunLaterNs);
  EXPECT_EQ(rows[1].rankSource, "command-line order");
  EXPECT_EQ(rows[1].sourcePath, second);
  auto pids = mergeColumnValues(db, "SELECT DISTINCT globalPid FROM " + kKernelTable + " ORDER BY globalPid");
  ASSERT_EQ(pids.size(), 2u);
  EXPECT_EQ(rankOfGlobalId(rows, pids[0])->rank, 0);
  EXPECT_EQ(rankOfGlobalId(rows, pids[1])->rank, 1);
}

// The variables a launcher sets, as nsys captures the launched process's environment.
void setMergeInputRank(const std::string& path, int rank, int worldSize) {
  editMergeInput(path,
                 "INSERT INTO META_DATA_CAPTURE (name, value) VALUES ('PROCESS_0:ENVIRONMENT_VARIABLE', "
                 "'RANK=\"" +
                     std::to_string(rank) + "\"'), ('PROCESS_0:ENVIRONMENT_VARIABLE', 'WORLD_SIZE=\"" +
                     std::to_string(worldSize) + "\"'), ('PROCESS_0:ENVIRONMENT_VARIABLE', 'LOCAL_RANK=\"" +
                     std::to_string(rank) + "\"')");
}

TEST(TraceMerge, RanksComeFromTheFilesWhereEachSaysOne) {
  auto first = mergeFixtureCopy("first.sqlite");
  auto second = mergeFixtureCopy("second.sqlite");
  setMergeInputRank(first, 1, 2);
  setMergeInputRank(second, 0, 2);
  auto out = mergeTestPath("merged.sqlite");
  mergeTraces({first, second}, out);
  auto rows = readRankRows(Database::openReadOnly(out));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].rank, 0);
  EXPECT_EQ(rows[0].sourcePath, second);
  EXPECT_EQ(rows[0].worldSize, 2);
  EXPECT_EQ(rows[1].localRank, 1);
  EXPECT_EQ(rows[1].rankSource, "nsys capture environment RANK");
}

TEST(TraceMerge, PyTorchTraceJoinsAnNsysExportOnTheClock) {
  auto nsys = mergeFixtureCopy("rank0.sqlite");
  setMergeInputRank(nsys, 0, 2);
  auto json = mergeTestPath("rank1.json");
  std::ofstream(json) << R"js({"baseTimeNanoseconds": )js" << kLoader2StartNs + 1'000'000'000
                      << R"js(, "distributedInfo": {"rank": 1, "world_size": 2}, "traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce", "pid": 0, "tid": 7, "ts": 10.5, "dur": 2.25,
     "args": {"device": 1, "stream": 7, "correlation": 42}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 55, "tid": 56, "ts": 9, "dur": 1,
     "args": {"correlation": 42}}]})js";
  auto out = mergeTestPath("merged.sqlite");
  auto summary = mergeTraces({nsys, json}, out);
  EXPECT_EQ(summary.inputs[1].kernels, 1);
  auto db = Database::openReadOnly(out);
  auto rows = readRankRows(db);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].worldSize, 2);
  EXPECT_EQ(rows[1].rankSource, "GPUSCOPE_META distributed_rank");
  EXPECT_EQ(kernelStartsOfHw(db, rows[1].hwFirst), (std::vector<int64_t>{1'000'000'000 + 10'500}));
  EXPECT_EQ(mergeCount(db, "SELECT count(*) FROM " + kKernelTable +
                               " k JOIN StringIds s ON s.id = k.shortName "
                               "WHERE s.value = 'ncclKernel_AllReduce'"),
            1);
}

TEST(TraceMerge, TablesItDoesNotCopyAreNamedWithTheirRows) {
  auto out = mergeTestPath("merged.sqlite");
  auto summary = mergeTraces({mergeFixtureCopy("first.sqlite"), mergeFixtureCopy("second.sqlite")}, out);
  bool named = false, backtracesLeft = false;
  for (const auto& line : summary.notKept) {
    named = named || line == "CUPTI_ACTIVITY_KIND_CUDA_EVENT (144 rows) is not copied by merge.";
    backtracesLeft = backtracesLeft || line.find("OSRT_CALLCHAINS") != std::string::npos;
  }
  EXPECT_TRUE(named);
  // The schema declares OS-runtime backtraces: both inputs' 66314 frames are kept.
  EXPECT_FALSE(backtracesLeft);
  EXPECT_EQ(mergeCount(Database::openReadOnly(out), "SELECT count(*) FROM OSRT_CALLCHAINS"), 2 * 66314);
}

// Merging INPUTS is refused with one sentence holding FRAGMENT, and OUT is left as it was.
void expectMergeRefused(const std::vector<std::string>& inputs, const std::string& out, const std::string& fragment) {
  bool existed = std::filesystem::exists(out);
  try {
    mergeTraces(inputs, out);
    ADD_FAILURE() << "merged, though " << fragment;
  } catch (const TraceError& error) {
    std::string message = error.what();
    EXPECT_NE(message.find(fragment), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  EXPECT_EQ(std::filesystem::exists(out), existed);
  EXPECT_FALSE(std::filesystem::exists(out + ".merging"));
}

TEST(TraceMerge, BadInputsAreRefusedWithOneSentence) {
  auto good = mergeFixtureCopy("good.sqlite");
  auto out = mergeTestPath("merged.sqlite");
  std::filesystem::remove(out);
  auto text = mergeTestPath("notes.txt");
  std::ofstream(text) << "not a trace at all\n";
  expectMergeRefused({good, text}, out, text);
  expectMergeRefused({good, good}, out, "are the same file");
  expectMergeRefused({good, good}, good, "is also an input");
  auto textTime = mergeFixtureCopy("text_time.sqlite");
  editMergeInput(textTime, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = 'soon' WHERE rowid = 1");
  expectMergeRefused({good, textTime}, out, "that is not an integer (a text value)");
  // A table the loader's value check does not read: the merge's own check of every time it shifts.
  auto textSync = mergeFixtureCopy("text_sync.sqlite");
  editMergeInput(textSync, "UPDATE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION SET \"end\" = 'later' WHERE rowid = 2");
  expectMergeRefused({good, textSync}, out,
                     "SYNCHRONIZATION row 2 has an end time that is not an integer (a text value)");
  auto sameRank = mergeFixtureCopy("same_rank.sqlite");
  setMergeInputRank(good, 3, 4);
  setMergeInputRank(sameRank, 3, 4);
  expectMergeRefused({good, sameRank}, out, "both say they are rank 3");
}

TEST(TraceMerge, AMergeIsNotMergedAgain) {
  auto merged = mergeTestPath("merged.sqlite");
  mergeTraces({mergeFixtureCopy("first.sqlite"), mergeFixtureCopy("second.sqlite")}, merged);
  expectMergeRefused({merged, mergeFixtureCopy("third.sqlite")}, mergeTestPath("again.sqlite"),
                     "already holds 2 ranks");
}

}  // namespace
}  // namespace gpuscope
