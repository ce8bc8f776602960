// Per-function shares of CPU samples: Python functions whole over their lines, the native leaves and lines
// beneath, unwinder junk dropped and idle thread-pool threads counted apart; on small stacks built here and
// on nsys's loader2 export, whose OpenBLAS pool threads are counted by an independent SQL query.
#include "core/samples/function_shares.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/db/sqlite_database.h"
#include "core/samples/sample_classes.h"
#include "core/samples/sample_reader.h"
#include "core/samples/samples_report.h"
#include "tests/core/samples/samples_fixtures.h"

namespace gpuscope {
namespace {

// Samples built stack by stack, each text once in names, as the reader keeps them.
class StackBuilder {
 public:
  // COUNT samples of thread TID whose stack is SYMBOLS (leaf first), each frame in MODULE.
  void add(int count, const std::vector<std::string>& symbols, int64_t tid = 1, const std::string& module = "m.so") {
    for (int i = 0; i < count; ++i) {
      samples_.start.push_back(static_cast<TimeNs>(samples_.start.size()));
      samples_.globalTid.push_back(tid);
      samples_.threadState.push_back(0);
      samples_.firstFrame.push_back(static_cast<uint32_t>(samples_.frames.size()));
      for (const std::string& symbol : symbols) samples_.frames.push_back({idOf(symbol), idOf(module), 0});
    }
  }
  CpuSamples finish() {
    samples_.firstFrame.push_back(static_cast<uint32_t>(samples_.frames.size()));
    return samples_;
  }

