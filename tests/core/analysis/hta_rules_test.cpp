// Holistic Trace Analysis's breakdowns as analyze rules: on the PyTorch profiler fixture they give
// the rows HTA 0.5.0 printed (tests/fixtures/kineto/loader2_kineto_hta_*.csv), and on small hand-made
// traces they follow HTA's definitions: its microsecond grid, interval merging, idle categories,
// launch statistics, ranks and options.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/analysis/finding_format.h"
#include "core/analysis/hta/hta_rule_support.h"
#include "core/analysis/hta/hta_trace.h"
#include "core/analysis/hta/stream_idle_time.h"
#include "core/analysis/rule_registry.h"
#include "core/error.h"
#include "core/identity/hta_kernel_type.h"
#include "core/model/global_id.h"
#include "core/model/trace_file.h"
#include "core/open/open_trace.h"
#include "core/write/trace_writer.h"
#include "tests/core/testing/test_files.h"
#include "tests/core/testing/time_units.h"

namespace gpuscope {
namespace {

using testing::fixturePath;
using testing::readWholeFile;

using CsvRows = std::vector<std::vector<std::string>>;

CsvRows parseCsv(const std::string& text) {
  CsvRows rows;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::vector<std::string> cells;
    std::istringstream fields(line);
    std::string cell;
    while (std::getline(fields, cell, ',')) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.emplace_back();
    rows.push_back(cells);
  }
  return rows;
}

Finding runRule(const Database& db, const std::string& spec) {
  return runAnalysis(db, {parseRuleRequest(spec)}).front();
}

Finding runOnFile(const std::string& path, const std::string& spec) {
  Database db = openTrace(path).connect();
  return runRule(db, spec);
}

// Our CSV against HTA's: the same header, the same rows (matched by the first KEYS columns, since HTA
// lists rows in the order events sit in the JSON, which a trace file does not keep), time columns
// within 1 us and every other column equal.
void expectSameRows(const std::string& ours, const std::string& hta, size_t keys, const std::vector<size_t>& times) {
  CsvRows mine = parseCsv(ours), theirs = parseCsv(hta);
  ASSERT_FALSE(theirs.empty());
  ASSERT_FALSE(mine.empty());
  EXPECT_EQ(mine.front(), theirs.front());
  ASSERT_EQ(mine.size(), theirs.size());
  auto keyOf = [keys](const std::vector<std::string>& row) {
    return std::vector<std::string>(row.begin(), row.begin() + keys);
  };
  std::map<std::vector<std::string>, std::vector<std::string>> byKey;
  for (size_t i = 1; i < mine.size(); ++i) byKey[keyOf(mine[i])] = mine[i];
  ASSERT_EQ(byKey.size(), mine.size() - 1) << "keys repeat";
  for (size_t i = 1; i < theirs.size(); ++i) {
    const auto& expected = theirs[i];
    auto found = byKey.find(keyOf(expected));
    ASSERT_NE(found, byKey.end()) << "no row for " << expected[0] << "," << expected[1];
    const auto& actual = found->second;
    ASSERT_EQ(actual.size(), expected.size());
    for (size_t c = keys; c < expected.size(); ++c) {
      bool time = std::find(times.begin(), times.end(), c) != times.end();
      if (time) {
        EXPECT_NEAR(std::stod(actual[c]), std::stod(expected[c]), 1.0) << "row " << i << " column " << c;
      } else if (expected[c].empty() || actual[c].empty()) {
        EXPECT_EQ(actual[c], expected[c]) << "row " << i << " column " << c;
      } else {
        EXPECT_DOUBLE_EQ(std::stod(actual[c]), std::stod(expected[c])) << "row " << i << " column " << c;
      }
    }
  }
}

// The CSV's lines, header first, rows sorted: equal when every row is the same text.
std::vector<std::string> sortedLines(const std::string& csv) {
  std::vector<std::string> lines;
  std::istringstream stream(csv);
  std::string line;
  while (std::getline(stream, line)) lines.push_back(line);
  if (!lines.empty()) std::sort(lines.begin() + 1, lines.end());
  return lines;
}

const std::string kKineto = "kineto/loader2_kineto.json.gz";

TEST(HtaFixture, TemporalBreakdownMatchesHta) {
  std::string ours = findingCsv(runOnFile(fixturePath(kKineto), "temporal_breakdown"));
  std::string hta = readWholeFile(fixturePath("kineto/loader2_kineto_hta_temporal_breakdown.csv"));
  expectSameRows(ours, hta, 1, {1, 2, 3, 4});
  EXPECT_EQ(ours, hta);  // one row: byte for byte
}

// The two-rank DDP run (tests/fixtures/ranks): one PyTorch profiler trace per rank, ten ProfilerSteps each.
// HTA analyzes the iterations traced whole (the last step's launches are left out) and printed these
// figures per rank (tests/fixtures/ranks/hta_reference.json).
TEST(HtaFixture, TemporalBreakdownOfEachDdpRankMatchesHta) {
  auto reference = nlohmann::json::parse(readWholeFile(fixturePath("ranks/hta_reference.json")));
  for (std::string rank : {"0", "1"}) {
    SCOPED_TRACE("rank " + rank);
    std::string ours =
        findingCsv(runOnFile(fixturePath("ranks/kineto/rank" + rank + ".json.gz"), "temporal_breakdown"));
    CsvRows rows = parseCsv(ours);
    ASSERT_EQ(rows.size(), 2u) << ours;
    const auto& expected = reference["ranks"][rank]["temporal_breakdown"];
    const std::vector<std::string> columns = {"idle_time(us)",        "compute_time(us)", "non_compute_time(us)",
                                              "kernel_time(us)",      "idle_time_pctg",   "compute_time_pctg",
                                              "non_compute_time_pctg"};
    EXPECT_EQ(rows[1][0], rank);
    for (size_t c = 0; c < columns.size(); ++c) {
      EXPECT_EQ(rows[0][c + 1], columns[c]);
      double tolerance = c < 4 ? 1.0 : 0.01;  // 1 us; 0.01 points
      EXPECT_NEAR(std::stod(rows[1][c + 1]), expected[columns[c]].get<double>(), tolerance) << columns[c];
    }
  }
}

// And the share of each rank's communication time that computation overlapped (get_comm_comp_overlap).
TEST(HtaFixture, CommCompOverlapOfEachDdpRankMatchesHta) {
  auto reference = nlohmann::json::parse(readWholeFile(fixturePath("ranks/hta_reference.json")));
  for (std::string rank : {"0", "1"}) {
    SCOPED_TRACE("rank " + rank);
    std::string ours = findingCsv(runOnFile(fixturePath("ranks/kineto/rank" + rank + ".json.gz"), "comm_comp_overlap"));
    CsvRows rows = parseCsv(ours);
    ASSERT_EQ(rows.size(), 2u) << ours;
    EXPECT_EQ(rows[0], (std::vector<std::string>{"rank", "comp_comm_overlap_pctg"}));
    EXPECT_EQ(rows[1][0], rank);
    EXPECT_NEAR(std::stod(rows[1][1]),
                reference["ranks"][rank]["comm_comp_overlap"]["comp_comm_overlap_pctg"].get<double>(), 0.01);
  }
  // A run without communication kernels has nothing to overlap.
  EXPECT_FALSE(runOnFile(fixturePath(kKineto), "comm_comp_overlap").found());
}

TEST(HtaFixture, IdleTimeBreakdownMatchesHta) {
  std::string ours = findingCsv(runOnFile(fixturePath(kKineto), "idle_time_breakdown"));
  std::string hta = readWholeFile(fixturePath("kineto/loader2_kineto_hta_idle_time_breakdown.csv"));
  expectSameRows(ours, hta, 3, {3});
  EXPECT_EQ(sortedLines(ours), sortedLines(hta));  // and every row's text, in another order
}

TEST(HtaFixture, KernelLaunchStatsMatchHta) {
  Finding finding = runOnFile(fixturePath(kKineto), "kernel_launch_stats");
  EXPECT_EQ(finding.evidence.rows.size(), 1067u);
  std::string ours = findingCsv(finding);
  std::string hta = readWholeFile(fixturePath("kineto/loader2_kineto_hta_kernel_launch_stats.csv"));
  expectSameRows(ours, hta, 1, {1, 2, 3});
  EXPECT_EQ(sortedLines(ours), sortedLines(hta));
}

// The same program recorded by nsys: another run, so other figures, but the same launches and HTA's sums hold.
TEST(HtaFixture, NsysExportOfTheSameProgram) {
  Database db = openTraceFile(fixturePath("nsys/loader2.sqlite"));
  EXPECT_EQ(runRule(db, "kernel_launch_stats").evidence.rows.size(), 1067u);
  Finding temporal = runRule(db, "temporal_breakdown");
  ASSERT_EQ(temporal.evidence.rows.size(), 1u);
  const auto& row = temporal.evidence.rows[0];
  EXPECT_DOUBLE_EQ(std::get<double>(row[1]) + std::get<double>(row[2]) + std::get<double>(row[3]),
                   std::get<double>(row[4]));
  Finding idle = runRule(db, "idle_time_breakdown");
  std::vector<std::string> streams;
  for (const auto& cells : idle.evidence.rows) streams.push_back(std::to_string(std::get<int64_t>(cells[1])));
  EXPECT_EQ(streams.front(), "7");
  EXPECT_EQ(streams.back(), "30");
}

// --- hand-made traces -----------------------------------------------------------------------------

using testing::kUs;

// A trace file written with TraceWriter, removed when the test ends.
class TinyTrace {
 public:
  TinyTrace()
      : path_((std::filesystem::temp_directory_path() /
               ("hta_rules_" + std::to_string(::getpid()) + "_" + std::to_string(counter()++) + ".sqlite"))
                  .string()),
        writer_(path_) {}
  ~TinyTrace() { std::filesystem::remove(path_); }

