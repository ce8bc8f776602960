// `gpuscope export` as a user runs it: the real executable on the fixtures, through a shell.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

struct Run {
  int exitCode = -1;
  std::string out;
  std::string err;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string tempPath(const std::string& name) {
  std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  return (std::filesystem::path(::testing::TempDir()) / ("export_cli_" + test + "_" + name)).string();
}

// Runs `gpuscope ARGS` with stdout captured through popen and stderr through a file.
Run gpuscope(const std::string& args) {
  auto errPath = tempPath("stderr.txt");
  std::string command = "'" + std::string(GPUSCOPE_CLI) + "' " + args + " 2>'" + errPath + "'";
  Run run;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return run;
  char buffer[65536];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) run.out.append(buffer, n);
  int status = pclose(pipe);
  run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.err = slurp(errPath);
  std::filesystem::remove(errPath);
  return run;
}

size_t lineCount(const std::string& text) { return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')); }

std::string fixture(const std::string& name) { return std::string(GPUSCOPE_FIXTURES) + "/" + name; }

TEST(ExportCli, ChromeGzipAndPerfettoFromAnNsysFile) {
  auto json = tempPath("loader2.json.gz"), proto = tempPath("loader2.pftrace");
  auto run = gpuscope("export '" + fixture("nsys/loader2.sqlite") + "' --format chrome -o '" + json + "'");
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(run.out.find("(984 kernels)"), std::string::npos) << run.out;
  auto head = slurp(json).substr(0, 2);
  EXPECT_EQ(head, "\x1f\x8b");  // gzip
  // The format follows from the name when --format is left out.
  run = gpuscope("export '" + fixture("nsys/loader2.sqlite") + "' -o '" + proto + "'");
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(slurp(proto).substr(0, 1), "\x0a");  // Trace.packet, length-delimited
  std::filesystem::remove(json);
  std::filesystem::remove(proto);
}

TEST(ExportCli, BadInputAndOutputAreOneSentenceAndNonZero) {
  auto notTrace = tempPath("not_a_trace.sqlite");
  { std::ofstream(notTrace) << "hello"; }
  auto out = tempPath("out.json");
  auto run = gpuscope("export '" + notTrace + "' --format chrome -o '" + out + "'");
  EXPECT_NE(run.exitCode, 0);
  EXPECT_EQ(lineCount(run.err), 1u) << run.err;
  EXPECT_FALSE(std::filesystem::exists(out));

  run = gpuscope("export '" + fixture("nsys/transpose.sqlite") + "' --format chrome -o /nonexistent-folder/out.json");
  EXPECT_NE(run.exitCode, 0);
  EXPECT_EQ(lineCount(run.err), 1u) << run.err;
  EXPECT_NE(run.err.find("/nonexistent-folder/out.json"), std::string::npos) << run.err;

  run = gpuscope("export '" + fixture("nsys/transpose.sqlite") + "' -o '" + tempPath("out.bin") + "'");
  EXPECT_NE(run.exitCode, 0);
  EXPECT_EQ(lineCount(run.err), 1u) << run.err;
  EXPECT_NE(run.err.find("--format"), std::string::npos) << run.err;
  std::filesystem::remove(notTrace);
}

}  // namespace
