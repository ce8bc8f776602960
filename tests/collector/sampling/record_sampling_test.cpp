// gpuscope record --sample cpu on programs with a known split of their time: the flat view's shares, the
// thread states and the Python frames must come out as the programs measured them, and as py-spy sees them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "collector/sampling/perf_ring.h"
#include "core/model/global_id.h"
#include "tests/collector/record_test_support.h"

namespace gpuscope::test {
namespace {

namespace fs = std::filesystem;

constexpr double kPoints = 5.0;  // the issue's tolerance, in percentage points

void skipWithoutSampling() {
  std::string reason = sampling::samplingUnavailableReason();
  if (!reason.empty()) GTEST_SKIP() << reason;
}

// The venv's Python (numpy, py-spy); skipped without it, failed when GPUSCOPE_REQUIRE_PY_TESTS=1 (CI).
std::string venvTool(const std::string& name) {
  std::string path = std::string(GPUSCOPE_PY_VENV) + "/bin/" + name;
  return fs::exists(path) ? path : std::string();
}
bool pythonTestsRequired() {
  const char* value = std::getenv("GPUSCOPE_REQUIRE_PY_TESTS");
  return value && std::string(value) == "1";
}

// "NAME SECONDS NAME SECONDS" as the programs print it at the end.
std::map<std::string, double> ownTimings(const std::string& output) {
  static const std::regex kLine(R"(([a-z_]+) ([0-9.]+) ([a-z_]+) ([0-9.]+)\n)");
  std::smatch match;
  std::map<std::string, double> timings;
  if (std::regex_search(output, match, kLine)) {
    timings[match[1]] = std::stod(match[2]);
    timings[match[3]] = std::stod(match[4]);
  }
  return timings;
}

std::vector<std::vector<std::string>> csvRows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::vector<std::string> cells;
    std::string cell;
    bool quoted = false;
    for (char c : line) {
      if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        cells.push_back(cell);
        cell.clear();
      } else {
        cell += c;
      }
    }
    cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

// `gpuscope samples FILE ARGS --format csv`, its rows after the header.
std::vector<std::vector<std::string>> samplesCsv(const std::string& file, std::vector<std::string> args) {
  args.insert(args.begin(), {"samples", file});
  args.insert(args.end(), {"--format", "csv"});
  TempDir dir;
  std::string out = dir.file("out.csv");
  std::string command = std::string(GPUSCOPE_CLI);
  for (const std::string& arg : args) command += " '" + arg + "'";
  EXPECT_EQ(std::system((command + " > " + out).c_str()), 0) << command;
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  auto rows = csvRows(text.str());
  if (!rows.empty()) rows.erase(rows.begin());
  return rows;
}

// The flat view by frame (--by frame): total samples of the functions whose label starts with PREFIX (Total is column
// 2): a Python function has a row per line it was sampled on, and one line per sample.
int64_t totalOf(const std::vector<std::vector<std::string>>& flat, const std::string& prefix) {
  int64_t total = 0;
  for (const auto& row : flat)
    if (row.size() > 4 && row[4].rfind(prefix, 0) == 0) total += std::stoll(row[2]);
  return total;
}
double selfShareOf(const std::vector<std::vector<std::string>>& flat, const std::string& function) {
  for (const auto& row : flat)
    if (row.size() > 4 && row[4] == function) return std::stod(row[1]);
  return -1;
}

RunResult recordWithSamples(const std::string& file, std::vector<std::string> command) {
  std::vector<std::string> args = {"record", "-t", "osrt", "--sample", "cpu", "-o", file, "--"};
  args.insert(args.end(), command.begin(), command.end());
  return runGpuscope(args, /*mergeOutput=*/true);
}

TEST(RecordSampling, TheFlatViewSplitsTimeAsTheProgramTimedIt) {
  skipWithoutSampling();
  TempDir dir;
  std::string file = dir.file("split.sqlite");
  RunResult run = recordWithSamples(file, {HOT_SPLIT, "2"});
  ASSERT_EQ(run.status, 0) << run.errorOutput;
  auto own = ownTimings(run.errorOutput);
  ASSERT_EQ(own.size(), 2u) << run.errorOutput;
  double expectedA = 100.0 * own["hot_a"] / (own["hot_a"] + own["hot_b"]);
  auto flat = samplesCsv(file, {"--view", "flat", "--by", "frame"});
  EXPECT_NEAR(selfShareOf(flat, "hot_a"), expectedA, kPoints);
  EXPECT_NEAR(selfShareOf(flat, "hot_b"), 100.0 - expectedA, kPoints);
  EXPECT_GE(queryInt(file, "SELECT COUNT(*) FROM COMPOSITE_EVENTS"), 1000) << "1 kHz over 2 s of running";
  EXPECT_EQ(meta(file, "cpu_sampling_records_lost").value_or("?"), "0");
  // The samples' threads are those of the program's process as the other tables name it (same vm field).
  int64_t sampledThread = queryInt(file, "SELECT globalTid FROM COMPOSITE_EVENTS LIMIT 1");
  EXPECT_EQ(global_id::processOf(sampledThread), queryInt(file, "SELECT globalPid FROM PROCESSES LIMIT 1"));
}

TEST(RecordSampling, ThreadStatesFollowTheProgramsSleeps) {
  skipWithoutSampling();
  TempDir dir;
  std::string file = dir.file("asleep.sqlite");
  RunResult run = recordWithSamples(file, {HALF_ASLEEP, "2"});
  ASSERT_EQ(run.status, 0) << run.errorOutput;
  auto own = ownTimings(run.errorOutput);
  ASSERT_EQ(own.size(), 2u) << run.errorOutput;
  double expectedRunning = 100.0 * own["running"] / (own["running"] + own["sleeping"]);
  auto threads = samplesCsv(file, {"--view", "threads"});
  ASSERT_EQ(threads.size(), 1u) << "one thread";
  // PID, TID, Thread, Samples, Running %, Off CPU %, Preempted %, Sleeping %, Scheduled Time (ns)
  ASSERT_GE(threads[0].size(), 8u);
  // The program times its work by the wall clock, which counts the time it was preempted (switched out while
  // runnable, as on a loaded machine) as running: running and preempted together are its working time.
  double running = std::stod(threads[0][4]), preempted = std::stod(threads[0][6]), sleeping = std::stod(threads[0][7]);
  EXPECT_NEAR(running + preempted, expectedRunning, kPoints);
  EXPECT_NEAR(sleeping, 100.0 - expectedRunning, kPoints);
  EXPECT_GT(running, 0.0);
}

struct PythonShares {
  double busy = 0;  // percent of the samples in busy() or numpy.sort that are in busy()
};

TEST(RecordSampling, PythonFunctionsAreNamedWithFileAndLineInTheirShares) {
  skipWithoutSampling();
  std::string python = venvTool("python");
  if (python.empty()) {
    if (pythonTestsRequired()) FAIL() << "no Python venv at " << GPUSCOPE_PY_VENV;
    GTEST_SKIP() << "no Python venv at " << GPUSCOPE_PY_VENV << " (tests/python/make-venv makes it)";
  }
  TempDir dir;
  std::string file = dir.file("python.sqlite");
  RunResult run = recordWithSamples(file, {python, BUSY_SORT, "2"});
  ASSERT_EQ(run.status, 0) << run.errorOutput;
  auto own = ownTimings(run.errorOutput);
  ASSERT_EQ(own.size(), 2u) << run.errorOutput;
  auto flat = samplesCsv(file, {"--view", "flat", "--by", "frame", "--limit", "0"});
  int64_t busy = totalOf(flat, "busy (busy_sort.py:");
  int64_t sort = totalOf(flat, "sort (fromnumeric.py:");
  ASSERT_GT(busy, 0) << "busy() is named with its file and line";
  ASSERT_GT(sort, 0) << "numpy.sort is named with its file and line";
  double expected = 100.0 * own["busy"] / (own["busy"] + own["sort"]);
  EXPECT_NEAR(100.0 * static_cast<double>(busy) / static_cast<double>(busy + sort), expected, kPoints);
  EXPECT_GT(queryInt(file, "SELECT value FROM GPUSCOPE_META WHERE name = 'python_samples'"), 1000);
}

// py-spy's raw output: one line per distinct stack, "frame;frame;... COUNT", frames "function (file:line)".
std::map<std::string, int64_t> pySpyTotals(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::map<std::string, int64_t> totals;
  while (std::getline(in, line)) {
    size_t space = line.rfind(' ');
    if (space == std::string::npos) continue;
    int64_t count = std::stoll(line.substr(space + 1));
    std::string stack = line.substr(0, space);
    if (stack.find("busy (busy_sort.py") != std::string::npos) totals["busy"] += count;
    if (stack.find("sort (numpy") != std::string::npos || stack.find("sort (fromnumeric.py") != std::string::npos)
      totals["sort"] += count;
  }
  return totals;
}

// The two tools sample separate runs, and a loaded machine moves the split of a run and py-spy's reading of it
// (py-spy samples wall time, so a preempted thread still counts). So each tool is first held to the split its own
// run timed; then gpuscope must agree with py-spy, or be no further than py-spy from what the program timed.
TEST(RecordSampling, PySpyAgreesOnThePythonShares) {
  skipWithoutSampling();
  std::string python = venvTool("python"), pySpy = venvTool("py-spy");
  if (python.empty() || pySpy.empty()) {
    if (pythonTestsRequired()) FAIL() << "no python or py-spy in " << GPUSCOPE_PY_VENV;
    GTEST_SKIP() << "no python or py-spy in " << GPUSCOPE_PY_VENV;
  }
  TempDir dir;
  std::string raw = dir.file("py-spy.txt");
  std::string command = pySpy + " record --format raw --rate 1000 --nonblocking -o " + raw + " -- " + python + " " +
                        BUSY_SORT + " 2 > " + dir.file("py-spy.log") + " 2>&1";
  int status = std::system(command.c_str());
  std::ifstream log(dir.file("py-spy.log"));
  std::stringstream pySpyLog;
  pySpyLog << log.rdbuf();
  if (status != 0) {
    if (pySpyLog.str().find("ermission") != std::string::npos && !pythonTestsRequired())
      GTEST_SKIP() << "py-spy may not read another process here: " << pySpyLog.str();
    FAIL() << command << "\n" << pySpyLog.str();
  }
  auto theirs = pySpyTotals(raw);
  ASSERT_GT(theirs["busy"], 0);
  ASSERT_GT(theirs["sort"], 0);
  auto timedInTheirs = ownTimings(pySpyLog.str());
  ASSERT_EQ(timedInTheirs.size(), 2u) << pySpyLog.str();
  double theirShare =
      100.0 * static_cast<double>(theirs["busy"]) / static_cast<double>(theirs["busy"] + theirs["sort"]);
  double theirError = theirShare - 100.0 * timedInTheirs["busy"] / (timedInTheirs["busy"] + timedInTheirs["sort"]);

  std::string file = dir.file("python.sqlite");
  RunResult run = recordWithSamples(file, {python, BUSY_SORT, "2"});
  ASSERT_EQ(run.status, 0) << run.errorOutput;
  auto timedInOurs = ownTimings(run.errorOutput);
  ASSERT_EQ(timedInOurs.size(), 2u) << run.errorOutput;
  auto flat = samplesCsv(file, {"--view", "flat", "--by", "frame", "--limit", "0"});
  int64_t busy = totalOf(flat, "busy (busy_sort.py:"), sort = totalOf(flat, "sort (fromnumeric.py:");
  ASSERT_GT(busy + sort, 0);
  double ourShare = 100.0 * static_cast<double>(busy) / static_cast<double>(busy + sort);
  double ourError = ourShare - 100.0 * timedInOurs["busy"] / (timedInOurs["busy"] + timedInOurs["sort"]);
  EXPECT_LE(std::abs(ourError), kPoints) << "busy() share " << ourShare << "% against the program's own timing";
  EXPECT_TRUE(std::abs(ourShare - theirShare) <= kPoints || std::abs(ourError) <= std::abs(theirError))
      << "gpuscope " << ourShare << "% (off by " << ourError << " points), py-spy " << theirShare << "% (off by "
      << theirError << " points)";
}

}  // namespace
}  // namespace gpuscope::test

