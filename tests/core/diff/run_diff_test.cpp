// RunDiff and RunAlignment on hand-made runs whose answers are worked out by hand, and on a real nsys export.
#include "core/diff/run_diff.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "core/diff/run_alignment.h"
#include "core/model/global_id.h"
#include "core/model/trace_loader.h"
#include "core/write/trace_writer.h"
#include "tests/core/stats/csv_text.h"

namespace gpuscope {
namespace {

using Kind = AlignmentAnchor::Kind;

namespace fs = std::filesystem;

const int64_t kGlobalPid = global_id::make(0, 0, 42, 0);
const int64_t kMainTid = global_id::make(0, 0, 42, 42);

struct KernelSpec {
  std::string name;
  TimeNs start;
  TimeNs end;
  uint32_t stream = 7;
  std::string demangled = {};  // empty: the short name
};

struct RangeSpec {
  std::string text;
  TimeNs start;
  TimeNs end;
  int64_t domain = 0;
};

struct RunSpec {
  std::vector<KernelSpec> kernels;
  std::vector<RangeSpec> ranges;
  std::vector<std::pair<TimeNs, int64_t>> copies;  // start (each lasts 100 ns), bytes
};

// Writes SPEC as a trace (each kernel launched by a cudaLaunchKernel call ending when it starts) and loads it.
std::unique_ptr<Trace> makeRun(const std::string& name, const RunSpec& spec) {
  auto path =
      (fs::path(::testing::TempDir()) / ("run_diff_" + std::to_string(::getpid()) + "_" + name + ".sqlite")).string();
  {
    TraceWriter w(path);
    w.addProcess({kGlobalPid, 42, "train"});
    w.addNvtxDomainCreate({1, kMainTid, 5, "lib"});
    uint32_t correlation = 1;
    for (const auto& k : spec.kernels) {
      w.addCudaApi({k.start - 10, k.start, CudaApiKind::Runtime, kMainTid, correlation, "cudaLaunchKernel_v7000", 0,
                    std::nullopt});
      KernelRow row;
      row.start = k.start;
      row.end = k.end;
      row.contextId = 1;
      row.streamId = k.stream;
      row.correlationId = correlation++;
      row.globalPid = kGlobalPid;
      row.demangledName = k.demangled.empty() ? k.name : k.demangled;
      row.shortName = k.name;
      w.addKernel(row);
    }
    for (const auto& [start, bytes] : spec.copies) {
      MemcpyRow copy;
      copy.start = start;
      copy.end = start + 100;
      copy.contextId = 1;
      copy.streamId = 7;
      copy.correlationId = correlation++;
      copy.globalPid = kGlobalPid;
      copy.bytes = bytes;
      copy.copyKind = 1;
      w.addMemcpy(copy);
    }
    for (const auto& r : spec.ranges) {
      NvtxRow row{.start = r.start, .end = r.end, .globalTid = kMainTid, .text = r.text, .domainId = r.domain};
      if (r.domain == 0) {
        w.addNvtxPushPopRange(row);
      } else {
        w.addNvtxStartEndRange(row);
      }
    }
    w.finish();
  }
  auto trace = loadTrace(path);
  fs::remove(path);
  return trace;
}

// Run A: gemm twice (100 ns each), relu (50), old (30); two "step" ranges and one "lib:io" range.
RunSpec runA() {
  return {{{"gemm", 1000, 1100}, {"relu", 1200, 1250}, {"old", 1300, 1330}, {"gemm", 2000, 2100}},
          {{"step", 900, 1400}, {"step", 1900, 2200}, {"io", 500, 600, 5}},
          {{600, 4096}}};
}

// Run B, 10 us later: gemm slower (150 ns each), relu unchanged, old gone, new added (40); the second step longer.
RunSpec runB() {
  return {{{"gemm", 11000, 11150}, {"relu", 11200, 11250}, {"new", 11300, 11340}, {"gemm", 12000, 12150}},
          {{"step", 10900, 11400}, {"step", 11900, 12300}, {"io", 10500, 10600, 5}},
          {{10600, 4096}, {10700, 1024}}};
}

TEST(RunDiff, MatchByNameSortsByChangeAndMarksOneSidedRows) {
  std::vector<NamedSide> a = {
      {"x", "x", {2, 100}, {}, {}}, {"gone", "gone", {1, 30}, {}, {}}, {"same", "same", {3, 90}, {}, {}}};
  std::vector<NamedSide> b = {
      {"same", "same", {3, 90}, {}, {}}, {"x", "x", {2, 40}, {}, {}}, {"added", "added", {4, 80}, {}, {}}};
  auto rows = matchByName(a, b);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].name, "added");  // +80
  EXPECT_EQ(rows[0].presence, DiffPresence::OnlyB);
  EXPECT_FALSE(rows[0].deltaTotalPercent().has_value());
  EXPECT_EQ(rows[1].name, "x");  // -60
  EXPECT_EQ(rows[1].deltaTotal(), -60);
  EXPECT_DOUBLE_EQ(*rows[1].deltaTotalPercent(), -60.0);
  EXPECT_DOUBLE_EQ(rows[1].deltaAverage(), -30.0);
  EXPECT_EQ(rows[2].name, "gone");  // -30
  EXPECT_EQ(rows[2].presence, DiffPresence::OnlyA);
  EXPECT_EQ(rows[2].b.count, 0);
  EXPECT_EQ(rows[3].name, "same");
  EXPECT_EQ(rows[3].presence, DiffPresence::Both);
  EXPECT_EQ(rows[3].deltaTotal(), 0);
}

