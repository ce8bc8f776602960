// The bottleneck findings: each on a synthetic run built to have (or not have) the problem, and on the
// real fixtures (the DataLoader without workers starves the GPU; the naive transpose's stores are
// uncoalesced, the shared-memory one's are not).
#include <gtest/gtest.h>

#include <algorithm>

#include "core/analysis/findings/gemm_math_path.h"
#include "core/analysis/rule_registry.h"
#include "core/db/sqlite_database.h"
#include "core/model/trace_file.h"
#include "core/schema/trace_schema.h"
#include "tests/core/analysis/synthetic_run.h"
#include "tests/core/testing/test_files.h"
#include "tests/core/testing/time_units.h"

namespace gpuscope {
namespace {

using testing::fixturePath;
using testing::kMs;
using testing::kUs;
using testing::SyntheticRun;

Finding runRule(const std::string& path, const std::string& spec) {
  Database db = openTraceFile(path);
  return runAnalysis(db, {parseRuleRequest(spec)}).front();
}

std::vector<std::string> column(const Finding& finding, size_t index) {
  std::vector<std::string> values;
  for (const auto& row : finding.evidence.rows) values.push_back(std::get<std::string>(row.at(index)));
  return values;
}

TEST(GemmMathPath, NamesOfTensorCoreAndFp32Kernels) {
  EXPECT_EQ(gemmMathPath("ampere_sgemm_128x64_nn"), GemmMathPath::Fp32Simt);
  EXPECT_EQ(gemmMathPath("volta_sgemm_128x32_tn"), GemmMathPath::Fp32Simt);
  EXPECT_EQ(gemmMathPath("void cutlass::Kernel<cutlass_80_simt_sgemm_128x128_8x4_nn_align1>(Params)"),
            GemmMathPath::Fp32Simt);
  EXPECT_EQ(gemmMathPath("sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_"
                         "aligna4_alignc4_execute_kernel__5x_cublas"),
            GemmMathPath::Fp32Simt);
  EXPECT_EQ(gemmMathPath("ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_32x5_nn"), GemmMathPath::TensorCore);
  EXPECT_EQ(gemmMathPath("cutlass_80_tensorop_s1688gemm_128x128_16x4_nn_align4"), GemmMathPath::TensorCore);
  EXPECT_EQ(gemmMathPath("sm80_xmma_gemm_tf32f32_tf32f32_f32_nn_n_tilesize128x128x16_cublas"),
            GemmMathPath::TensorCore);
  EXPECT_EQ(gemmMathPath("nvjet_hsh_256x128_64x4_1x2_h_bz_coopA_NTN"), GemmMathPath::TensorCore);
  EXPECT_EQ(gemmMathPath("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_"
                         "execute_segment_k_off_kernel__5x_cublas"),
            GemmMathPath::TensorCore);
  EXPECT_EQ(gemmMathPath("void gemv2T_kernel_val<int, int, float, float, float, float, 128, 16, 4, 4>"),
            GemmMathPath::NotGemm);
  EXPECT_EQ(gemmMathPath("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>"),
            GemmMathPath::NotGemm);
  EXPECT_EQ(gemmMathPath("triton_tem_fused_mm_0"), GemmMathPath::NotGemm);
  EXPECT_EQ(gemmMathPath("my_matmul_kernel"), GemmMathPath::Unknown);
}

// 8 ms GEMMs and 2 ms elementwise kernels, queued ahead.
std::string gemmRun(const std::string& gemm) {
  SyntheticRun run("gemm");
  for (int i = 0; i < 100; ++i) {
    run.launch(gemm, kMs + i * 10 * kUs, 5 * kUs, 2 * kMs + i * 10 * kMs, 8 * kMs);
    run.launch("elementwise_kernel", kMs + i * 10 * kUs + 5 * kUs, 5 * kUs, 2 * kMs + i * 10 * kMs + 8 * kMs, 2 * kMs);
  }
  run.call("cudaDeviceSynchronize_v3020", 3 * kMs, 999 * kMs);
  return run.finish();
}

TEST(Fp32Gemm, Fp32SgemmNamesAreReportedWithTheirShareOfKernelTime) {
  Finding finding = runRule(gemmRun("ampere_sgemm_128x64_nn"), "fp32_gemm");
  ASSERT_TRUE(finding.found());
  EXPECT_EQ(column(finding, 4), std::vector<std::string>{"ampere_sgemm_128x64_nn"});
  EXPECT_DOUBLE_EQ(std::get<double>(finding.evidence.rows[0][0]), 80.0);
  EXPECT_EQ(finding.severity, Severity::Critical);
  EXPECT_NE(finding.explanation.find("80.0% of the kernel time"), std::string::npos);
  EXPECT_NE(finding.suggestion.find("allow_tf32"), std::string::npos);
  EXPECT_NE(finding.suggestion.find("autocast"), std::string::npos);
  ASSERT_EQ(finding.ranges.size(), 50u);  // the 50 longest instances, on the GPU
  EXPECT_TRUE(finding.ranges[0].onGpu);
  EXPECT_EQ(finding.ranges[0].end - finding.ranges[0].start, 8 * kMs);
}

TEST(Fp32Gemm, Bf16TensorCoreGemmsAreNotReported) {
  Finding finding = runRule(gemmRun("ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_32x5_nn"), "fp32_gemm");
  EXPECT_FALSE(finding.found());
  EXPECT_TRUE(finding.ranges.empty());
}

// Counters decide over names: a GEMM whose tensor pipes did the math is not reported whatever its name
// says, and one whose name says nothing is reported when its counters show FP32 math and no tensor ops.
TEST(Fp32Gemm, TensorPipeCountersDecideWhereTheTraceHasThem) {
  SyntheticRun run("metrics");
  run.launch("my_matmul_kernel", kMs, 5 * kUs, 2 * kMs, 8 * kMs);                    // correlation 1
  run.launch("ampere_sgemm_128x64_nn", kMs + 10 * kUs, 5 * kUs, 11 * kMs, 8 * kMs);  // correlation 2
  std::string path = run.finish();
  {
    Database trace = Database::openWritable(path);
    for (const std::string& sql : createTableStatements(tableSpec(table::kKernelMetrics))) trace.exec(sql);
    std::string pid = std::to_string(testing::kSyntheticPid);
    trace.exec("INSERT INTO GPUSCOPE_KERNEL_METRICS VALUES (" + pid +
               ", 1, 'my_matmul_kernel', -1, 8000000, 0, 1e12, 0, 0, 1e9, 2e9, 4e9, 'test')");
    trace.exec("INSERT INTO GPUSCOPE_KERNEL_METRICS VALUES (" + pid +
               ", 2, 'ampere_sgemm_128x64_nn', -1, 8000000, 0, 0, 0, 1e12, 1e9, 2e9, 4e9, 'test')");
  }
  Finding finding = runRule(path, "fp32_gemm");
  ASSERT_TRUE(finding.found());
  EXPECT_EQ(column(finding, 4), std::vector<std::string>{"my_matmul_kernel"});
  EXPECT_EQ(column(finding, 3), std::vector<std::string>{"counters: FP32 FLOPs, no tensor ops"});
}

TEST(Fp32Gemm, ShareOptionIsTheThreshold) {
  std::string path = gemmRun("ampere_sgemm_128x64_nn");
  EXPECT_TRUE(runRule(path, "fp32_gemm:share=80").found());
  EXPECT_FALSE(runRule(path, "fp32_gemm:share=80.1").found());
}

std::string launchBoundRun(TimeNs kernelNs) {
  SyntheticRun run("launch_bound");
  for (int i = 0; i < 1000; ++i) {
    TimeNs t = kMs + i * 6 * kUs;
    run.launch("vectorAdd", t, 5 * kUs, t + 6 * kUs, kernelNs);
  }
  return run.finish();
}

TEST(LaunchBound, KernelsShorterThanTheirLaunchCallsAreReported) {
  Finding finding = runRule(launchBoundRun(2 * kUs), "launch_bound");
  ASSERT_TRUE(finding.found());
  ASSERT_EQ(finding.evidence.rows.size(), 1u);
  EXPECT_EQ(std::get<int64_t>(finding.evidence.rows[0][0]), 1000);  // short launches
  EXPECT_EQ(std::get<int64_t>(finding.evidence.rows[0][2]), 2 * kUs);
  EXPECT_EQ(std::get<int64_t>(finding.evidence.rows[0][3]), 5 * kUs);
  EXPECT_NE(finding.explanation.find("1000 of 1000 kernel launches"), std::string::npos);
  ASSERT_EQ(finding.ranges.size(), 1u);  // one stretch of short kernels, from the first to the last
  EXPECT_EQ(finding.ranges[0].start, kMs + 6 * kUs);
  EXPECT_EQ(finding.ranges[0].end, kMs + 999 * 6 * kUs + 6 * kUs + 2 * kUs);
}

TEST(LaunchBound, KernelsLongerThanTheirLaunchCallsAreNot) {
  EXPECT_FALSE(runRule(launchBoundRun(6 * kUs), "launch_bound").found());
}

TEST(GpuWaitsOnHost, DataLoaderWithoutWorkersStarvesTheGpu) {
  Finding finding = runRule(fixturePath("gpuscope/loader0.sqlite"), "gpu_waits_on_host");
  ASSERT_TRUE(finding.found());
  EXPECT_EQ(finding.severity, Severity::Critical);
  // Every row names the main thread; the activities are the calls it was in and its untraced CPU time.
  for (const std::string& thread : column(finding, 0)) EXPECT_NE(thread.find("python3"), std::string::npos);
  auto activities = column(finding, 1);
  EXPECT_NE(std::find(activities.begin(), activities.end(), "(no traced call: CPU work)"), activities.end());
  double shares = 0;
  for (const auto& row : finding.evidence.rows) shares += std::get<double>(row[4]);
  EXPECT_LE(shares, 100.0 + 1e-6);
  ASSERT_FALSE(finding.ranges.empty());
  EXPECT_FALSE(finding.ranges[0].onGpu);
  EXPECT_GT(finding.ranges[0].end - finding.ranges[0].start, kMs);
}

TEST(GpuWaitsOnHost, ABusyGpuIsNotWaiting) {
  EXPECT_FALSE(runRule(gemmRun("ampere_sgemm_128x64_nn"), "gpu_waits_on_host").found());
}

TEST(MemoryAccess, NaiveTransposeIsUncoalescedAndTheSharedMemoryOneIsNot) {
  Finding finding = runRule(fixturePath("gpuscope/transpose_roofline.sqlite"), "memory_access");
  ASSERT_TRUE(finding.found());
  auto kernels = column(finding, 8);
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].rfind("transposeNaive", 0), 0u);
  EXPECT_GT(std::get<double>(finding.evidence.rows[0][5]), 5.0);  // L2/DRAM
  EXPECT_GT(std::get<double>(finding.evidence.rows[0][6]), 3.0);  // L1/DRAM
  ASSERT_FALSE(finding.ranges.empty());
  EXPECT_TRUE(finding.ranges[0].onGpu);
}

