// The flight recorder (`gpuscope launch --flight-recorder`): it records all along, keeps the last span in
// bounded segments, and writes it on `gpuscope dump`, on SIGUSR1 to the program, when the program dies of a
// signal (SIGKILL included), and when a step takes more than N times the running median of its name.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

#include "collector/launch/flight_recorder.h"
#include "collector/launch/slow_range_trigger.h"
#include "core/error.h"
#include "tests/collector/capture/control_dir_test.h"
#include "tests/collector/record_test_support.h"

namespace gpuscope::test {
namespace {

namespace fs = std::filesystem;

TEST(SlowRangeWatch, AStepOverTwiceTheRunningMedianTriggersOnce) {
  SlowRangeWatch watch(parseSlowRangeRule("slow:step:2x"));
  int64_t t = 0;
  for (int i = 0; i < 10; ++i) {
    EXPECT_FALSE(watch.observe("step " + std::to_string(i), t, t + 10'000'000)) << i;
    t += 10'000'000;
  }
  EXPECT_FALSE(watch.observe("step 10", t, t + 19'000'000));   // 1.9x
  EXPECT_FALSE(watch.observe("forward", t, t + 900'000'000));  // another name
  std::optional<SlowRange> slow = watch.observe("step 11", t, t + 25'000'000);
  ASSERT_TRUE(slow);
  EXPECT_EQ(slow->text, "step 11");
  EXPECT_EQ(slow->medianNs, 10'000'000);
  EXPECT_DOUBLE_EQ(slow->ratio, 2.5);
}

TEST(SlowRangeWatch, NeedsFiveInstancesBeforeJudging) {
  SlowRangeWatch watch(parseSlowRangeRule("slow:step N:3x"));
  for (int i = 0; i < 4; ++i) watch.observe("step 1", 0, 1000);
  EXPECT_FALSE(watch.observe("step 5", 0, 100'000));
  EXPECT_TRUE(watch.observe("step 6", 0, 100'000));  // the median is still 1 us: 5 of 6 instances
  SlowRangeWatch named(parseSlowRangeRule("slow:forward:2x"));
  for (int i = 0; i < 5; ++i) named.observe("forward", 0, 1000);
  EXPECT_TRUE(named.observe("forward", 0, 3000));
}

TEST(SlowRangeWatch, BadRulesAreRefusedInOneSentence) {
  for (const char* rule : {"slow:step", "fast:step:2x", "slow::2x", "slow:step:1x", "slow:step:abc"}) {
    try {
      parseSlowRangeRule(rule);
      ADD_FAILURE() << rule << " was accepted";
    } catch (const TraceError& error) {
      EXPECT_NE(std::string(error.what()).find("is not slow:NVTX_NAME:FACTORx"), std::string::npos) << error.what();
    }
  }
}

TEST(FlightOptions, SpansAndSizesReadAsPeopleWriteThem) {
  EXPECT_EQ(parseFlightDuration("60s"), 60'000'000'000);
  EXPECT_EQ(parseFlightDuration("2m"), 120'000'000'000);
  EXPECT_EQ(parseFlightDuration("90"), 90'000'000'000);
  EXPECT_EQ(parseFlightMemory("512M"), 512ll << 20);
  EXPECT_EQ(parseFlightMemory("2G"), 2ll << 30);
  EXPECT_THROW(parseFlightDuration("0.5s"), TraceError);
  EXPECT_THROW(parseFlightDuration("soon"), TraceError);
  EXPECT_THROW(parseFlightMemory("1M"), TraceError);
  EXPECT_EQ(flightSegmentNs(60'000'000'000), 5'000'000'000);
  EXPECT_EQ(flightSegmentNs(3'000'000'000), 1'000'000'000);
}

class FlightTest : public ControlDirTest {
 protected:
  // A flight recorder of SPAN over steps_workload: STEPS steps of about 6 ms, step SLOW 20 times longer.
  std::unique_ptr<Running> launch(const std::string& name, const std::string& span, int steps, int slow,
                                  const std::vector<std::string>& more = {}) {
    std::vector<std::string> args{"launch",    "--session",         name, "-o", dir_.file(name), "-t",
                                  "nvtx,osrt", "--flight-recorder", span};
    args.insert(args.end(), more.begin(), more.end());
    for (const std::string& word : std::vector<std::string>{"--", STEPS_WORKLOAD, std::to_string(steps), "-1", "-1",
                                                            "5000", "plain", std::to_string(slow)})
      args.push_back(word);
    auto running = std::make_unique<Running>(args, true);
    waitForSession(name);
    return running;
  }

  // The program's pid, from the session's status.
  pid_t programPid(const std::string& name) {
    RunResult listed = runGpuscope({"sessions"}, true);
    size_t at = listed.errorOutput.find(name + " ");
    if (at == std::string::npos) return -1;
    std::istringstream line(listed.errorOutput.substr(at));
    std::string session, state;
    long pid = -1;
    line >> session >> state >> pid;
    return static_cast<pid_t>(pid);
  }

  std::vector<int> steps(const std::string& path) {
    std::vector<int> numbers;
    for (const auto& row :
         query(path, "SELECT substr(text, 6) FROM NVTX_EVENTS WHERE text LIKE 'step %' ORDER BY start"))
      numbers.push_back(std::stoi(row[0]));
    return numbers;
  }
};

TEST_F(FlightTest, ASlowStepWritesTheSpanAroundItAndIsItsJudgedWindow) {
  // Step 600 takes 500 ms, about 80 times the others: over 20x whatever a loaded CI machine does to a step.
  auto program = launch("slow", "2s", 900, 600, {"--trigger", "slow:step:20x"});
  RunResult ended = program->wait();
  EXPECT_EQ(ended.status, 0) << ended.errorOutput;
  // The file whose trigger is step 600 (a noisy machine may have written others before it).
  std::string file;
  for (int n = 1; n <= 5 && file.empty(); ++n) {
    std::string candidate = dir_.file("slow." + std::to_string(n) + ".sqlite");
    if (fs::exists(candidate) && meta(candidate, "flight_trigger").value_or("").find("'step 600' took") == 0)
      file = candidate;
  }
  ASSERT_FALSE(file.empty()) << ended.errorOutput;
  std::vector<int> numbers = steps(file);
  ASSERT_FALSE(numbers.empty());
  // The slow step and the steps before it within the span (2 s and one 1 s segment): not the run's start.
  EXPECT_EQ(numbers.back() >= 600 && numbers.front() <= 600, true) << numbers.front() << ".." << numbers.back();
  EXPECT_GT(numbers.front(), 100);
  EXPECT_EQ(numbers.back() - numbers.front() + 1, static_cast<int>(numbers.size()));
  // The trigger's range is the step's own, in the file's times.
  auto step = query(file, "SELECT start, end FROM NVTX_EVENTS WHERE text = 'step 600'");
  ASSERT_EQ(step.size(), 1u);
  EXPECT_EQ(meta(file, "flight_trigger_start_ns").value_or(""), step[0][0]);
  EXPECT_EQ(meta(file, "flight_trigger_end_ns").value_or(""), step[0][1]);
  RunResult analysis = runGpuscope({"analyze", file}, true);
  EXPECT_NE(analysis.errorOutput.find("triggered the flight recorder"), std::string::npos) << analysis.errorOutput;
}

TEST_F(FlightTest, DumpAndSigusr1WriteTheLastSpanAndTheRunGoesOn) {
  auto program = launch("dumped", "2s", 2000, -1);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  RunResult dumped = runGpuscope({"dump", "--session", "dumped"}, true);
  EXPECT_EQ(dumped.status, 0) << dumped.errorOutput;
  EXPECT_NE(dumped.errorOutput.find("dumped.1.sqlite"), std::string::npos) << dumped.errorOutput;
  RunResult refused = runGpuscope({"start", "--session", "dumped"}, true);
  EXPECT_EQ(refused.status, 1);
  EXPECT_NE(refused.errorOutput.find("is a flight recorder"), std::string::npos) << refused.errorOutput;
  pid_t pid = programPid("dumped");
  ASSERT_GT(pid, 0);
  kill(pid, SIGUSR1);
  for (int i = 0; i < 200 && !fs::exists(dir_.file("dumped.2.sqlite")); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  EXPECT_TRUE(fs::exists(dir_.file("dumped.2.sqlite")));
  EXPECT_EQ(kill(pid, 0), 0);  // SIGUSR1 did not end it
  kill(program->pid(), SIGINT);
  program->wait();
  std::vector<int> first = steps(dir_.file("dumped.1.sqlite"));
  std::vector<int> second = steps(dir_.file("dumped.2.sqlite"));
  ASSERT_FALSE(first.empty());
  ASSERT_FALSE(second.empty());
  EXPECT_GT(second.back(), first.back());
  EXPECT_EQ(meta(dir_.file("dumped.2.sqlite"), "flight_dump").value_or(""), "SIGUSR1 to the program");
}

TEST_F(FlightTest, ASigkilledProgramStillLeavesItsLastSpan) {
  auto program = launch("killed", "2s", 3000, -1);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  pid_t pid = programPid("killed");
  ASSERT_GT(pid, 0);
  kill(pid, SIGKILL);
  RunResult ended = program->wait();
  EXPECT_EQ(ended.status, 128 + SIGKILL) << ended.errorOutput;
  std::string file = dir_.file("killed.1.sqlite");
  ASSERT_TRUE(fs::exists(file)) << ended.errorOutput;
  EXPECT_GE(steps(file).size(), 50u);
  EXPECT_NE(meta(file, "flight_dump").value_or("").find("signal 9 (KILL)"), std::string::npos);
}

#ifdef NVTX_FLOOD
// 4 threads of NVTX ranges (a pair each 20 us or more, for some 20 s) under a 16 MiB budget: the
// segments on tmpfs, the one being written included, stay under it all along, and the dump says how many were
// dropped for it.
TEST_F(FlightTest, TheSegmentsStayUnderTheMemoryBudget) {
  const int64_t budget = 16 << 20;
  Running running({"launch", "--session", "flood", "-o", dir_.file("flood"), "-t", "nvtx", "--flight-recorder", "3s",
                   "--flight-memory", "16M", "--", NVTX_FLOOD, "4", "200000", "20"},
                  true);
  waitForSession("flood");
  std::string folder = sessionFolderOf(running.pid()) + "/flight";
  int64_t peak = 0;
  int samples = 0;
  for (int i = 0; i < 1500 && kill(running.pid(), 0) == 0; ++i, ++samples) {
    int64_t bytes = 0;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(folder, error)) {
      struct stat info {};
      if (stat(entry.path().c_str(), &info) == 0) bytes += static_cast<int64_t>(info.st_blocks) * 512;
    }
    peak = std::max(peak, bytes);
    // Some 5 s in, past the budget: the daemon drops segments while the dump copies them.
    if (i == 250) {
      RunResult dumped = runGpuscope({"dump", "--session", "flood"}, true);
      EXPECT_EQ(dumped.status, 0) << dumped.errorOutput;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  RunResult ended = running.wait();
  EXPECT_EQ(ended.status, 0) << ended.errorOutput;
  EXPECT_GT(samples, 50);
  EXPECT_GT(peak, budget / 4) << "the flood never filled the budget: the test proves nothing";
  EXPECT_LE(peak, budget);
  std::string file = dir_.file("flood.1.sqlite");
  ASSERT_TRUE(fs::exists(file)) << ended.errorOutput;
  EXPECT_GT(std::stoll(meta(file, "flight_segments_dropped_for_memory").value_or("0")), 0);
}
#endif

}  // namespace
}  // namespace gpuscope::test