TEST(RunDiff, EqualChangesPutTheLargerTotalFirst) {
  std::vector<NamedSide> a = {
      {"b", "b", {1, 10}, {}, {}}, {"a", "a", {1, 10}, {}, {}}, {"big", "big", {1, 500}, {}, {}}};
  auto rows = matchByName(a, a);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].name, "big");
  EXPECT_EQ(rows[1].name, "a");
  EXPECT_EQ(rows[2].name, "b");
}

TEST(RunDiff, HandMadeRunsGiveAddedRemovedAndSlowerKernels) {
  auto a = makeRun("a", runA());
  auto b = makeRun("b", runB());
  auto diff = diffRuns(*a, *b, DiffBy::Kernel);
  ASSERT_EQ(diff.rows.size(), 4u);
  EXPECT_EQ(diff.rows[0].name, "gemm");
  EXPECT_EQ(diff.rows[0].presence, DiffPresence::Both);
  EXPECT_EQ(diff.rows[0].a.count, 2);
  EXPECT_EQ(diff.rows[0].b.count, 2);
  EXPECT_EQ(diff.rows[0].a.total, 200);
  EXPECT_EQ(diff.rows[0].b.total, 300);
  EXPECT_EQ(diff.rows[0].deltaTotal(), 100);
  EXPECT_DOUBLE_EQ(*diff.rows[0].deltaTotalPercent(), 50.0);
  EXPECT_DOUBLE_EQ(diff.rows[0].deltaAverage(), 50.0);
  EXPECT_EQ(diff.rows[1].name, "new");
  EXPECT_EQ(diff.rows[1].presence, DiffPresence::OnlyB);
  EXPECT_EQ(diff.rows[1].b.total, 40);
  EXPECT_EQ(diff.rows[1].a.count, 0);
  EXPECT_EQ(diff.rows[2].name, "old");
  EXPECT_EQ(diff.rows[2].presence, DiffPresence::OnlyA);
  EXPECT_EQ(diff.rows[2].deltaTotal(), -30);
  EXPECT_DOUBLE_EQ(*diff.rows[2].deltaTotalPercent(), -100.0);
  EXPECT_EQ(diff.rows[3].name, "relu");
  EXPECT_EQ(diff.rows[3].deltaTotal(), 0);
  EXPECT_EQ(diff.rows[3].timelineName, "relu");
}

