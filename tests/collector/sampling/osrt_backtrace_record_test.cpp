// `gpuscope record` takes the backtrace of every OS-runtime call that lasts past --osrt-backtrace-threshold
// and writes it as nsys does (OSRT_API.callchainId -> OSRT_CALLCHAINS), named after the recording: checked
// on a program built without frame pointers that blocks at a known depth.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "collector/sampling/perf_ring.h"
#include "core/db/sqlite_database.h"
#include "core/samples/callchains.h"
#include "core/schema/table_names.h"
#include "tests/collector/record_test_support.h"

namespace gpuscope::test {
namespace {

constexpr int64_t kDefaultBacktraceThresholdNs = 80'000;

RunResult recordBlockedChain(const std::string& file, std::vector<std::string> options,
                             const std::string& program = BLOCKED_CHAIN) {
  std::vector<std::string> args = {"record", "-t", "osrt", "-o", file};
  args.insert(args.end(), options.begin(), options.end());
  args.insert(args.end(), {"--", program});
  return runGpuscope(args, /*mergeOutput=*/true);
}

// What the shell command COMMAND prints.
std::string osrtBacktraceShellOutput(const std::string& command) {
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return output;
  char buffer[4096];
  for (size_t read; (read = fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, read);
  pclose(pipe);
  return output;
}

// Where Debian's libc6-dbg put libc's full symbol table (by its build-id), if it is installed.
bool libcHasADetachedDebugFile() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    size_t slash = line.find('/');
    if (slash == std::string::npos || line.find("libc.so.6") == std::string::npos) continue;
    std::string output = osrtBacktraceShellOutput("readelf -n " + line.substr(slash));
    size_t at = output.find("Build ID: ");
    if (at == std::string::npos) return false;
    std::string id = output.substr(at + 10, 40);
    return std::filesystem::exists("/usr/lib/debug/.build-id/" + id.substr(0, 2) + "/" + id.substr(2) + ".debug");
  }
  return false;
}

struct SleepRow {
  int64_t duration = 0;
  int64_t callchainId = 0;  // 0: none (NULL in the file)
};

std::vector<SleepRow> nanosleepRows(const std::string& file) {
  std::vector<SleepRow> rows;
  for (const auto& row : query(file,
                               "SELECT o.end - o.start, COALESCE(o.callchainId, 0) FROM OSRT_API o JOIN StringIds s ON "
                               "s.id = o.nameId WHERE s.value = 'nanosleep'"))
    rows.push_back({std::stoll(row[0]), std::stoll(row[1])});
  return rows;
}

// Exactly the calls at or past THRESHOLD have a backtrace.
void expectBacktracesFromThreshold(const std::vector<SleepRow>& rows, int64_t threshold) {
  for (const SleepRow& row : rows)
    EXPECT_EQ(row.callchainId > 0, row.duration >= threshold) << "a nanosleep of " << row.duration << " ns";
}

TEST(RecordOsrtBacktraces, LongCallsCarryTheirStackBackToMain) {
  TempDir dir;
  std::string file = dir.file("chain.sqlite");
  RunResult run = recordBlockedChain(file, {"--sample", "none"});
  ASSERT_EQ(run.status, 0) << run.errorOutput;
  auto rows = nanosleepRows(file);
  ASSERT_EQ(rows.size(), 40u) << "20 long and 20 short sleeps, each past the 1 us --osrt-threshold";
  expectBacktracesFromThreshold(rows, kDefaultBacktraceThresholdNs);
  if (!sampling::samplingUnavailableReason().empty()) GTEST_SKIP() << "no perf events to name the addresses with";

  Database db = Database::openReadOnly(file);
  size_t checked = 0;
  for (const SleepRow& row : rows) {
    if (row.callchainId == 0) continue;
    auto frames = readCallchain(db, table::kOsrtCallchains, row.callchainId);
    ASSERT_GE(frames.size(), 4u) << "callchain " << row.callchainId;
    EXPECT_NE(frames[0].symbol.find("nanosleep"), std::string::npos) << frames[0].symbol;
    EXPECT_NE(frames[0].module.find("libc"), std::string::npos) << frames[0].module;
    EXPECT_EQ(frames[1].symbol, "wait_inner");
    EXPECT_EQ(frames[2].symbol, "wait_outer");
    EXPECT_EQ(frames[3].symbol, "main");
    EXPECT_NE(frames[1].module.find("blocked_chain"), std::string::npos) << frames[1].module;
    for (size_t depth = 0; depth < 4; ++depth) EXPECT_EQ(frames[depth].flags & SampleFrame::kUnresolved, 0);
    ++checked;
  }
  EXPECT_GE(checked, 20u) << "every 2 ms sleep";
  // glibc's static __libc_start_call_main, between main and __libc_start_main, is in no .dynsym: named
  // from the detached debug file where libc6-dbg is installed (CI installs it).
  if (libcHasADetachedDebugFile()) {
    auto frames = readCallchain(db, table::kOsrtCallchains, 1);
    ASSERT_GE(frames.size(), 5u);
    EXPECT_EQ(frames[4].symbol, "__libc_start_call_main");
  }
  EXPECT_EQ(queryInt(file, "SELECT COUNT(DISTINCT unwindMethod) FROM OSRT_CALLCHAINS"), 1);
  EXPECT_EQ(queryInt(file, "SELECT MIN(unwindMethod) FROM OSRT_CALLCHAINS"), 6) << "DWARF EH, nsys's enum";
  // --sample none takes no samples, but still the thread switches of --cpuctxsw's default; the summary says
  // the samples were not taken rather than that none were found.
  EXPECT_EQ(queryInt(file, "SELECT COUNT(*) FROM COMPOSITE_EVENTS"), 0);
  EXPECT_GT(queryInt(file, "SELECT COUNT(*) FROM SCHED_EVENTS"), 40);
  EXPECT_NE(run.errorOutput.find("CPU samples: not taken (--sample none); thread switches "), std::string::npos)
      << run.errorOutput;
  EXPECT_EQ(run.errorOutput.find("CPU samples 0"), std::string::npos) << run.errorOutput;
}

TEST(RecordOsrtBacktraces, ThresholdAndDepthAreTheUsers) {
  TempDir dir;
  std::string shallow = dir.file("shallow.sqlite");
  RunResult run = recordBlockedChain(shallow, {"--osrt-backtrace-depth", "2", "--osrt-backtrace-threshold", "1000000"});
  ASSERT_EQ(run.status, 0) << run.errorOutput;
  auto rows = nanosleepRows(shallow);
  expectBacktracesFromThreshold(rows, 1'000'000);
  EXPECT_GE(queryInt(shallow, "SELECT COUNT(DISTINCT id) FROM OSRT_CALLCHAINS"), 20);
  EXPECT_EQ(queryInt(shallow, "SELECT MAX(stackDepth) FROM OSRT_CALLCHAINS"), 1) << "two frames: nanosleep, wait_inner";

  std::string none = dir.file("none.sqlite");
  run = recordBlockedChain(none, {"--osrt-backtrace-depth", "0"});
  ASSERT_EQ(run.status, 0) << run.errorOutput;
  EXPECT_EQ(queryInt(none, "SELECT COUNT(*) FROM OSRT_API WHERE callchainId IS NOT NULL"), 0);
  EXPECT_EQ(queryInt(none, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'OSRT_CALLCHAINS'"), 0);

  run = recordBlockedChain(dir.file("bad.sqlite"), {"--osrt-backtrace-depth", "500"});
  EXPECT_NE(run.status, 0);
  EXPECT_NE(run.errorOutput.find("--osrt-backtrace-depth must be 0 to 127"), std::string::npos) << run.errorOutput;
}

// The same program with no symbol table but MiniDebugInfo: its functions are named from .gnu_debugdata.
TEST(RecordOsrtBacktraces, AStrippedProgramIsNamedFromItsMiniDebugInfo) {
#ifndef MINIDEBUG_CHAIN
  GTEST_SKIP() << "built without liblzma or xz: no MiniDebugInfo program";
#else
  if (!sampling::samplingUnavailableReason().empty()) GTEST_SKIP() << "no perf events to name the addresses with";
  ASSERT_EQ(osrtBacktraceShellOutput(std::string("readelf -S ") + MINIDEBUG_CHAIN + " | grep -c '\\.symtab'"), "0\n")
      << "the program must have no .symtab";
  TempDir dir;
  std::string file = dir.file("mini.sqlite");
  RunResult run = recordBlockedChain(file, {"--sample", "none"}, MINIDEBUG_CHAIN);
  ASSERT_EQ(run.status, 0) << run.errorOutput;
  Database db = Database::openReadOnly(file);
  auto frames = readCallchain(db, table::kOsrtCallchains, 1);
  ASSERT_GE(frames.size(), 4u);
  EXPECT_EQ(frames[1].symbol, "wait_inner");
  EXPECT_EQ(frames[2].symbol, "wait_outer");
  EXPECT_EQ(frames[3].symbol, "main");
#endif
}

}  // namespace
}  // namespace gpuscope::test
