// `record --capture-range`: only what happens inside the range is kept, with nsys's meanings of
// --nvtx-capture and --capture-range-end. steps_workload stands in for workloads/caprange.py without a GPU:
// its steps are NVTX ranges "step N" holding 5 marks "op" and 5 nanosleep calls, and it calls what CUPTI's
// cudaProfilerStart/Stop callbacks call (the test double of torch.cuda.profiler.start/stop).
#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <map>
#include <string>

#include "tests/collector/record_test_support.h"

namespace gpuscope::test {
namespace {

namespace fs = std::filesystem;

std::map<std::string, int64_t> nvtxCounts(const std::string& path) {
  std::map<std::string, int64_t> counts;
  for (const auto& row : query(path, "SELECT text, count(*) FROM NVTX_EVENTS GROUP BY text"))
    counts[row[0]] = std::stoll(row[1]);
  return counts;
}

// The nsys fixture FIXTURE's NVTX counts by text (nsys-capture/*.sqlite.gz, unpacked into DIR).
std::map<std::string, int64_t> fixtureNvtxCounts(const TempDir& dir, const std::string& fixture) {
  std::string packed = std::string(GPUSCOPE_FIXTURES_DIR) + "/nsys-capture/" + fixture + ".sqlite.gz";
  std::string unpacked = dir.file(fixture + ".sqlite");
  gzFile in = gzopen(packed.c_str(), "rb");
  EXPECT_NE(in, nullptr) << packed;
  if (!in) return {};
  FILE* out = std::fopen(unpacked.c_str(), "wb");
  char buffer[65536];
  int read = 0;
  while ((read = gzread(in, buffer, sizeof buffer)) > 0) std::fwrite(buffer, 1, static_cast<size_t>(read), out);
  gzclose(in);
  std::fclose(out);
  return nvtxCounts(unpacked);
}

// Events of any kind whose start lies outside the step ranges the file holds.
int64_t eventsOutsideSteps(const std::string& path) {
  std::string span = "(SELECT min(start) AS first, max(end) AS last FROM NVTX_EVENTS WHERE text LIKE 'step %')";
  return queryInt(path, "SELECT count(*) FROM NVTX_EVENTS, " + span + " WHERE start < first OR start > last") +
         queryInt(path, "SELECT count(*) FROM OSRT_API, " + span + " WHERE start < first OR end > last");
}

int64_t osrtCalls(const std::string& path) { return queryInt(path, "SELECT count(*) FROM OSRT_API"); }

std::vector<std::string> steps(int count, int start, int stop, const std::string& extra = "") {
  std::vector<std::string> words{STEPS_WORKLOAD, std::to_string(count), std::to_string(start), std::to_string(stop)};
  if (!extra.empty()) words.push_back(extra);
  return words;
}

RunResult record(const std::vector<std::string>& options, const std::vector<std::string>& program) {
  std::vector<std::string> args{"record", "-t", "cuda,nvtx,osrt"};
  args.insert(args.end(), options.begin(), options.end());
  args.push_back("--");
  args.insert(args.end(), program.begin(), program.end());
  return runGpuscope(args);
}

TEST(CaptureRange, NvtxCaptureKeepsTheNamedStepAsNsysDoes) {
  TempDir dir;
  std::string trace = dir.file("nvtx.sqlite");
  RunResult result =
      record({"-o", trace, "--capture-range", "nvtx", "--nvtx-capture", "step 5", "--capture-range-end", "stop"},
             steps(20, -1, -1));
  ASSERT_EQ(result.status, 0) << result.errorOutput;
  std::map<std::string, int64_t> counts = nvtxCounts(trace);
  EXPECT_EQ(counts, (std::map<std::string, int64_t>{{"op", 5}, {"step 5", 1}}));
  // nsys kept the same ranges of caprange.py: its step ranges, by name.
  std::map<std::string, int64_t> nsys = fixtureNvtxCounts(dir, "cap_nvtx");
  counts.erase("op");
  EXPECT_EQ(counts, nsys);
  EXPECT_EQ(osrtCalls(trace), 5);
  EXPECT_EQ(eventsOutsideSteps(trace), 0);
  EXPECT_EQ(meta(trace, "capture_trigger").value_or(""), "nvtx:step 5");
}

TEST(CaptureRange, ARegisteredStringAndADomainPatternMatchToo) {
  TempDir dir;
  std::string trace = dir.file("registered.sqlite");
  RunResult result =
      record({"-o", trace, "--capture-range", "nvtx", "--nvtx-capture", "step 7@*", "--capture-range-end", "stop"},
             steps(12, -1, -1, "0"));
  ASSERT_EQ(result.status, 0) << result.errorOutput;
  EXPECT_EQ(queryInt(trace, "SELECT count(*) FROM NVTX_EVENTS WHERE text = 'step 7'"), 1);
  TempDir second;
  std::string registered = second.file("registered.sqlite");
  std::vector<std::string> program = steps(12, -1, -1, "0");
  program.push_back("registered");
  result =
      record({"-o", registered, "--capture-range", "nvtx", "--nvtx-capture", "step 7", "--capture-range-end", "stop"},
             program);
  ASSERT_EQ(result.status, 0) << result.errorOutput;
  // A registered string is written by reference: the name is in StringIds.
  EXPECT_EQ(queryInt(registered,
                     "SELECT count(*) FROM NVTX_EVENTS e JOIN StringIds s ON s.id = e.textId "
                     "WHERE s.value LIKE 'step %'"),
            1);
  EXPECT_EQ(queryInt(registered,
                     "SELECT count(*) FROM NVTX_EVENTS e JOIN StringIds s ON s.id = e.textId "
                     "WHERE s.value = 'step 7'"),
            1);
  EXPECT_EQ(osrtCalls(registered), 5);
}

TEST(CaptureRange, CudaProfilerStartAndStopBoundTheFileAsNsysDoes) {
  TempDir dir;
  std::string trace = dir.file("api.sqlite");
  RunResult result =
      record({"-o", trace, "--capture-range", "cudaProfilerApi", "--capture-range-end", "stop"}, steps(20, 8, 11));
  ASSERT_EQ(result.status, 0) << result.errorOutput;
  std::map<std::string, int64_t> counts = nvtxCounts(trace);
  EXPECT_EQ(counts["op"], 20);
  counts.erase("op");
  EXPECT_EQ(counts, fixtureNvtxCounts(dir, "cap_api"));
  EXPECT_EQ(counts.size(), 4u);
  EXPECT_EQ(osrtCalls(trace), 20);
  EXPECT_EQ(eventsOutsideSteps(trace), 0);
}

TEST(CaptureRange, RepeatWritesOneNumberedFilePerRangeUpToN) {
  TempDir dir;
  RunResult result =
      record({"-o", dir.file("run.sqlite"), "--capture-range", "cudaProfilerApi", "--capture-range-end", "repeat:3"},
             steps(10, 3, 0));
  ASSERT_EQ(result.status, 0) << result.errorOutput;
  for (int window = 1; window <= 3; ++window) {
    std::string file = dir.file("run." + std::to_string(window) + ".sqlite");
    ASSERT_TRUE(fs::exists(file)) << result.errorOutput;
    std::map<std::string, int64_t> counts = nvtxCounts(file);
    EXPECT_EQ(counts, (std::map<std::string, int64_t>{{"op", 5}, {"step " + std::to_string(window + 2), 1}})) << file;
  }
  EXPECT_FALSE(fs::exists(dir.file("run.4.sqlite")));
}

TEST(CaptureRange, StopShutdownEndsTheProgramAndStopLetsItRun) {
  TempDir dir;
  std::string ended = dir.file("ended.sqlite");
  std::vector<std::string> slow = steps(2000, 2, 3, "5000");
  RunResult result = record({"-o", ended, "--capture-range", "cudaProfilerApi"}, slow);
  EXPECT_EQ(result.status, 128 + SIGTERM) << result.errorOutput;
  EXPECT_NE(result.errorOutput.find("stop-shutdown"), std::string::npos) << result.errorOutput;
  EXPECT_EQ(queryInt(ended, "SELECT count(*) FROM NVTX_EVENTS WHERE text LIKE 'step %'"), 2);
  std::string runsOn = dir.file("runs_on.sqlite");
  result = record({"-o", runsOn, "--capture-range", "cudaProfilerApi", "--capture-range-end", "stop"},
                  steps(60, 2, 3, "500"));
  EXPECT_EQ(result.status, 0) << result.errorOutput;
  EXPECT_EQ(queryInt(runsOn, "SELECT count(*) FROM NVTX_EVENTS WHERE text LIKE 'step %'"), 2);
}

TEST(CaptureRange, NoRangeWritesNoFileAndSaysSo) {
  TempDir dir;
  std::string trace = dir.file("none.sqlite");
  RunResult result = record({"-o", trace, "--capture-range", "nvtx", "--nvtx-capture", "step 99"}, steps(5, -1, -1));
  EXPECT_EQ(result.status, 0) << result.errorOutput;
  EXPECT_FALSE(fs::exists(trace));
  EXPECT_NE(result.errorOutput.find("no window was recorded"), std::string::npos) << result.errorOutput;
}

TEST(CaptureRange, BadCombinationsAreRefusedInOneSentence) {
  struct Case {
    std::vector<std::string> options;
    std::string sentence;
  };
  std::vector<Case> cases = {
      {{"--nvtx-capture", "step 5"}, "--nvtx-capture names the range of --capture-range nvtx: add it"},
      {{"--capture-range", "steps"}, "unknown --capture-range 'steps': choose cudaProfilerApi or nvtx"},
      {{"--capture-range", "nvtx"}, "--capture-range nvtx needs the range's name: add --nvtx-capture NAME[@DOMAIN]"},
      {{"--capture-range", "cudaProfilerApi", "--capture-range-end", "repeat:0"},
       "--capture-range-end takes stop, stop-shutdown, repeat, repeat:N (N 1 or more) or none, not 'repeat:0'"},
      {{"--capture-range-end", "stop"}, "--capture-range-end says what ends a capture range: add --capture-range"},
      {{"--capture-range", "cudaProfilerApi", "--sample", "cpu"},
       "CPU samples and thread switches are recorded only over a whole run in this version"},
  };
  TempDir dir;
  for (const Case& check : cases) {
    std::vector<std::string> options{"-o", dir.file("bad.sqlite")};
    options.insert(options.end(), check.options.begin(), check.options.end());
    RunResult result = record(options, steps(2, -1, -1));
    EXPECT_EQ(result.status, 1) << result.errorOutput;
    EXPECT_NE(result.errorOutput.find(check.sentence), std::string::npos) << result.errorOutput;
    EXPECT_FALSE(fs::exists(dir.file("bad.sqlite")));
  }
}

}  // namespace
}  // namespace gpuscope::test