TEST(RunDiff, HandMadeRunsGiveNvtxRowsInNsysNaming) {
  auto a = makeRun("a", runA());
  auto b = makeRun("b", runB());
  auto diff = diffRuns(*a, *b, DiffBy::Nvtx);
  ASSERT_EQ(diff.rows.size(), 2u);
  EXPECT_EQ(diff.rows[0].name, ":step");
  EXPECT_EQ(diff.rows[0].timelineName, "step");
  EXPECT_EQ(diff.rows[0].a.total, 800);
  EXPECT_EQ(diff.rows[0].b.total, 900);
  EXPECT_EQ(diff.rows[0].a.count, 2);
  EXPECT_EQ(diff.rows[1].name, "lib:io");
  EXPECT_EQ(diff.rows[1].timelineName, "io");
  EXPECT_EQ(diff.rows[1].deltaTotal(), 0);
}

TEST(RunDiff, NvtxRowInstancesAreTheRangesOfItsText) {
  auto a = makeRun("a", runA());
  auto diff = diffRuns(*a, *a, DiffBy::Nvtx);
  ASSERT_EQ(diff.rows.size(), 2u);
  auto steps = rowInstances(*a, diff.rows[0], DiffBy::Nvtx);
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(a->start(steps[1]), 1900);
  auto io = rowInstances(*a, diff.rows[1], DiffBy::Nvtx);
  ASSERT_EQ(io.size(), 1u);
  EXPECT_EQ(a->end(io[0]), 600);
}

TEST(RunDiff, SummaryOfHandMadeRuns) {
  auto a = makeRun("a", runA());
  auto b = makeRun("b", runB());
  RunTotals ta = runTotals(*a);
  EXPECT_EQ(ta.span, 2200 - 500);  // the io range starts first, the second step ends last
  EXPECT_EQ(ta.kernelTime, 280);
  EXPECT_EQ(ta.kernelCount, 4);
  EXPECT_EQ(ta.memcpyTime, 100);
  EXPECT_EQ(ta.memcpyCount, 1);
  EXPECT_EQ(ta.memcpyBytes, 4096);
  EXPECT_EQ(ta.gpuTime, 380);
  EXPECT_EQ(ta.gpuBusy, 380);  // nothing overlaps
  EXPECT_EQ(ta.cudaApiTime, 40);
  EXPECT_EQ(ta.cudaApiCount, 4);
  RunTotals tb = runTotals(*b);
  EXPECT_EQ(tb.memcpyBytes, 5120);
  EXPECT_EQ(tb.memcpyTime, 200);
  EXPECT_EQ(tb.kernelTime, 390);

  auto summary = compareTotals(ta, tb);
  ASSERT_FALSE(summary.empty());
  EXPECT_EQ(summary[0].name, "Wall span");
  for (const auto& metric : summary) {
    if (metric.name == "Memcpy bytes") {
      EXPECT_DOUBLE_EQ(metric.delta(), 1024.0);
      EXPECT_DOUBLE_EQ(*metric.deltaPercent(), 25.0);
    }
    if (metric.name == "GPU busy share") {
      EXPECT_DOUBLE_EQ(metric.a, 100.0 * 380.0 / 1700.0);
    }
  }
}

TEST(RunDiff, OverlappingGpuWorkCountsOnceInBusyTime) {
  RunSpec spec{{{"k1", 1000, 1100, 7}, {"k2", 1050, 1200, 8}}, {}, {}};
  auto run = makeRun("overlap", spec);
  RunTotals totals = runTotals(*run);
  EXPECT_EQ(totals.gpuTime, 250);
  EXPECT_EQ(totals.gpuBusy, 200);
}

