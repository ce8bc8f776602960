// `gpuscope export` as a user runs it: the real executable on the fixtures, through a shell.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "process_runner.h"

namespace {

using gpuscope::test::lineCount;
using gpuscope::test::nsysFixture;
using gpuscope::test::readWholeFile;
using gpuscope::test::runGpuscope;
using gpuscope::test::testTempPath;

TEST(ExportCli, ChromeGzipAndPerfettoFromAnNsysFile) {
  auto json = testTempPath("export_cli", "loader2.json.gz"), proto = testTempPath("export_cli", "loader2.pftrace");
  auto run = runGpuscope("export '" + nsysFixture("loader2.sqlite") + "' --format chrome -o '" + json + "'");
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(run.out.find("(984 kernels)"), std::string::npos) << run.out;
  auto head = readWholeFile(json).substr(0, 2);
  EXPECT_EQ(head, "\x1f\x8b");  // gzip
  // The format follows from the name when --format is left out.
  run = runGpuscope("export '" + nsysFixture("loader2.sqlite") + "' -o '" + proto + "'");
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(readWholeFile(proto).substr(0, 1), "\x0a");  // Trace.packet, length-delimited
  std::filesystem::remove(json);
  std::filesystem::remove(proto);
}

TEST(ExportCli, BadInputAndOutputAreOneSentenceAndNonZero) {
  auto notTrace = testTempPath("export_cli", "not_a_trace.sqlite");
  { std::ofstream(notTrace) << "hello"; }
  auto out = testTempPath("export_cli", "out.json");
  auto run = runGpuscope("export '" + notTrace + "' --format chrome -o '" + out + "'");
  EXPECT_NE(run.exitCode, 0);
  EXPECT_EQ(lineCount(run.err), 1u) << run.err;
  EXPECT_FALSE(std::filesystem::exists(out));

  run = runGpuscope("export '" + nsysFixture("transpose.sqlite") + "' --format chrome -o /nonexistent-folder/out.json");
  EXPECT_NE(run.exitCode, 0);
  EXPECT_EQ(lineCount(run.err), 1u) << run.err;
  EXPECT_NE(run.err.find("/nonexistent-folder/out.json"), std::string::npos) << run.err;

  run = runGpuscope("export '" + nsysFixture("transpose.sqlite") + "' -o '" + testTempPath("export_cli", "out.bin") +
                    "'");
  EXPECT_NE(run.exitCode, 0);
  EXPECT_EQ(lineCount(run.err), 1u) << run.err;
  EXPECT_NE(run.err.find("--format"), std::string::npos) << run.err;
  std::filesystem::remove(notTrace);
}

}  // namespace
