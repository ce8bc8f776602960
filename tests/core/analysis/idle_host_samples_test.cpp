// The verdict names what the host thread did while the GPU idled, from nsys's CPU samples: the running
// functions of the driving thread's samples that no kernel, memcpy or memset overlaps, counted here by
// an independent SQL query over the same export.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "core/analysis/analysis_rule.h"
#include "core/analysis/rule_registry.h"
#include "core/analysis/verdict/verdict.h"
#include "core/analysis/verdict/verdict_format.h"
#include "core/db/sqlite_database.h"
#include "core/model/global_id.h"
#include "tests/core/samples/samples_fixtures.h"

namespace gpuscope {
namespace {

// No operation of TABLE covers the sample's time (true where the file has no such table).
std::string busyAt(const Database& db, const std::string& table) {
  if (!db.hasTable(table)) return "";
  return " AND NOT EXISTS (SELECT 1 FROM " + table + " g WHERE g.start > 0 AND g.start <= e.start AND g.end > e.start)";
}

using Leaf = std::pair<std::string, std::string>;  // function, module

// (leaf function, module) -> samples of the thread, inside the window, while no GPU operation ran.
std::map<Leaf, int64_t> sqlIdleLeaves(const Database& db, const VerdictEvidence& e) {
  auto row = db.prepare(
      "SELECT s.value, m.value, count(*) FROM COMPOSITE_EVENTS e JOIN SAMPLING_CALLCHAINS c ON c.id = e.id AND "
      "c.stackDepth = 0 JOIN StringIds s ON s.id = c.symbol JOIN StringIds m ON m.id = c.module WHERE " +
      global_id::sqlPid("e.globalTid") + " = " + std::to_string(e.pid) + " AND " + global_id::sqlTid("e.globalTid") +
      " = " + std::to_string(e.tid) + " AND e.start >= " + std::to_string(e.windowStart) + " AND e.start < " +
      std::to_string(e.windowEnd) + busyAt(db, "CUPTI_ACTIVITY_KIND_KERNEL") +
      busyAt(db, "CUPTI_ACTIVITY_KIND_MEMCPY") + busyAt(db, "CUPTI_ACTIVITY_KIND_MEMSET") +
      " GROUP BY s.value, m.value");
  std::map<Leaf, int64_t> leaves;
  while (row.step()) leaves[{std::string(row.text(0)), std::string(row.text(1))}] = row.int64(2);
  return leaves;
}

class IdleHostSamplesOnNsys : public ::testing::TestWithParam<const char*> {};

TEST_P(IdleHostSamplesOnNsys, TopFunctionsAreTheIdleTimeLeaves) {
  Database db = Database::openReadOnly(testing::samplingFixture(GetParam()));
  Verdict verdict = runVerdict(db, loadVerdictInputs(db));
  ASSERT_TRUE(verdict.kind == BottleneckClass::Cpu || verdict.kind == BottleneckClass::CudaApi);
  const IdleHostSamples& idle = verdict.evidence.idleHost;
  auto expected = sqlIdleLeaves(db, verdict.evidence);
  int64_t expectedTotal = 0;
  for (const auto& [name, count] : expected) expectedTotal += count;
  EXPECT_EQ(idle.samples, expectedTotal);
  ASSERT_FALSE(idle.top.empty());
  EXPECT_LE(idle.top.size(), kTopHostFunctions);
  for (const HostFunction& function : idle.top) {
    EXPECT_EQ(function.samples, expected.at({function.name, function.module})) << function.name;
    EXPECT_DOUBLE_EQ(function.share, static_cast<double>(function.samples) / static_cast<double>(expectedTotal));
    // Without Python frames in nsys's stacks each function is its own one leaf.
    ASSERT_EQ(function.leaves.size(), 1u) << function.name;
    EXPECT_EQ(function.leaves.front().name, function.name);
    EXPECT_EQ(function.leaves.front().samples, function.samples);
  }
  int64_t mostExpected = 0;
  for (const auto& [name, count] : expected) mostExpected = std::max(mostExpected, count);
  EXPECT_EQ(idle.top.front().samples, mostExpected);
  // The JSON keeps each function's name, module, samples and share, with its leaves and lines beneath.
  auto json = verdictJson(verdict)["evidence"]["top_functions"];
  ASSERT_EQ(json.size(), idle.top.size());
  EXPECT_EQ(json[0]["name"], idle.top.front().name);
  EXPECT_EQ(json[0]["module"], idle.top.front().module);
  EXPECT_EQ(json[0]["samples"], idle.top.front().samples);
  ASSERT_EQ(json[0]["leaves"].size(), 1u);
  EXPECT_EQ(json[0]["leaves"][0]["name"], idle.top.front().name);
  EXPECT_EQ(json[0]["leaves"][0]["samples"], idle.top.front().samples);
  EXPECT_TRUE(json[0]["lines"].empty());
  std::string sentence = verdictSentence(verdict);
  EXPECT_NE(sentence.find("While the GPU idled, " + std::to_string(expectedTotal) +
                          " samples of the host thread were in " + idle.top.front().name),
            std::string::npos)
      << sentence;
}

INSTANTIATE_TEST_SUITE_P(NsysExports, IdleHostSamplesOnNsys, ::testing::Values("loader2_samp", "lb_samp"));

TEST(IdleHostSamples, GpuWaitsOnHostNamesTheSampledFunctions) {
  Database db = Database::openReadOnly(testing::samplingFixture("loader2_samp"));
  Finding finding = runAnalysis(db, {parseRuleRequest("gpu_waits_on_host")}).front();
  ASSERT_TRUE(finding.found());
  RunActivity run = loadRunActivity(db);
  ASSERT_NE(run.drivingThread(), nullptr);
  std::vector<TimeInterval> gaps;  // the rule's: GPU idle gaps over its default 1 ms
  for (const TimeInterval& gap : run.gpuBusy.gapsWithin(run.first, run.last))
    if (gap.length() > 1000000) gaps.push_back(gap);
  IdleHostSamples samples = hostSamplesIn(db, *run.drivingThread(), gaps);
  ASSERT_GT(samples.samples, 100);
  EXPECT_NE(finding.explanation.find(" Its " + std::to_string(samples.samples) + " CPU samples in those gaps were in " +
                                     hostFunctionsText(samples) + "."),
            std::string::npos)
      << finding.explanation;
}

// A Python function reads as one function with the native code it ran beneath; a native one as itself.
TEST(IdleHostSamples, TextNamesEachFunctionWithItsTopLeaves) {
  IdleHostSamples samples;
  samples.samples = 12;
  samples.idlePoolSamples = 2;
  samples.top.push_back({"decode_batch (hostprep.py)",
                         "/src/hostprep.py",
                         8,
                         0.8,
                         {{"PyObject_Malloc", 5, 0.5}, {"_PyEval_EvalFrameDefault", 2, 0.2}, {"memcpy", 1, 0.1}},
                         {{"hostprep.py:7", 7, 0.7}, {"hostprep.py:6", 1, 0.1}}});
  samples.top.push_back({"sort", "/usr/lib/libc.so.6", 2, 0.2, {{"sort", 2, 0.2}}, {}});
  EXPECT_EQ(hostFunctionsText(samples),
            "decode_batch (hostprep.py) 80.0% (in PyObject_Malloc 50.0%, _PyEval_EvalFrameDefault 20.0%), sort "
            "(libc.so.6) 20.0% (and 2 in an idle thread pool's wait loop, counted apart)");
}

// Issue 40 walk-through: the hostprep verdict ended "<interpreter trampoline> (<shim>) 0.0% (in
// _PyEval_EvalFrameDefault 0.0%), main (hostprep.py) 0.0%": functions and leaves under 1% are left to the JSON.
TEST(IdleHostSamples, TextLeavesOutFunctionsAndLeavesUnderOnePercent) {
  IdleHostSamples samples;
  samples.samples = 1000;
  samples.top.push_back({"decode_batch (hostprep.py)",
                         "/src/hostprep.py",
                         990,
                         0.99,
                         {{"FLOAT_add", 985, 0.985}, {"memcpy", 5, 0.005}},
                         {{"hostprep.py:7", 990, 0.99}}});
  samples.top.push_back({"<interpreter trampoline>", "<shim>", 4, 0.004, {{"_PyEval_EvalFrameDefault", 4, 0.004}}, {}});
  EXPECT_EQ(hostFunctionsText(samples), "decode_batch (hostprep.py) 99.0% (in FLOAT_add 98.5%)");
}

TEST(IdleHostSamples, NoneWithoutSamplingTables) {
  Database db = Database::openReadOnly(std::string(GPUSCOPE_FIXTURES) + "/nsys/loader2.sqlite");
  Verdict verdict = runVerdict(db, loadVerdictInputs(db));
  EXPECT_EQ(verdict.evidence.idleHost.samples, 0);
  EXPECT_TRUE(verdict.evidence.idleHost.top.empty());
  EXPECT_EQ(verdictSentence(verdict).find("While the GPU idled"), std::string::npos);
}

}  // namespace
}  // namespace gpuscope