TEST(RunDiff, FixtureDiffedWithItselfIsAllZeros) {
  auto a = loadTrace(std::string(GPUSCOPE_FIXTURES) + "/nsys/transpose.sqlite");
  auto b = loadTrace(std::string(GPUSCOPE_FIXTURES) + "/nsys/transpose.sqlite");
  for (DiffBy by : {DiffBy::Kernel, DiffBy::DemangledKernel, DiffBy::Nvtx}) {
    auto diff = diffRuns(*a, *b, by);
    if (by != DiffBy::Nvtx) {
      EXPECT_FALSE(diff.rows.empty());
    }
    for (const auto& row : diff.rows) {
      EXPECT_EQ(row.presence, DiffPresence::Both) << row.name;
      EXPECT_EQ(row.deltaTotal(), 0) << row.name;
      EXPECT_EQ(row.deltaCount(), 0) << row.name;
      EXPECT_GT(row.a.count, 0) << row.name;
      if (row.a.total > 0) {
        EXPECT_DOUBLE_EQ(*row.deltaTotalPercent(), 0.0) << row.name;
      }
    }
    for (const auto& metric : diff.summary) {
      EXPECT_EQ(metric.delta(), 0.0) << metric.name;
      EXPECT_GT(metric.a, 0.0) << metric.name;
    }
  }
}

TEST(RunDiff, DemangledNamesKeepTemplateInstancesApart) {
  RunSpec a{{{"gemm", 1000, 1100, 7, "gemm<float>"}, {"gemm", 1200, 1250, 7, "gemm<half>"}}, {}, {}};
  RunSpec b{{{"gemm", 1000, 1100, 7, "gemm<float>"}, {"gemm", 1200, 1220, 7, "gemm<half>"}}, {}, {}};
  auto ta = makeRun("ta", a);
  auto tb = makeRun("tb", b);
  auto byShort = diffRuns(*ta, *tb, DiffBy::Kernel);
  ASSERT_EQ(byShort.rows.size(), 1u);
  EXPECT_EQ(byShort.rows[0].deltaTotal(), -30);
  auto byDemangled = diffRuns(*ta, *tb, DiffBy::DemangledKernel);
  ASSERT_EQ(byDemangled.rows.size(), 2u);
  EXPECT_EQ(byDemangled.rows[0].name, "gemm<half>");
  EXPECT_EQ(byDemangled.rows[0].timelineName, "gemm");
  EXPECT_EQ(byDemangled.rows[0].a.total, 50);
  EXPECT_EQ(byDemangled.rows[0].b.total, 20);
  EXPECT_EQ(byDemangled.rows[1].name, "gemm<float>");
  EXPECT_EQ(byDemangled.rows[1].deltaTotal(), 0);

  // Instances of a row: the demangled name picks one template instance; the short name takes both.
  auto half = rowInstances(*ta, byDemangled.rows[0], DiffBy::DemangledKernel);
  ASSERT_EQ(half.size(), 1u);
  EXPECT_EQ(ta->start(half[0]), 1200);
  auto all = rowInstances(*tb, byShort.rows[0], DiffBy::Kernel);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(tb->start(all[0]), 1000);
  EXPECT_EQ(tb->start(all[1]), 1200);
}

// By demangled name, a run's side is nsys's cuda_gpu_kern_sum: same names, instances and totals.
TEST(RunDiff, DemangledSidesMatchNsysKernelSummary) {
  auto trace = loadTrace(std::string(GPUSCOPE_FIXTURES) + "/nsys/loader2.sqlite");
  auto csv =
      test::parseCsv(test::readFile(std::string(GPUSCOPE_FIXTURES) + "/nsys/loader2_stats_cuda_gpu_kern_sum.csv"));
  ASSERT_GT(csv.size(), 1u);
  auto diff = diffRuns(*trace, *trace, DiffBy::DemangledKernel);
  ASSERT_EQ(diff.rows.size(), csv.size() - 1);
  for (size_t i = 1; i < csv.size(); ++i) {
    const auto& name = csv[i][8];
    auto row = std::find_if(diff.rows.begin(), diff.rows.end(), [&](const DiffRow& r) { return r.name == name; });
    ASSERT_NE(row, diff.rows.end()) << name;
    EXPECT_EQ(row->a.total, std::stoll(csv[i][1])) << name;
    EXPECT_EQ(row->a.count, std::stoll(csv[i][2])) << name;
    EXPECT_EQ(row->deltaTotal(), 0) << name;
  }
}

