// `gpuscope record --metrics roofline` without a GPU: which counters are asked for, the arithmetic from
// counter values to FLOPs and bytes, the counters' trip through a ring record, writing the rows, and the
// options' errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

#include "collector/cuda/roofline_counters.h"
#include "collector/daemon/kernel_metrics_rows.h"
#include "collector/launch/record_session.h"
#include "collector/transport/counter_text.h"
#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/model/global_id.h"
#include "core/ncu/ncu_import.h"
#include "core/roofline/kernel_metrics_table.h"
#include "core/write/trace_writer.h"
#include "record_test_support.h"

namespace gpuscope::test {
namespace {

bool contains(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

TEST(RooflineCounters, AsksForWhatNcusRooflineReadsAndTheChipsTensorPaths) {
  auto names = cuda::rooflineMetricNames(
      {"sm__ops_path_tensor_src_fp16_dst_fp32", "sm__ops_path_tensor_src_fp16_dst_fp32_sparsity_on", "dram__bytes",
       "sm__ops_path_tensor_src_bf16_dst_fp32", "sm__ops_path_tensor_src_bf16_dst_fp32"});
  for (std::string_view name :
       {"gpu__time_duration.sum", "dram__bytes.sum", "lts__t_bytes.sum", "l1tex__t_bytes.sum",
        "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum", "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum",
        "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
        "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum", "sm__ops_path_tensor_src_fp16_dst_fp32.sum",
        "sm__ops_path_tensor_src_bf16_dst_fp32.sum"}) {
    EXPECT_TRUE(contains(names, name)) << name;
  }
  EXPECT_FALSE(contains(names, "sm__ops_path_tensor_src_fp16_dst_fp32_sparsity_on.sum"));
  EXPECT_EQ(std::count(names.begin(), names.end(), "sm__ops_path_tensor_src_bf16_dst_fp32.sum"), 1);
  EXPECT_EQ(names.size(), 4u + 9u + 2u);
  EXPECT_EQ(cuda::rooflineMetricNames({}).size(), 13u);  // a chip without tensor cores
}

TEST(RooflineCounters, FlopsAndBytesAreCountedAsNcuCountsThem) {
  transport::CounterValues counters = {
      {"gpu__time_duration.sum", 12345.6},
      {"dram__bytes.sum", 268435456},
      {"lts__t_bytes.sum", 300000000},
      {"l1tex__t_bytes.sum", 400000000},
      {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 10},
      {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", 20},
      {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 33554432},
      {"smsp__sass_thread_inst_executed_op_dadd_pred_on.sum", 0},
      {"smsp__sass_thread_inst_executed_op_dmul_pred_on.sum", 0},
      {"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", 0},
      {"sm__ops_path_tensor_src_fp16_dst_fp32.sum", 1000},
      {"sm__ops_path_tensor_src_bf16_dst_fp32.sum", 24},
  };
  KernelMetrics metrics = recordedKernelMetrics(counters);
  EXPECT_EQ(metrics.flopsOf(Precision::Fp32), 10 + 20 + 2 * 33554432.0);  // add + mul + 2 x fma
  EXPECT_EQ(metrics.flopsOf(Precision::Fp64), 0.0);                       // counted, none executed
  EXPECT_FALSE(metrics.flopsOf(Precision::Fp16).has_value());             // not counted at all
  EXPECT_EQ(metrics.flopsOf(Precision::Tensor), 1024.0);
  EXPECT_EQ(metrics.bytesOf(MemoryLevel::Dram), 268435456.0);
  EXPECT_EQ(metrics.bytesOf(MemoryLevel::L2), 300000000.0);
  EXPECT_EQ(metrics.bytesOf(MemoryLevel::L1), 400000000.0);
  EXPECT_EQ(metrics.durationNs, 12346);  // rounded to the nanosecond
  EXPECT_EQ(metrics.source, kRangeProfilerSource);

  KernelMetrics nothing = recordedKernelMetrics({});
  EXPECT_FALSE(nothing.durationNs.has_value());
  for (Precision p : kPrecisions) EXPECT_FALSE(nothing.flopsOf(p).has_value());
  for (MemoryLevel l : kMemoryLevels) EXPECT_FALSE(nothing.bytesOf(l).has_value());
}

TEST(RooflineCounters, CounterTextComesBackBitForBitAndSkipsWhatIsNotANumber) {
  transport::CounterValues counters = {{"a.sum", 0.1 + 0.2},
                                       {"b.sum", 1e300},
                                       {"nan.sum", std::numeric_limits<double>::quiet_NaN()},
                                       {"inf.sum", std::numeric_limits<double>::infinity()},
                                       {"bad=name", 1},
                                       {"c.sum", 0}};
  auto decoded = transport::decodeCounters(transport::encodeCounters(counters));
  ASSERT_EQ(decoded.size(), 3u);
  EXPECT_EQ(decoded[0], (std::pair<std::string, double>{"a.sum", 0.1 + 0.2}));
  EXPECT_EQ(decoded[1], (std::pair<std::string, double>{"b.sum", 1e300}));
  EXPECT_EQ(decoded[2], (std::pair<std::string, double>{"c.sum", 0}));
  // A damaged record: lines without a name, a value or a number are skipped, the rest kept.
  auto damaged = transport::decodeCounters("=1\nx.sum=\ny.sum=12abc\nz.sum=5\nno-equals\nw.sum=2");
  ASSERT_EQ(damaged.size(), 2u);
  EXPECT_EQ(damaged[0].first, "z.sum");
  EXPECT_EQ(damaged[1].second, 2);
}

TEST(RooflineRows, WrittenRowsReadBackUnchanged) {
  TempDir dir;
  std::string path = dir.file("metrics.sqlite");
  {
    TraceWriter writer(path);
    writer.finish();
  }
  KernelMetrics row = recordedKernelMetrics({{"dram__bytes.sum", 4096},
                                             {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 8},
                                             {"gpu__time_duration.sum", 2000}});
  row.globalPid = global_id::make(0, 1, 4321, 0);
  row.correlationId = 77;
  row.kernelName = "saxpy(float*, const float*, float, int)";
  writeKernelMetrics(path, {row});
  auto rows = readKernelMetrics(Database::openReadOnly(path));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].globalPid, row.globalPid);
  EXPECT_EQ(rows[0].correlationId, 77u);
  EXPECT_EQ(rows[0].kernelName, row.kernelName);
  EXPECT_EQ(rows[0].durationNs, 2000);
  EXPECT_EQ(rows[0].flopsOf(Precision::Fp32), 16.0);
  EXPECT_FALSE(rows[0].flopsOf(Precision::Fp64).has_value());
  EXPECT_EQ(rows[0].bytesOf(MemoryLevel::Dram), 4096.0);
  EXPECT_EQ(rows[0].source, kRangeProfilerSource);
}

RecordOptions metricsOptions(std::string metrics, std::string regex = {}, int64_t count = 0) {
  RecordOptions options;
  options.metrics = std::move(metrics);
  options.kernelRegex = std::move(regex);
  options.kernelCount = count;
  options.command = {"/bin/true"};
  return options;
}

std::string errorOf(const RecordOptions& options) {
  try {
    checkMetricsOptions(options);
  } catch (const TraceError& error) {
    return error.what();
  }
  return {};
}

TEST(RooflineOptions, BadCombinationsAreOneSentenceErrors) {
  EXPECT_EQ(errorOf(metricsOptions("roofline", "^transpose", 10)), "");
  EXPECT_EQ(errorOf(metricsOptions("")), "");
  EXPECT_NE(errorOf(metricsOptions("roofline", "transpose("))
                .find("--kernel-regex 'transpose(' is not a valid regular "
                      "expression"),
            std::string::npos);
  EXPECT_NE(errorOf(metricsOptions("speed")).find("unknown --metrics 'speed'"), std::string::npos);
  EXPECT_NE(errorOf(metricsOptions("", "saxpy")).find("add --metrics roofline"), std::string::npos);
  EXPECT_NE(errorOf(metricsOptions("", "", 5)).find("add --metrics roofline"), std::string::npos);
  EXPECT_NE(errorOf(metricsOptions("roofline", "", -1)).find("--kernel-count"), std::string::npos);
  RecordOptions noCuda = metricsOptions("roofline");
  noCuda.traces = {"osrt"};
  EXPECT_NE(errorOf(noCuda).find("needs the CUDA trace"), std::string::npos);
}

TEST(RooflineOptions, CommandLineSaysWhatIsWrongAndWritesNothing) {
  TempDir dir;
  std::string trace = dir.file("r.sqlite");
  RunResult badRegex =
      runGpuscope({"record", "--metrics", "roofline", "--kernel-regex", "[a-", "-o", trace, "--", "/bin/true"});
  EXPECT_NE(badRegex.status, 0);
  EXPECT_NE(badRegex.errorOutput.find("is not a valid regular expression"), std::string::npos) << badRegex.errorOutput;
  EXPECT_FALSE(std::filesystem::exists(trace));

  // Without a GPU (or without CUPTI) the recording is refused up front, in one sentence; with one it runs.
  RunResult run = runGpuscope({"record", "--metrics", "roofline", "-o", trace, "--", "/bin/true"});
  if (run.status != 0) {
    EXPECT_NE(run.errorOutput.find("--metrics roofline needs"), std::string::npos) << run.errorOutput;
    EXPECT_EQ(std::count(run.errorOutput.begin(), run.errorOutput.end(), '\n'), 1) << run.errorOutput;
    EXPECT_FALSE(std::filesystem::exists(trace));
  } else {
    EXPECT_NE(run.errorOutput.find("roofline metrics:"), std::string::npos) << run.errorOutput;
  }
}

}  // namespace
}  // namespace gpuscope::test