 private:
  uint32_t idOf(const std::string& text) {
    auto [it, added] = ids_.try_emplace(text, static_cast<uint32_t>(samples_.names.size()));
    if (added) samples_.names.push_back(text);
    return it->second;
  }
  CpuSamples samples_;
  std::map<std::string, uint32_t> ids_;
};

const FunctionShare* find(const FunctionShares& shares, const std::string& name) {
  for (const FunctionShare& function : shares.functions)
    if (function.name == name) return &function;
  return nullptr;
}

TEST(FunctionShares, APythonFunctionIsOneFunctionOverItsLinesWithItsLeavesBeneath) {
  StackBuilder builder;
  const std::string main = "py::main:/src/hostprep.py:30";
  builder.add(5, {"PyObject_Malloc", "_PyEval_EvalFrameDefault", "py::decode_batch:/src/hostprep.py:7", main});
  builder.add(2, {"_PyEval_EvalFrameDefault", "py::decode_batch:/src/hostprep.py:7", main});
  builder.add(1, {"_PyEval_EvalFrameDefault", "py::decode_batch:/src/hostprep.py:6", main});
  // Library Python between the leaf and the program's code: the program's function owns the sample.
  builder.add(2, {"simd_sincos_f32", "py::sin:/venv/lib/python3.12/site-packages/np/umath.py:40",
                  "py::augment:/src/hostprep.py:12", main});
  FunctionShares shares = functionShares(builder.finish());
  ASSERT_EQ(shares.functions.size(), 2u);
  const FunctionShare& decode = shares.functions[0];
  EXPECT_EQ(decode.name, "decode_batch (hostprep.py)");
  EXPECT_EQ(decode.samples, 8);
  EXPECT_DOUBLE_EQ(decode.share, 0.8);
  ASSERT_EQ(decode.leaves.size(), 2u);
  EXPECT_EQ(decode.leaves[0].name, "PyObject_Malloc");
  EXPECT_EQ(decode.leaves[0].samples, 5);
  EXPECT_DOUBLE_EQ(decode.leaves[0].share, 0.5);
  EXPECT_EQ(decode.leaves[1].name, "_PyEval_EvalFrameDefault");
  EXPECT_EQ(decode.leaves[1].samples, 3);
  ASSERT_EQ(decode.lines.size(), 2u);
  EXPECT_EQ(decode.lines[0].name, "hostprep.py:7");
  EXPECT_EQ(decode.lines[0].samples, 7);
  EXPECT_EQ(decode.lines[1].name, "hostprep.py:6");
  const FunctionShare& augment = shares.functions[1];
  EXPECT_EQ(augment.name, "augment (hostprep.py)");
  EXPECT_DOUBLE_EQ(augment.share, 0.2);
  EXPECT_EQ(augment.leaves.front().name, "simd_sincos_f32");
  EXPECT_EQ(functionLabel("py::decode_batch:/src/hostprep.py:7"), "decode_batch (hostprep.py)");
}

// CPython's perf trampoline names the function again, in the perf map's module and without a line: the same
// function as the recorder's frames (seen on an H200 recording: "decode_batch (hostprep.py) (perf-2509.map)"
// listed apart at 0.0%).
TEST(FunctionShares, APerfTrampolineFrameIsTheSamePythonFunction) {
  StackBuilder builder;
  builder.add(3, {"FLOAT_add", "py::decode_batch:/src/hostprep.py:39"}, 1, "/src/hostprep.py");
  builder.add(1, {"py::decode_batch:/src/hostprep.py"}, 1, "/tmp/perf-2509.map");
  FunctionShares shares = functionShares(builder.finish());
  ASSERT_EQ(shares.functions.size(), 1u);
  EXPECT_EQ(shares.functions[0].name, "decode_batch (hostprep.py)");
  EXPECT_EQ(shares.functions[0].samples, 4);
  EXPECT_EQ(shares.functions[0].module, "/src/hostprep.py");
}

TEST(FunctionShares, WithoutTheProgramsPythonTheLeafIsTheFunction) {
  StackBuilder builder;
  builder.add(3, {"sort_n", "py::sort:/usr/lib/python3/dist-packages/numpy/fromnumeric.py:1105"});
  builder.add(1, {"hot_a", "main"}, 1, "/opt/app/bin/app");
  FunctionShares shares = functionShares(builder.finish());
  ASSERT_EQ(shares.functions.size(), 2u);
  EXPECT_EQ(shares.functions[0].name, "sort_n");
  EXPECT_TRUE(shares.functions[0].lines.empty());
  EXPECT_EQ(shares.functions[1].name, "hot_a");
  EXPECT_EQ(shares.functions[1].module, "/opt/app/bin/app");
}

TEST(FunctionShares, JunkFramesAreDroppedAndCounted) {
  EXPECT_TRUE(isJunkFrame("0xffffffffffffffff"));
  EXPECT_TRUE(isJunkFrame("LICENSE.txt"));
  EXPECT_FALSE(isJunkFrame("0x7f6ac529cb84"));
  EXPECT_FALSE(isJunkFrame("std::vector<int>::size() const"));
  EXPECT_FALSE(isJunkFrame("py::load:/usr/lib/python3.11/json/__init__.py:293"));
  StackBuilder builder;
  builder.add(2, {"LICENSE.txt", "decode", "0xffffffffffffffff"});  // 2 junk frames each
  builder.add(1, {"0xffffffffffffffff"});
  FunctionShares shares = functionShares(builder.finish());
  EXPECT_EQ(shares.junkFrames, 5);
  EXPECT_EQ(shares.unresolvedSamples, 1);
  ASSERT_EQ(shares.functions.size(), 2u);
  EXPECT_EQ(shares.functions[0].name, "decode");
  EXPECT_EQ(shares.functions[0].samples, 2);
  EXPECT_EQ(shares.functions[1].name, "[unresolved]");
  EXPECT_EQ(find(shares, "LICENSE.txt"), nullptr);
}

TEST(FunctionShares, IdlePoolThreadsAreCountedApartAndTheirWorkIsNot) {
  StackBuilder builder;
  builder.add(3, {"blas_thread_server", "0xffffffffffffffff"}, 2);
  builder.add(2, {"sched_yield", "blas_thread_server", "start_thread"}, 3);
  builder.add(4, {"dgemm_kernel_HASWELL", "blas_thread_server", "start_thread"}, 3);  // work handed to it
  builder.add(1, {"gomp_team_barrier_wait_end", "gomp_thread_start"}, 4, "/usr/lib/libgomp.so.1");
  builder.add(1, {"__kmp_wait_template", "__kmp_fork_barrier"}, 5, "libiomp5.so");
  builder.add(9, {"decode", "main"}, 1);
  FunctionShares shares = functionShares(builder.finish());
  EXPECT_EQ(shares.samples, 20);
  EXPECT_EQ(shares.idlePoolSamples, 7);
  EXPECT_EQ(shares.workingSamples, 13);
  ASSERT_EQ(shares.idlePools.size(), 3u);
  EXPECT_EQ(shares.idlePools[0].pool, "OpenBLAS blas_thread_server");
  EXPECT_EQ(shares.idlePools[0].samples, 5);
  EXPECT_EQ(shares.idlePools[0].threads, 2);
  EXPECT_DOUBLE_EQ(shares.idlePools[0].share, 0.25);
  EXPECT_EQ(shares.functions[0].name, "decode");
  EXPECT_DOUBLE_EQ(shares.functions[0].share, 9.0 / 13);
  ASSERT_NE(find(shares, "dgemm_kernel_HASWELL"), nullptr);
  EXPECT_EQ(find(shares, "blas_thread_server"), nullptr);
  EXPECT_NE(idlePoolsText(shares).find("idle thread-pool threads (OpenBLAS blas_thread_server): 25.0% of samples, "
                                       "2 threads"),
            std::string::npos)
      << idlePoolsText(shares);
}

TEST(FunctionShares, Loader2sOpenBlasPoolThreadsAreApart) {
  Database db = Database::openReadOnly(testing::samplingFixture("loader2_samp"));
  auto row = db.prepare(
      "SELECT count(*), count(DISTINCT e.globalTid) FROM COMPOSITE_EVENTS e JOIN SAMPLING_CALLCHAINS c ON c.id = "
      "e.id AND c.stackDepth = 0 JOIN StringIds s ON s.id = c.symbol WHERE s.value = 'blas_thread_server'");
  ASSERT_TRUE(row.step());
  int64_t poolSamples = row.int64(0), poolThreads = row.int64(1);
  ASSERT_GT(poolSamples, 0);
  FunctionShares shares = functionShares(readCpuSamples(db, {}).samples);
  EXPECT_EQ(shares.idlePoolSamples, poolSamples);
  ASSERT_EQ(shares.idlePools.size(), 1u);
  EXPECT_EQ(shares.idlePools[0].threads, poolThreads);
  EXPECT_EQ(find(shares, "blas_thread_server"), nullptr);
  int64_t functionSamples = 0;
  double functionShare = 0;
  for (const FunctionShare& function : shares.functions) {
    functionSamples += function.samples;
    functionShare += function.share;
    int64_t leafSamples = 0;
    for (const SampleShare& leaf : function.leaves) leafSamples += leaf.samples;
    if (function.name[0] != '[') {
      EXPECT_EQ(leafSamples, function.samples) << function.name;
    }
  }
  EXPECT_EQ(functionSamples, shares.workingSamples);
  EXPECT_NEAR(functionShare, 1.0, 1e-9);
}

}  // namespace
}  // namespace gpuscope

namespace gpuscope {
namespace {

// On the H200 hostprep recording, `gpuscope samples` listed 230 leaves under one function (a hot interpreter
// loop's): the terminal's table shows each function's top lines and leaves, the CSV (no limit) all of them.
TEST(FunctionSharesTable, ALimitedTableShowsTheTopLeavesOfEachFunction) {
  FunctionShares shares;
  FunctionShare function{"decode_batch (hostprep.py)", "/src/hostprep.py", 80, 1.0, {}, {}};
  for (int i = 0; i < 8; ++i) function.leaves.push_back({"leaf" + std::to_string(i), 10, 0.125});
  function.lines.push_back({"hostprep.py:7", 80, 1.0});
  shares.functions.push_back(function);
  ReportTable limited = functionSharesTable(shares, 10);
  EXPECT_EQ(limited.rows.size(), 1u + 1u + kRowsBeneathAFunction);
  ReportTable whole = functionSharesTable(shares, 0);
  EXPECT_EQ(whole.rows.size(), 1u + 1u + 8u);
}

}  // namespace
}  // namespace gpuscope