TEST(RunAlignment, MapsTimesBothWays) {
  RunAlignment alignment = alignAt(1900, 11900, 0);
  EXPECT_EQ(alignment.offset, -10000);
  EXPECT_EQ(alignment.bToA(11900), 1900);
  EXPECT_EQ(alignment.bToA(12345), 2345);
  EXPECT_EQ(alignment.aToB(2345), 12345);
  RunAlignment shifted = alignAt(1900, 11900, 50);
  EXPECT_EQ(shifted.bToA(11900), 1950);
  EXPECT_EQ(shifted.aToB(1950), 11900);
  RunAlignment backwards = alignAt(100, 50, -25);
  EXPECT_EQ(backwards.bToA(50), 75);
}

TEST(RunAlignment, AnchorsPickTheNamedInstance) {
  auto a = makeRun("a", runA());
  auto b = makeRun("b", runB());
  EXPECT_EQ(anchorTime(*a, {Kind::Start, "", 0}), 500);
  EXPECT_EQ(anchorTime(*b, {Kind::Start, "", 0}), 10500);
  EXPECT_EQ(anchorTime(*a, {Kind::NvtxRange, "step", 1}), 1900);
  EXPECT_EQ(anchorTime(*a, {Kind::NvtxRange, ":step", 0}), 900);
  EXPECT_EQ(anchorTime(*b, {Kind::NvtxRange, "lib:io", 0}), 10500);
  EXPECT_EQ(anchorTime(*a, {Kind::Kernel, "gemm", 1}), 2000);
  EXPECT_FALSE(anchorTime(*a, {Kind::Kernel, "gemm", 2}).has_value());
  EXPECT_FALSE(anchorTime(*a, {Kind::Kernel, "new", 0}).has_value());
  EXPECT_FALSE(anchorTime(*a, {Kind::Kernel, "step", 0}).has_value());  // a range, not a kernel

  auto byStep = alignRuns(*a, {Kind::NvtxRange, "step", 1}, *b, {Kind::NvtxRange, "step", 1}, 0);
  ASSERT_TRUE(byStep.has_value());
  EXPECT_EQ(byStep->bToA(11900), 1900);
  EXPECT_EQ(byStep->bToA(12000), 2000);  // B's second gemm sits where A's does
  auto byKernel = alignRuns(*a, {Kind::Kernel, "gemm", 0}, *b, {Kind::Kernel, "gemm", 1}, 7);
  ASSERT_TRUE(byKernel.has_value());
  EXPECT_EQ(byKernel->offset, 1000 - 12000 + 7);
  EXPECT_EQ(byKernel->bToA(12000), 1007);
  auto byStart = alignRuns(*a, {}, *b, {}, 0);
  ASSERT_TRUE(byStart.has_value());
  EXPECT_EQ(byStart->offset, -10000);
  EXPECT_FALSE(alignRuns(*a, {Kind::Kernel, "missing", 0}, *b, {}, 0).has_value());
}

TEST(RunAlignment, CandidatesAreSortedStarts) {
  auto a = makeRun("a", runA());
  EXPECT_EQ(anchorCandidates(*a, AlignmentAnchor::Kind::Kernel, "gemm"), (std::vector<TimeNs>{1000, 2000}));
  EXPECT_EQ(anchorCandidates(*a, AlignmentAnchor::Kind::NvtxRange, "step"), (std::vector<TimeNs>{900, 1900}));
  EXPECT_TRUE(anchorCandidates(*a, AlignmentAnchor::Kind::Start, "gemm").empty());
}

}  // namespace
}  // namespace gpuscope
