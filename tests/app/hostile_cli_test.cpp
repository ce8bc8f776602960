// The command line on hostile input: an unknown command is named, names that are not UTF-8 still give
// valid JSON, and `stats` refuses what `info` refuses, with the same sentence.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "core/model/global_id.h"
#include "core/write/trace_writer.h"
#include "process_runner.h"

namespace {

using gpuscope::test::runGpuscope;
using gpuscope::test::testTempPath;

// One launch of one kernel whose short and demangled names are KERNEL_NAME.
std::string traceWithKernelNamed(const std::string& name, const std::string& kernelName, int64_t kernelEnd = 400) {
  auto path = testTempPath("hostile_cli", name);
  const int64_t globalPid = gpuscope::global_id::make(0, 1, 7, 0);
  const int64_t globalTid = gpuscope::global_id::make(0, 1, 7, 7);
  gpuscope::TraceWriter w(path);
  w.addProcess({globalPid, 7, "tiny"});
  w.addCudaApi({100, 200, gpuscope::CudaApiKind::Runtime, globalTid, 1, "cudaLaunchKernel_v7000", 0, std::nullopt});
  gpuscope::KernelRow kernel;
  kernel.start = 300;
  kernel.end = kernelEnd;
  kernel.streamId = 7;
  kernel.correlationId = 1;
  kernel.globalPid = globalPid;
  kernel.demangledName = kernelName;
  kernel.shortName = kernelName;
  w.addKernel(kernel);
  w.finish();
  return path;
}

TEST(HostileCli, UnknownCommandIsNamed) {
  auto run = runGpuscope("inf");
  EXPECT_NE(run.exitCode, 0);
  EXPECT_NE(run.err.find("\"inf\""), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("info"), std::string::npos) << run.err;
}

TEST(HostileCli, JsonOfANameThatIsNotUtf8) {
  auto path = traceWithKernelNamed("latin1.sqlite", std::string("caf\xe9_kernel"));
  auto run = runGpuscope("stats --report cuda_gpu_kern_sum --format json '" + path + "'");
  ASSERT_EQ(run.exitCode, 0) << run.err;
  auto json = nlohmann::json::parse(run.out);                                       // throws on invalid JSON
  EXPECT_NE(run.out.find("caf\xef\xbf\xbd_kernel"), std::string::npos) << run.out;  // U+FFFD for the bad byte
  auto info = runGpuscope("info --format json '" + path + "'");
  EXPECT_EQ(info.exitCode, 0) << info.err;
}

TEST(HostileCli, StatsRefusesWhatInfoRefuses) {
  auto path = traceWithKernelNamed("backwards.sqlite", "k", 250);  // ends at 250, starts at 300
  auto info = runGpuscope("info '" + path + "'");
  auto stats = runGpuscope("stats '" + path + "'");
  EXPECT_NE(info.exitCode, 0);
  EXPECT_NE(stats.exitCode, 0);
  EXPECT_NE(info.err.find("ends before it starts"), std::string::npos) << info.err;
  EXPECT_EQ(stats.err, info.err);
  EXPECT_TRUE(stats.out.empty()) << stats.out;
}

}  // namespace
