// The transfer verdict and the blocking_copies finding count one thing: the calls whose copy or memset blocked
// the host (core/identity/cuda_call_kind.h). A loop of cudaMemcpyAsync calls from pageable memory blocks the
// host in every call; both must say so, with one share.
#include <gtest/gtest.h>

#include "core/analysis/rule_registry.h"
#include "core/analysis/verdict/verdict.h"
#include "core/identity/cuda_call_kind.h"
#include "core/model/trace_file.h"
#include "tests/core/analysis/synthetic_run.h"
#include "tests/core/testing/time_units.h"

namespace gpuscope {
namespace {

using testing::kMs;
using testing::kSyntheticPid;
using testing::kSyntheticTid;
using testing::kUs;
using testing::SyntheticRun;

// Ten 1 ms steps: a short kernel, an 800 us cudaMemcpyAsync from pageable memory, and a short one from
// pinned memory, which returns at once and ends the step.
std::string pageableCopyLoop() {
  SyntheticRun run("pageable_copies");
  for (int i = 0; i < 10; ++i) {
    TimeNs t = kMs + i * kMs;
    run.range("step " + std::to_string(i), t, t + kMs);
    run.launch("tiny", t, 5 * kUs, t + 5 * kUs, 20 * kUs);
    run.copy(t + 50 * kUs, 800 * kUs, t + 700 * kUs, 140 * kUs, nsys_enum::kMemPageable, nsys_enum::kMemDevice);
    run.copy(t + 985 * kUs, 10 * kUs, t + 990 * kUs, 10 * kUs, nsys_enum::kMemPinned, nsys_enum::kMemDevice);
  }
  return run.finish();
}

TEST(BlockingCopyCall, PageableOrSynchronousCopiesAndPinnedSynchronousMemsetsBlock) {
  EXPECT_TRUE(copyBlocksHost("cudaMemcpyAsync", nsys_enum::kMemPageable, nsys_enum::kMemDevice));
  EXPECT_TRUE(copyBlocksHost("cudaMemcpyAsync", nsys_enum::kMemDevice, nsys_enum::kMemPageable));
  EXPECT_FALSE(copyBlocksHost("cudaMemcpyAsync", nsys_enum::kMemPinned, nsys_enum::kMemDevice));
  EXPECT_TRUE(copyBlocksHost("cudaMemcpy", nsys_enum::kMemPinned, nsys_enum::kMemDevice));
  EXPECT_TRUE(memsetBlocksHost("cudaMemset", nsys_enum::kMemManaged));
  EXPECT_FALSE(memsetBlocksHost("cudaMemset", nsys_enum::kMemDevice));
  EXPECT_FALSE(memsetBlocksHost("cudaMemsetAsync", nsys_enum::kMemPinned));
}

TEST(BlockingCopyVerdict, PageableAsyncCopiesCountAsTheFindingCountsThem) {
  Database db = openTraceFile(pageableCopyLoop());
  Verdict verdict = runVerdict(db, loadVerdictInputs(db));
  ASSERT_TRUE(verdict.judged);
  const VerdictEvidence& e = verdict.evidence;
  // Nine steps judged (the first is start-up), 800 us of each 1 ms in a pageable copy call.
  EXPECT_NEAR(e.share(e.hostCopyNs), 0.8, 0.01);
  EXPECT_EQ(verdict.kind, BottleneckClass::Transfer) << verdictSentence(verdict);

  TimeInterval judged = verdict.judged->window;
  Finding finding = runAnalysis(db, {parseRuleRequest("blocking_copies:start=" + std::to_string(judged.start) +
                                                      ":end=" + std::to_string(judged.end))})
                        .front();
  ASSERT_TRUE(finding.found());
  double findingPercent = 0;
  for (const auto& row : finding.evidence.rows) findingPercent += std::get<double>(row[1]);
  EXPECT_NEAR(e.share(e.hostCopyNs), findingPercent / 100.0, 1e-9);
  EXPECT_NE(verdictSentence(verdict).find("was blocked in copies and memsets 80.0% of the window"), std::string::npos)
      << verdictSentence(verdict);
}

}  // namespace
}  // namespace gpuscope