  // A kernel of process PID on STREAM and the cudaLaunchKernel call on thread PID that launched it.
  void launch(uint32_t pid, uint32_t stream, TimeNs callStart, TimeNs callEnd, TimeNs start, TimeNs end,
              std::string_view name = "gemm(float*)", std::string_view api = "cudaLaunchKernel_v7000") {
    uint32_t correlation = nextCorrelation_++;
    call(pid, callStart, callEnd, correlation, api);
    kernel(pid, stream, start, end, correlation, name);
  }
  void kernel(uint32_t pid, uint32_t stream, TimeNs start, TimeNs end, uint32_t correlation,
              std::string_view name = "gemm(float*)") {
    KernelRow row;
    row.start = start;
    row.end = end;
    row.streamId = stream;
    row.correlationId = correlation;
    row.globalPid = global_id::make(0, 0, pid, 0);
    row.demangledName = name;
    row.shortName = name;
    writer_.addKernel(row);
  }
  void memcpy(uint32_t pid, uint32_t stream, TimeNs callStart, TimeNs callEnd, TimeNs start, TimeNs end) {
    uint32_t correlation = nextCorrelation_++;
    call(pid, callStart, callEnd, correlation, "cudaMemcpyAsync_v3020");
    MemcpyRow row;
    row.start = start;
    row.end = end;
    row.streamId = stream;
    row.correlationId = correlation;
    row.globalPid = global_id::make(0, 0, pid, 0);
    row.bytes = 4096;
    writer_.addMemcpy(row);
  }
  void call(uint32_t pid, TimeNs start, TimeNs end, uint32_t correlation, std::string_view api) {
    writer_.addCudaApi({start, end, CudaApiKind::Runtime, global_id::make(0, 0, pid, pid), correlation, api, 0, {}});
  }
  void meta(std::string_view name, std::string_view value) { writer_.addMeta(name, value); }
  Database open() {
    writer_.finish();
    return Database::openReadOnly(path_);
  }