TEST(MemoryAccess, NothingWithoutMetrics) {
  EXPECT_FALSE(runRule(fixturePath("nsys/transpose.sqlite"), "memory_access").found());
}

TEST(BlockingCopies, TransposeWaitsInItsPageableSynchronousCopies) {
  Finding finding = runRule(fixturePath("nsys/transpose.sqlite"), "blocking_copies");
  ASSERT_TRUE(finding.found());
  auto apis = column(finding, 8);
  EXPECT_NE(std::find(apis.begin(), apis.end(), "cudaMemcpy"), apis.end());
  EXPECT_EQ(std::find(apis.begin(), apis.end(), "cudaMemcpyAsync"), apis.end());  // pinned and async
}

TEST(BlockingCopies, PinnedAsyncCopiesAreNotReported) {
  SyntheticRun run("pinned");
  run.call("cudaMemcpyAsync_v3020", kMs, 50 * kMs);
  MemcpyRow copy;
  copy.start = 2 * kMs;
  copy.end = 40 * kMs;
  copy.contextId = 1;
  copy.streamId = 7;
  copy.correlationId = 1;
  copy.globalPid = testing::kSyntheticPid;
  copy.bytes = 1 << 30;
  copy.copyKind = 1;
  copy.srcKind = 1;
  copy.dstKind = 2;
  run.writer().addMemcpy(copy);
  std::string pinned = run.finish();
  EXPECT_FALSE(runRule(pinned, "blocking_copies").found());
}

TEST(FindingRules, RunByDefaultAfterNsysRules) {
  std::vector<std::string> ids;
  for (const AnalysisRule* rule : analysisRules()) ids.emplace_back(rule->id());
  for (const char* id : {"gpu_waits_on_host", "fp32_gemm", "launch_bound", "blocking_copies", "memory_access"})
    EXPECT_NE(std::find(ids.begin(), ids.end(), id), ids.end()) << id;
}

}  // namespace
}  // namespace gpuscope
