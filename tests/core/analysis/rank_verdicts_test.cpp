// Communication as a verdict class and one verdict per rank: the collectives-alone time on a synthetic run
// where it is known, the class thresholds, and the two-rank DDP run on two H200s (tests/fixtures/ranks), where
// rank 1 does 15 ms of host work before each backward and rank 0 waits for it in its all-reduces.
#include "core/analysis/verdict/rank_verdicts.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "core/analysis/rule_registry.h"
#include "core/analysis/verdict/analysis_report.h"
#include "core/analysis/verdict/verdict_format.h"
#include "core/identity/hta_kernel_type.h"
#include "core/model/global_id.h"
#include "core/model/rank_table.h"
#include "core/model/trace_file.h"
#include "core/ranks/trace_merge.h"
#include "tests/core/analysis/synthetic_run.h"
#include "tests/core/testing/gz_fixture.h"
#include "tests/core/testing/time_units.h"

namespace gpuscope {
namespace {

using testing::kMs;
using testing::SyntheticRun;

const std::string kAllReduce = "ncclDevKernel_AllReduce_Sum_f32_RING_LL";

TEST(CommunicationClass, CollectivesAloneHalfTheBusyTimeMakeIt) {
  VerdictEvidence e;
  e.wallNs = 1000;
  e.gpuBusyNs = 800;
  e.kernelBusyNs = 800;
  e.hostThread = "main";
  e.collectiveOnlyNs = 400;
  EXPECT_EQ(classify(e), BottleneckClass::Communication);
  e.collectiveOnlyNs = 399;
  EXPECT_EQ(classify(e), BottleneckClass::GpuCompute);
  // Copies come first: a run busy mostly copying is transfer bound whatever its collectives did.
  e.collectiveOnlyNs = 400;
  e.copyBusyNs = 400;
  EXPECT_EQ(classify(e), BottleneckClass::Transfer);
  // A GPU idle most of the time is judged by what the host did, collectives or not.
  VerdictEvidence idle = e;
  idle.copyBusyNs = 0;
  idle.gpuBusyNs = 400;
  idle.idleCpuNs = 600;
  EXPECT_EQ(classify(idle), BottleneckClass::Cpu);
  EXPECT_EQ(bottleneckClassName(BottleneckClass::Communication), "communication");
}

// One step a millisecond: a 300 us compute kernel, then an all-reduce of 600 us that overlaps the compute
// kernel's last 100 us: collectives alone 500 us of each step, busy 800 us.
TEST(CommunicationClass, CollectivesAloneIsTheTimeNoComputeKernelRanBesideThem) {
  SyntheticRun run("allreduce");
  for (int step = 0; step < 10; ++step) {
    TimeNs base = step * kMs;
    run.launch("gemm", base + 1000, 5000, base + 10'000, 300'000);
    run.launch(kAllReduce, base + 7000, 5000, base + 210'000, 600'000);
  }
  Database db = openTraceFile(run.finish());
  VerdictInputs inputs = loadVerdictInputs(db);
  Verdict verdict = windowVerdict(inputs, {{0, 10 * kMs}});
  EXPECT_EQ(verdict.evidence.gpuBusyNs, 10 * 800'000);
  EXPECT_EQ(verdict.evidence.kernelBusyNs, 10 * 800'000);
  EXPECT_EQ(verdict.evidence.collectiveOnlyNs, 10 * 500'000);
  EXPECT_EQ(verdict.kind, BottleneckClass::Communication) << verdictSentence(verdict);
  EXPECT_NE(verdictSentence(verdict).find("Communication bound"), std::string::npos);
  auto json = verdictJson(verdict);
  EXPECT_EQ(json["evidence"]["gpu_busy_split"]["collectives_alone_ns"], 10 * 500'000);
  // One process: one rank, so no per-rank verdicts.
  EXPECT_TRUE(rankVerdicts(db, inputs).empty());
}

// Each test merges its own copy: ctest runs the tests of this file in parallel processes.
std::string ddpMerge() {
  std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::vector<std::string> inputs;
  for (int rank : {0, 1}) {
    std::string name = "rank" + std::to_string(rank) + ".sqlite";
    inputs.push_back(testing::gunzippedFixture(std::string(GPUSCOPE_FIXTURES) + "/ranks/nsys/" + name + ".gz",
                                               "rank_verdicts_" + test + "_" + name));
  }
  std::string path = (std::filesystem::path(::testing::TempDir()) / ("rank_verdicts_" + test + ".sqlite")).string();
  mergeTraces(inputs, path);
  return path;
}

// Collectives-alone time of one rank in [from, to), by a sweep over the rank's kernels independent of the
// verdict's interval sets: time where some NCCL kernel ran and no other kernel did.
TimeNs sweptCollectivesAlone(const Database& db, const RankRow& rank, TimeNs from, TimeNs to) {
  std::map<TimeNs, std::pair<int, int>> edges;  // time -> (collective delta, compute delta)
  auto kernels = db.prepare(
      "SELECT k.start, k.\"end\", s.value, k.globalPid FROM CUPTI_ACTIVITY_KIND_KERNEL k "
      "JOIN StringIds s ON s.id = coalesce(k.demangledName, k.shortName) WHERE k.start > 0");
  while (kernels.step()) {
    uint32_t hw = global_id::hw(kernels.int64(3));
    if (hw < rank.hwFirst || hw > rank.hwLast) continue;
    TimeNs start = std::max(kernels.int64(0), from), end = std::min(kernels.int64(1), to);
    if (end <= start) continue;
    bool collective = htaKernelType(kernels.text(2)) == HtaKernelType::Communication;
    (collective ? edges[start].first : edges[start].second) += 1;
    (collective ? edges[end].first : edges[end].second) -= 1;
  }
  TimeNs alone = 0, previous = from;
  int collectives = 0, compute = 0;
  for (const auto& [time, delta] : edges) {
    if (collectives > 0 && compute == 0) alone += time - previous;
    collectives += delta.first;
    compute += delta.second;
    previous = time;
  }
  return alone;
}

TEST(RankVerdicts, TheWaitingRankIsCommunicationBoundAndTheStragglerIsCpuBound) {
  Database db = openTraceFile(ddpMerge());
  VerdictInputs inputs = loadVerdictInputs(db);
  std::vector<RankVerdict> ranks = rankVerdicts(db, inputs);
  ASSERT_EQ(ranks.size(), 2u);
  EXPECT_EQ(ranks[0].rank, 0);
  EXPECT_EQ(ranks[1].rank, 1);
  EXPECT_EQ(ranks[0].verdict.kind, BottleneckClass::Communication) << verdictSentence(ranks[0].verdict);
  EXPECT_EQ(ranks[1].verdict.kind, BottleneckClass::Cpu) << verdictSentence(ranks[1].verdict);
  // Each rank is judged on its own host thread: two different processes.
  EXPECT_NE(ranks[0].verdict.evidence.pid, ranks[1].verdict.evidence.pid);

  std::vector<RankRow> rows = readRankRows(db);
  ASSERT_EQ(rows.size(), 2u);
  for (size_t r = 0; r < 2; ++r) {
    const VerdictEvidence& e = ranks[r].verdict.evidence;
    ASSERT_TRUE(ranks[r].verdict.judged.has_value());
    EXPECT_EQ(ranks[r].verdict.judged->source, JudgedWindow::Source::NvtxSteps) << ranks[r].label;
    EXPECT_EQ(e.collectiveOnlyNs, sweptCollectivesAlone(db, rows[r], e.windowStart, e.windowEnd)) << ranks[r].label;
    EXPECT_EQ(ranks[r].label.rfind("rank " + std::to_string(r), 0), 0u) << ranks[r].label;
  }
}

TEST(RankVerdicts, TheRanksPartsAddUpToTheWholeRun) {
  Database db = openTraceFile(ddpMerge());
  VerdictInputs inputs = loadVerdictInputs(db);
  std::vector<RankVerdict> ranks = rankVerdicts(db, inputs);
  ASSERT_EQ(ranks.size(), 2u);
  size_t ops = 0, kernels = 0, threads = 0;
  for (const RankVerdict& rank : ranks) {
    RunActivity part = activityOfProcesses(inputs.activity, rank.processes);
    ops += part.ops.size();
    kernels += part.kernels.size();
    threads += part.threads.size();
    EXPECT_LE(part.gpuBusy.length(), inputs.activity.gpuBusy.length());
  }
  EXPECT_EQ(ops, inputs.activity.ops.size());
  EXPECT_EQ(kernels, inputs.activity.kernels.size());
  EXPECT_EQ(threads, inputs.activity.threads.size());
}

// The pids of RANK's processes.
std::set<uint32_t> pidsOf(const RankVerdict& rank) {
  std::set<uint32_t> pids;
  for (int64_t process : rank.processes) pids.insert(global_id::pid(process));
  return pids;
}

const Finding* findingOf(const RankVerdict& rank, const std::string& ruleId) {
  for (const Finding& finding : rank.findings)
    if (finding.ruleId == ruleId) return &finding;
  return nullptr;
}

// Each rank's findings come from its own rows inside the window its verdict judged: every place lies on one of
// its processes, the GPU idles behind rank 1's host work and not behind rank 0's, and the straggler finding is
// rank 1's alone, naming it.
TEST(RankFindings, EachRankFindsOnItsOwnRowsInItsJudgedWindow) {
  AnalysisReport report = analyzeTraceFile(ddpMerge());
  ASSERT_EQ(report.ranks.size(), 2u);
  EXPECT_TRUE(report.findings.empty()) << "a file of ranks has its findings per rank";
  for (const RankVerdict& rank : report.ranks) {
    ASSERT_FALSE(rank.findings.empty()) << rank.label;
    TimeInterval window = rank.verdict.judged->window;
    for (const Finding& finding : rank.findings) {
      EXPECT_TRUE(finding.found()) << rank.label << " " << finding.ruleId;
      for (const FindingRange& place : finding.ranges) {
        EXPECT_TRUE(pidsOf(rank).count(place.pid)) << rank.label << " " << finding.ruleId << " pid " << place.pid;
        // The straggler's waits are matched over every rank's collectives, wherever they lie.
        if (finding.ruleId == "straggler") continue;
        EXPECT_GE(place.start, window.start) << rank.label << " " << finding.ruleId;
        EXPECT_LE(place.end, window.end) << rank.label << " " << finding.ruleId;
      }
    }
  }
  const RankVerdict& waiting = report.ranks[0];
  const RankVerdict& straggler = report.ranks[1];
  EXPECT_EQ(findingOf(waiting, "straggler"), nullptr);
  const Finding* late = findingOf(straggler, "straggler");
  ASSERT_NE(late, nullptr);
  EXPECT_EQ(late->explanation.rfind("rank 1 started ", 0), 0u) << late->explanation;
  EXPECT_EQ(findingOf(waiting, "gpu_waits_on_host"), nullptr);
  const Finding* starving = findingOf(straggler, "gpu_waits_on_host");
  ASSERT_NE(starving, nullptr);
  EXPECT_EQ(starving->ranges.front().pid, straggler.verdict.evidence.pid) << "its own driving thread";
}

// One rule narrowed to each rank's processes in turn: the rows differ, and each names only that rank's process;
// narrowed to no process, it is the whole file's.
TEST(RankFindings, ARuleNarrowedToARankReadsOnlyItsRows) {
  Database db = openTraceFile(ddpMerge());
  VerdictInputs inputs = loadVerdictInputs(db);
  std::vector<RankVerdict> ranks = rankVerdicts(db, inputs);
  ASSERT_EQ(ranks.size(), 2u);
  RuleRequest gaps = parseRuleRequest("gpu_gaps:gap=1:rows=-1");
  Finding whole = gaps.rule->run(db, gaps.options);
  size_t rows = 0;
  std::vector<std::set<int64_t>> pidsFound;
  for (const RankVerdict& rank : ranks) {
    Finding part = gaps.rule->run(db, gaps.options.scopedTo({rank.processes, std::nullopt}));
    ASSERT_TRUE(part.found()) << rank.label;
    std::set<int64_t> pids;
    for (const auto& row : part.evidence.rows) pids.insert(std::get<int64_t>(row.at(3)));
    EXPECT_EQ(pids.size(), 1u) << rank.label;
    EXPECT_TRUE(pidsOf(rank).count(static_cast<uint32_t>(*pids.begin()))) << rank.label;
    pidsFound.push_back(pids);
    rows += part.evidence.rows.size();
  }
  EXPECT_NE(pidsFound[0], pidsFound[1]);
  EXPECT_EQ(rows, whole.evidence.rows.size());
}

}  // namespace
}  // namespace gpuscope