namespace gpuscope::test {
namespace {

constexpr const char* kPythonsWithALayout[] = {"python3.10", "python3.11", "python3.12", "python3.13"};

// The CPython interpreters of this machine gpuscope has a layout for: the system's, and pyenv's where
// there is one.
std::vector<std::string> interpretersWithALayout() {
  std::vector<std::string> found;
  auto consider = [&](const fs::path& path) {
    std::string name = path.filename().string();
    for (const char* version : kPythonsWithALayout)
      if (name == version && fs::exists(path)) found.push_back(path.string());
  };
  for (const char* version : kPythonsWithALayout) consider(fs::path("/usr/bin") / version);
  const char* home = std::getenv("HOME");
  fs::path pyenv = fs::path(home ? home : "/nonexistent") / ".pyenv" / "versions";
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(pyenv, error)) {
    for (const char* version : kPythonsWithALayout) consider(entry.path() / "bin" / version);
  }
  return found;
}

// The line of nested_calls.py marked LEAF_LINE.
int leafLineOfNestedCalls() {
  std::ifstream file(NESTED_CALLS);
  std::string line;
  for (int number = 1; std::getline(file, line); ++number)
    if (line.find("# LEAF_LINE") != std::string::npos) return number;
  return -1;
}

TEST(RecordSampling, PythonFramesOnEveryInterpreterWithALayout) {
  skipWithoutSampling();
  auto interpreters = interpretersWithALayout();
  if (interpreters.empty()) GTEST_SKIP() << "no CPython 3.10-3.13 here";
  int leafLine = leafLineOfNestedCalls();
  ASSERT_GT(leafLine, 0);
  for (const std::string& python : interpreters) {
    TempDir dir;
    std::string file = dir.file("nested.sqlite");
    RunResult run = recordWithSamples(file, {python, NESTED_CALLS, "1"});
    ASSERT_EQ(run.status, 0) << python << ": " << run.errorOutput;
    int64_t samples = queryInt(file, "SELECT COUNT(*) FROM COMPOSITE_EVENTS");
    // The three functions, innermost first, leaf at its line: the stack a sample in the loop must hold.
    int64_t named = queryInt(
        file,
        "SELECT COUNT(DISTINCT l.id) FROM SAMPLING_CALLCHAINS l JOIN StringIds ls ON ls.id = l.symbol "
        "JOIN SAMPLING_CALLCHAINS m ON m.id = l.id AND m.stackDepth = l.stackDepth + 1 "
        "JOIN StringIds ms ON ms.id = m.symbol JOIN SAMPLING_CALLCHAINS o ON o.id = l.id AND o.stackDepth = "
        "l.stackDepth + 2 JOIN StringIds os ON os.id = o.symbol WHERE ls.value LIKE 'py::leaf:%nested_calls.py:" +
            std::to_string(leafLine) +
            "' AND ms.value LIKE 'py::middle:%nested_calls.py:%' AND os.value LIKE 'py::outer:%nested_calls.py:%'");
    EXPECT_GT(samples, 500) << python;
    EXPECT_GT(named, samples * 6 / 10) << python << ": " << named << " of " << samples << " samples hold leaf (line "
                                       << leafLine << ") < middle < outer";
  }
}

}  // namespace
}  // namespace gpuscope::test