 private:
  static int& counter() {
    static int value = 0;
    return value;
  }
  std::string path_;
  TraceWriter writer_;
  uint32_t nextCorrelation_ = 1;
};

double cellReal(const ReportCell& cell) { return std::get<double>(cell); }

TEST(HtaGrid, StartsRoundUpAndEndsDown) {
  EXPECT_EQ(htaStartUs(2000), 2);
  EXPECT_EQ(htaStartUs(2001), 3);
  EXPECT_EQ(htaEndUs(2999), 2);
  EXPECT_EQ(htaStartUs(-1500), -1);
  EXPECT_EQ(htaEndUs(-1500), -2);
  // 1.2 us to 1.7 us lasts -1 us on HTA's grid.
  EXPECT_EQ(htaEndUs(1700) - htaStartUs(1200), -1);
}

TEST(HtaKernelTypes, ByNameAsHtaSortsThem) {
  EXPECT_EQ(htaKernelType("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"),
            HtaKernelType::Communication);
  EXPECT_EQ(htaKernelType("Memcpy HtoD (Pageable -> Device)"), HtaKernelType::Memory);
  EXPECT_EQ(htaKernelType("Memset (Device)"), HtaKernelType::Memory);
  EXPECT_EQ(htaKernelType("dma_copy"), HtaKernelType::Memory);
  EXPECT_EQ(htaKernelType("void at::native::vectorized_elementwise_kernel<4>(int)"), HtaKernelType::Computation);
  EXPECT_EQ(htaKernelType("ncclSetup"), HtaKernelType::Computation);  // nccl without "Kernel"
  EXPECT_EQ(htaKernelType("cub::DeviceMemcpy::BatchMemcpyKernel"), HtaKernelType::Other);
  EXPECT_EQ(htaKernelType("gridSyncKernel"), HtaKernelType::Other);
  EXPECT_STREQ(htaKernelTypeName(HtaKernelType::Computation), "COMPUTATION");
}

TEST(HtaFormat, NumbersPrintAsPandasPrintsThem) {
  EXPECT_EQ(cellText(1974919.0, htaColumn("t")), "1974919.0");
  EXPECT_EQ(cellText(0.57, htaColumn("t")), "0.57");
  EXPECT_EQ(cellText(-1.0, htaColumn("t")), "-1.0");
  EXPECT_EQ(cellText(htaRealCell(std::nan("")), htaColumn("t")), "");
  EXPECT_DOUBLE_EQ(roundLikePandas(0.125, 2), 0.12);  // half to even
  EXPECT_DOUBLE_EQ(roundLikePandas(99.6895, 2), 99.69);
}

TEST(HtaRules, EmptyTraceFindsNothing) {
  TinyTrace trace;
  trace.call(1, 0, 10 * kUs, 1, "cudaMalloc_v3020");
  Database db = trace.open();
  for (const char* rule : {"temporal_breakdown", "idle_time_breakdown", "kernel_launch_stats"}) {
    Finding finding = runRule(db, rule);
    EXPECT_FALSE(finding.found()) << rule;
    EXPECT_EQ(findingCsv(finding), "") << rule;
  }
  EXPECT_TRUE(classifyStreamIdleTime(db).empty());
}

TEST(HtaRules, SingleKernel) {
  TinyTrace trace;
  trace.launch(1, 7, 0, 5 * kUs, 8 * kUs, 20 * kUs);
  Database db = trace.open();
  EXPECT_EQ(findingCsv(runRule(db, "temporal_breakdown")),
            "rank,idle_time(us),compute_time(us),non_compute_time(us),kernel_time(us),idle_time_pctg,"
            "compute_time_pctg,non_compute_time_pctg\n0,0.0,12.0,0.0,12.0,0.0,100.0,0.0\n");
  // HTA lists "other" for every stream (its first operation's gap), with no ratio when the stream never idled.
  EXPECT_EQ(findingCsv(runRule(db, "idle_time_breakdown")),
            "rank,stream,idle_category,idle_time,idle_time_ratio\n0,7,other,0.0,\n");
  EXPECT_EQ(findingCsv(runRule(db, "kernel_launch_stats")),
            "correlation,cpu_duration,gpu_duration,launch_delay\n1,5.0,12.0,3.0\n");
}

// Stream 1: a kernel 0-10 us, a copy 30-40 us, a kernel 50-60 us; stream 2: a kernel 5-20 us that
// overlaps the first. Busy 0-20, 30-40, 50-60 of a 60 us span: 20 idle; computation covers 0-20 and
// 50-60: 30; the copy 10 us of non-compute.
TEST(HtaRules, TemporalBreakdownMergesOverlapsAcrossStreams) {
  TinyTrace trace;
  trace.launch(1, 1, 0, 1 * kUs, 0, 10 * kUs);
  trace.launch(1, 2, 1 * kUs, 2 * kUs, 5 * kUs, 20 * kUs);
  trace.memcpy(1, 1, 2 * kUs, 3 * kUs, 30 * kUs, 40 * kUs);
  trace.launch(1, 1, 3 * kUs, 4 * kUs, 50 * kUs, 60 * kUs);
  Database db = trace.open();
  Finding finding = runRule(db, "temporal_breakdown");
  ASSERT_EQ(finding.evidence.rows.size(), 1u);
  const auto& row = finding.evidence.rows[0];
  EXPECT_EQ(cellReal(row[1]), 20.0);
  EXPECT_EQ(cellReal(row[2]), 30.0);
  EXPECT_EQ(cellReal(row[3]), 10.0);
  EXPECT_EQ(cellReal(row[4]), 60.0);
  EXPECT_EQ(cellReal(row[5]), 33.33);
  EXPECT_EQ(cellReal(row[6]), 50.0);
  EXPECT_EQ(cellReal(row[7]), 16.67);
  ASSERT_EQ(finding.ranges.size(), 1u);
  EXPECT_EQ(finding.ranges[0].start, 0);
  EXPECT_EQ(finding.ranges[0].end, 60 * kUs);
}

// One stream, four kernels. Before the second the host was late (its call began at 15 us, after the
// first ended at 10 us): host wait 10 us. The third was launched in time, 5 us after the second:
// kernel wait. The fourth, launched in time, waited 100 us: other.
TEST(HtaRules, IdleCategories) {
  TinyTrace trace;
  trace.launch(1, 7, 0, 1 * kUs, 2 * kUs, 10 * kUs);
  trace.launch(1, 7, 15 * kUs, 16 * kUs, 20 * kUs, 30 * kUs);
  trace.launch(1, 7, 17 * kUs, 18 * kUs, 35 * kUs, 40 * kUs);
  trace.launch(1, 7, 19 * kUs, 21 * kUs, 140 * kUs, 150 * kUs);
  Database db = trace.open();
  EXPECT_EQ(findingCsv(runRule(db, "idle_time_breakdown")),
            "rank,stream,idle_category,idle_time,idle_time_ratio\n"
            "0,7,host_wait,10.0,0.09\n0,7,kernel_wait,5.0,0.04\n0,7,other,100.0,0.87\n");
  // A threshold above 100 us makes the last gap a kernel wait.
  EXPECT_EQ(findingCsv(runRule(db, "idle_time_breakdown:consecutive_kernel_delay=101")),
            "rank,stream,idle_category,idle_time,idle_time_ratio\n"
            "0,7,host_wait,10.0,0.09\n0,7,kernel_wait,105.0,0.91\n0,7,other,0.0,0.0\n");

  std::vector<StreamIdleInterval> gaps = classifyStreamIdleTime(db);
  ASSERT_EQ(gaps.size(), 3u);
  EXPECT_EQ(gaps[0].category, StreamIdleCategory::HostWait);
  EXPECT_EQ(gaps[0].startNs, 10 * kUs);
  EXPECT_EQ(gaps[0].endNs, 20 * kUs);
  EXPECT_EQ(gaps[0].idleUs, 10);
  ASSERT_TRUE(gaps[0].launch.has_value());
  EXPECT_EQ(gaps[0].launch->tid, 1u);
  EXPECT_EQ(gaps[0].launch->startNs, 15 * kUs);
  EXPECT_EQ(gaps[1].category, StreamIdleCategory::KernelWait);
  EXPECT_EQ(gaps[2].category, StreamIdleCategory::Other);
  EXPECT_STREQ(streamIdleCategoryName(gaps[2].category), "other");

  Finding finding = runRule(db, "idle_time_breakdown");
  ASSERT_EQ(finding.ranges.size(), 1u);  // the host wait
  EXPECT_EQ(finding.ranges[0].start, 10 * kUs);
  EXPECT_EQ(finding.ranges[0].streamId, 7u);
}

// Kernels overlapping on one stream: HTA takes the gap from the previous kernel's end in start order,
// so it is negative, and shorter than the threshold: kernel wait.
TEST(HtaRules, OverlapOnOneStreamGivesANegativeKernelWait) {
  TinyTrace trace;
  trace.launch(1, 3, 0, 1 * kUs, 2 * kUs, 20 * kUs);
  trace.launch(1, 3, 1 * kUs, 2 * kUs, 5 * kUs, 8 * kUs);
  Database db = trace.open();
  std::vector<StreamIdleInterval> gaps = classifyStreamIdleTime(db);
  ASSERT_EQ(gaps.size(), 1u);
  EXPECT_EQ(gaps[0].idleUs, -15);
  EXPECT_EQ(gaps[0].category, StreamIdleCategory::KernelWait);
  // Merged, the two are one 18 us span of computation.
  Finding temporal = runRule(db, "temporal_breakdown");
  EXPECT_EQ(cellReal(temporal.evidence.rows[0][2]), 18.0);
  EXPECT_EQ(cellReal(temporal.evidence.rows[0][1]), 0.0);
}

// A kernel shorter than a microsecond lasts -1 us on HTA's grid; alone in its merged span it takes
// 1 us off the busy time, so idle time exceeds the gap, as in HTA.
TEST(HtaRules, SubMicrosecondKernelOnHtaGrid) {
  TinyTrace trace;
  trace.launch(1, 1, 0, 1 * kUs, 2 * kUs, 12 * kUs);
  trace.launch(1, 1, 1 * kUs, 2 * kUs, 20200, 20700);  // 21 us to 20 us
  trace.launch(1, 1, 2 * kUs, 3 * kUs, 30 * kUs, 40 * kUs);
  Database db = trace.open();
  Finding finding = runRule(db, "temporal_breakdown");
  const auto& row = finding.evidence.rows[0];
  EXPECT_EQ(cellReal(row[4]), 38.0);  // 2 .. 40
  EXPECT_EQ(cellReal(row[2]), 19.0);  // 10 + (-1) + 10
  EXPECT_EQ(cellReal(row[1]), 19.0);  // 38 - 19
  Finding launches = runRule(db, "kernel_launch_stats");
  EXPECT_EQ(cellReal(launches.evidence.rows[1][2]), -1.0);
}

TEST(HtaRules, LaunchStatsCountOnlyHtasLaunchCalls) {
  TinyTrace trace;
  trace.launch(1, 1, 0, 60 * kUs, 200 * kUs, 201 * kUs);  // runtime outlier
  trace.launch(1, 1, 70 * kUs, 80 * kUs, 300 * kUs, 301 * kUs, "k(int)",
               "cudaLaunchKernelExC_v11060");                                                // delay outlier
  trace.launch(1, 1, 90 * kUs, 95 * kUs, 400 * kUs, 402 * kUs, "k(int)", "cuLaunchKernel");  // not HTA's
  trace.memcpy(1, 1, 96 * kUs, 99 * kUs, 500 * kUs, 501 * kUs);
  Database db = trace.open();
  Finding finding = runRule(db, "kernel_launch_stats");
  EXPECT_EQ(findingCsv(finding),
            "correlation,cpu_duration,gpu_duration,launch_delay\n1,60.0,1.0,140.0\n2,10.0,1.0,220.0\n"
            "4,3.0,1.0,401.0\n");
  EXPECT_NE(finding.explanation.find("Short kernels (the GPU ran for less time than the launch call took, a call "
                                     "of at most 50 us): 2 (66.7%)"),
            std::string::npos)
      << finding.explanation;
  EXPECT_NE(finding.explanation.find("Runtime outliers (a launch call longer than 50 us): 1 (33.3%)"),
            std::string::npos);
  EXPECT_NE(finding.explanation.find("Launch delay outliers (the GPU started more than 100 us after the call "
                                     "returned): 3 (100.0%)"),
            std::string::npos);
  // One runtime outlier (on the CPU) and three delays (on the GPU) to jump to, largest delay first.
  ASSERT_EQ(finding.ranges.size(), 4u);
  EXPECT_FALSE(finding.ranges[0].onGpu);
  EXPECT_EQ(finding.ranges[0].tid, 1u);
  EXPECT_TRUE(finding.ranges[1].onGpu);
  EXPECT_EQ(finding.ranges[1].start, 99 * kUs);

  EXPECT_EQ(runRule(db, "kernel_launch_stats:include_memory_events=false").evidence.rows.size(), 2u);
  Finding strict = runRule(db, "kernel_launch_stats:runtime_cutoff=5:launch_delay_cutoff=300");
  EXPECT_NE(strict.explanation.find("Runtime outliers (a launch call longer than 5 us): 2"), std::string::npos);
  EXPECT_NE(strict.explanation.find("more than 300 us after the call returned): 1"), std::string::npos);
}

// Each process with GPU work is a rank, numbered in process order; a PyTorch trace's own rank is kept.
TEST(HtaRules, RanksAreProcessesWithGpuWork) {
  TinyTrace trace;
  trace.launch(20, 7, 0, 1 * kUs, 2 * kUs, 10 * kUs);
  trace.launch(10, 7, 0, 1 * kUs, 5 * kUs, 6 * kUs);
  trace.launch(10, 7, 1 * kUs, 2 * kUs, 9 * kUs, 10 * kUs);
  Database db = trace.open();
  Finding temporal = runRule(db, "temporal_breakdown");
  ASSERT_EQ(temporal.evidence.rows.size(), 2u);
  EXPECT_EQ(std::get<int64_t>(temporal.evidence.rows[0][0]), 0);
  EXPECT_EQ(cellReal(temporal.evidence.rows[0][4]), 5.0);  // pid 10
  EXPECT_EQ(cellReal(temporal.evidence.rows[1][4]), 8.0);  // pid 20
  EXPECT_EQ(temporal.ranges[1].pid, 20u);
  Finding idle = runRule(db, "idle_time_breakdown");
  ASSERT_EQ(idle.evidence.rows.size(), 3u);  // rank 0: kernel wait and other; rank 1: other
  EXPECT_EQ(std::get<int64_t>(idle.evidence.rows[2][0]), 1);
  EXPECT_EQ(runRule(db, "idle_time_breakdown:rank=1").evidence.rows.size(), 1u);
  EXPECT_EQ(runRule(db, "kernel_launch_stats").evidence.rows.size(), 2u);
  EXPECT_EQ(runRule(db, "kernel_launch_stats:rank=1").evidence.rows.size(), 1u);
  EXPECT_FALSE(runRule(db, "kernel_launch_stats:rank=5").found());

  TinyTrace recorded;
  recorded.launch(3, 0, 0, 1 * kUs, 2 * kUs, 3 * kUs);
  recorded.meta("distributed_rank", "3");
  Database rank3 = recorded.open();
  EXPECT_EQ(std::get<int64_t>(runRule(rank3, "temporal_breakdown").evidence.rows[0][0]), 3);
}

TEST(HtaRules, WindowAndBadOptions) {
  TinyTrace trace;
  trace.launch(1, 1, 0, 1 * kUs, 2 * kUs, 10 * kUs);
  trace.launch(1, 1, 1 * kUs, 2 * kUs, 50 * kUs, 60 * kUs);
  Database db = trace.open();
  Finding windowed = runRule(db, "temporal_breakdown:start=40000");
  EXPECT_EQ(cellReal(windowed.evidence.rows[0][4]), 10.0);
  EXPECT_THROW(runRule(db, "kernel_launch_stats:include_memory_events=maybe"), TraceError);
  EXPECT_THROW(runRule(db, "idle_time_breakdown:consecutive_kernel_delay=fast"), TraceError);
  EXPECT_THROW(parseRuleRequest("temporal_breakdown:rows=5"), TraceError);
}

// Times from a hostile file: spans and sums saturate instead of overflowing, and every rule answers.
TEST(HtaRules, ExtremeTimesSaturate) {
  TinyTrace trace;
  const TimeNs lowest = std::numeric_limits<TimeNs>::min() + 10, highest = std::numeric_limits<TimeNs>::max();
  trace.launch(1, 1, lowest, highest, lowest, highest);
  trace.launch(1, 1, highest - 5, highest, highest - 3, highest);
  trace.launch(1, 2, 0, 1, 5, 2);  // ends before it starts
  Database db = trace.open();
  Finding temporal = runRule(db, "temporal_breakdown");
  ASSERT_EQ(temporal.evidence.rows.size(), 1u);
  EXPECT_EQ(cellReal(temporal.evidence.rows[0][4]), static_cast<double>(htaEndUs(highest) - htaStartUs(lowest)));
  EXPECT_EQ(runRule(db, "idle_time_breakdown").evidence.rows.size(), 3u);
  Finding launches = runRule(db, "kernel_launch_stats");
  ASSERT_EQ(launches.evidence.rows.size(), 3u);
  EXPECT_GE(cellReal(launches.evidence.rows[0][3]), 0.0);
}

TEST(HtaRules, RegisteredAfterNsysRules) {
  std::vector<std::string> ids;
  for (const AnalysisRule* rule : analysisRules()) ids.emplace_back(rule->id());
  auto at = [&ids](const char* id) { return std::find(ids.begin(), ids.end(), id) - ids.begin(); };
  EXPECT_LT(at("dx12_mem_ops"), at("temporal_breakdown"));
  EXPECT_LT(at("temporal_breakdown"), at("idle_time_breakdown"));
  EXPECT_LT(at("idle_time_breakdown"), at("kernel_launch_stats"));
  EXPECT_LT(at("kernel_launch_stats"), static_cast<std::ptrdiff_t>(ids.size()));
}

}  // namespace
}  // namespace gpuscope
