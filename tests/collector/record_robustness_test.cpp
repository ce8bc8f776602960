// The recorder under stress and faults: a flood of NVTX ranges loses nothing (the producer waits
// for room), Ctrl-C to the whole process group always leaves a valid trace, a disk that fills up
// gives one sentence and no leftovers, a killed recorder's session folder is cleaned up by the
// next one, and --force-overwrite replaces a file only with a complete trace.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/model/trace_loader.h"
#include "tests/collector/record_test_support.h"

namespace gpuscope::test {
namespace {

namespace fs = std::filesystem;

std::string firstLine(const std::string& path) {
  std::ifstream file(path);
  std::string line;
  std::getline(file, line);
  return line;
}

#ifdef NVTX_FLOOD
// 4 threads x 100,000 push/pop pairs as fast as they go, five times: every range is in the file.
TEST(RecordRobustness, NvtxFloodKeepsEveryRange) {
  for (int run = 0; run < 5; ++run) {
    TempDir dir;
    std::string trace = dir.file("flood.sqlite");
    RunResult result = runGpuscope({"record", "-t", "nvtx", "-o", trace, "--", NVTX_FLOOD, "4", "100000"});
    ASSERT_EQ(result.status, 0) << result.errorOutput;
    EXPECT_EQ(queryInt(trace, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59"), 400000) << "run " << run;
    EXPECT_NE(result.errorOutput.find("records dropped: 0\n"), std::string::npos) << result.errorOutput;
    EXPECT_EQ(meta(trace, "records_dropped_rings").value_or(""), "0");
    EXPECT_EQ(meta(trace, "cuda_untraced_cupti_failed").value_or(""), "0");
    EXPECT_EQ(meta(trace, "cuda_untraced_cupti_busy").value_or(""), "0");
  }
}

// --when-full drop is the one way to lose records, and they are then counted exactly: what is in
// the file plus what was dropped is what the program did.
TEST(RecordRobustness, DroppingIsExplicitAndCountedExactly) {
  TempDir dir;
  std::string trace = dir.file("dropped.sqlite");
  setenv("GPUSCOPE_RING_KB", "16", 1);
  RunResult result =
      runGpuscope({"record", "--when-full", "drop", "-t", "nvtx", "-o", trace, "--", NVTX_FLOOD, "4", "50000"});
  unsetenv("GPUSCOPE_RING_KB");
  ASSERT_EQ(result.status, 0) << result.errorOutput;
  int64_t kept = queryInt(trace, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59");
  int64_t dropped = std::stoll(meta(trace, "records_dropped_rings").value_or("-1"));
  EXPECT_GT(dropped, 0);
  // Each range is a push and a pop record; a range whose push or pop was dropped is not kept, and
  // an unpaired pop is counted as a damaged record, so kept ranges + dropped records cover them all.
  EXPECT_LE(kept, 200000);
  EXPECT_GE(kept + dropped, 200000);
  EXPECT_NE(meta(trace, "record_options").value_or("").find("--when-full=drop"), std::string::npos);
}
#endif

// SIGINT to the recorder's whole process group, as a terminal's Ctrl-C, 30 times: always a valid
// trace and the program's own exit status.
TEST(RecordRobustness, InterruptOfTheProcessGroupAlwaysLeavesAValidTrace) {
  for (int run = 0; run < 30; ++run) {
    TempDir dir;
    std::string trace = dir.file("interrupted.sqlite");
    std::string log = dir.file("log");
    Running running({"record", "-o", trace, "--", CRASH_WORKLOAD, "wait", log}, true);
    ASSERT_TRUE(waitForText(log, "ready")) << "run " << run;
    kill(-running.pid(), SIGINT);
    RunResult result = running.wait();
    ASSERT_EQ(result.status, 128 + SIGINT) << "run " << run << ": " << result.errorOutput;
    ASSERT_NO_THROW(loadTrace(trace)) << "run " << run;
    EXPECT_EQ(meta(trace, "exit_status").value_or(""), std::to_string(128 + SIGINT));
  }
}

// The SIGINTs the program counted (its "interrupts N" line), or -1 when it wrote none.
int countedInterrupts(const std::string& log) {
  std::ifstream file(log);
  std::string line;
  while (std::getline(file, line)) {
    if (line.rfind("interrupts ", 0) == 0) return std::stoi(line.substr(11));
  }
  return -1;
}

// SIGINT reaches the program exactly once: sent to the whole process group (the program has it
// from the group, `record` must not pass it on) and sent to `record` alone (passed on), each ten
// times.
TEST(RecordRobustness, TheProgramGetsEachInterruptOnce) {
  for (bool wholeGroup : {true, false}) {
    for (int run = 0; run < 10; ++run) {
      TempDir dir;
      std::string trace = dir.file("counted.sqlite");
      std::string log = dir.file("log");
      Running running({"record", "-o", trace, "--", CRASH_WORKLOAD, "count", log}, true);
      ASSERT_TRUE(waitForText(log, "ready")) << "run " << run;
      kill(wholeGroup ? -running.pid() : running.pid(), SIGINT);
      RunResult result = running.wait();
      ASSERT_EQ(result.status, 0) << "run " << run << ": " << result.errorOutput;
      EXPECT_EQ(countedInterrupts(log), 1) << (wholeGroup ? "to the group" : "to record") << ", run " << run;
    }
  }
}

// `gpuscope ARGS...` as a terminal's foreground job: the leader of a session of its own whose
// controlling terminal (and stdin) is a pseudo-terminal; MASTER is the terminal's other side.
struct OnTerminal {
  pid_t pid = -1;
  int master = -1;
};

OnTerminal startOnTerminal(const std::vector<std::string>& args) {
  OnTerminal started;
  started.master = posix_openpt(O_RDWR | O_NOCTTY);
  if (started.master < 0 || grantpt(started.master) != 0 || unlockpt(started.master) != 0) return started;
  std::string terminal = ptsname(started.master);
  std::vector<std::string> words{GPUSCOPE_CLI};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  started.pid = fork();
  if (started.pid == 0) {
    setsid();
    int tty = open(terminal.c_str(), O_RDWR);  // becomes the session's controlling terminal
    int devnull = open("/dev/null", O_WRONLY);
    dup2(tty, 0);
    dup2(devnull, 1);
    dup2(devnull, 2);
    execv(argv[0], argv.data());
    _exit(126);
  }
  return started;
}

// Ctrl-C typed on the recorder's terminal reaches the program once: the terminal sends it to the
// whole foreground process group, and `record` does not pass it on.
TEST(RecordRobustness, ACtrlCTypedOnTheTerminalReachesTheProgramOnce) {
  for (int run = 0; run < 5; ++run) {
    TempDir dir;
    std::string log = dir.file("log");
    OnTerminal job = startOnTerminal({"record", "-o", dir.file("typed.sqlite"), "--", CRASH_WORKLOAD, "count", log});
    if (job.pid < 0) GTEST_SKIP() << "no pseudo-terminal here (posix_openpt failed)";
    ASSERT_TRUE(waitForText(log, "ready")) << "run " << run;
    ASSERT_EQ(write(job.master, "\x03", 1), 1);  // VINTR, Ctrl-C
    int status = 0;
    waitpid(job.pid, &status, 0);
    close(job.master);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "run " << run << ": status " << status;
    EXPECT_EQ(countedInterrupts(log), 1) << "run " << run;
  }
}

#ifdef NVTX_FLOOD
// A disk that fills up (a file-size limit on the recorder): one sentence, the program stopped,
// no trace file, no temporary file, no session folder left behind.
TEST(RecordRobustness, DiskFullGivesOneSentenceAndLeavesNothing) {
  TempDir dir;
  std::string trace = dir.file("full.sqlite");
  // Small rings, so the ring file itself fits under the limit; the trace does not.
  setenv("GPUSCOPE_RING_KB", "64", 1);
  setenv("GPUSCOPE_RING_COUNT", "8", 1);
  Running running({"record", "-t", "nvtx", "-o", trace, "--", NVTX_FLOOD, "4", "2000000"}, true, false,
                  2 * 1024 * 1024);
  pid_t recorder = running.pid();
  RunResult result = running.wait();
  unsetenv("GPUSCOPE_RING_KB");
  unsetenv("GPUSCOPE_RING_COUNT");
  EXPECT_EQ(result.status, 1) << result.errorOutput;
  EXPECT_NE(result.errorOutput.find("the trace could not be written"), std::string::npos) << result.errorOutput;
  EXPECT_NE(result.errorOutput.find("the program was stopped"), std::string::npos) << result.errorOutput;
  EXPECT_FALSE(fs::exists(trace));
  size_t files = 0;
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    ++files;
    ADD_FAILURE() << "left behind: " << entry.path();
  }
  EXPECT_EQ(files, 0u);
  EXPECT_EQ(sessionFolderOf(recorder), "");
}
#endif

#ifdef NVTX_FLOOD
int64_t monotonicNs() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

// A recorder killed with SIGKILL after about 3 s loses at most the last second: the trace it was
// writing (OUT.<pid>.recording, committed every half second) holds every range that ended up to a
// second before the kill, and `record --recover` makes a complete trace file of it.
TEST(RecordRobustness, AKilledRecordersTraceLosesAtMostTheLastSecond) {
  TempDir dir;
  std::string trace = dir.file("killed.sqlite");
  // One range about every 1.1 ms, for about 11 s: still running at the kill.
  Running running({"record", "-t", "nvtx", "-o", trace, "--", NVTX_FLOOD, "1", "10000", "1000"}, true);
  std::string partial = trace + "." + std::to_string(running.pid()) + ".recording";
  usleep(3'000'000);  // what is recorded meanwhile is what the test is about
  int64_t killedAt = monotonicNs();
  kill(running.pid(), SIGKILL);
  usleep(50000);  // SIGKILL has landed; then end the orphaned program, in the recorder's group
  kill(-running.pid(), SIGKILL);
  running.wait();
  ASSERT_TRUE(fs::exists(partial));

  RunResult recovered = runGpuscope({"record", "--recover", partial});
  ASSERT_EQ(recovered.status, 0) << recovered.errorOutput;
  EXPECT_FALSE(fs::exists(partial));
  ASSERT_NO_THROW(loadTrace(trace));
  EXPECT_TRUE(meta(trace, "recovered").has_value());
  int64_t origin = std::stoll(meta(trace, "clock_origin_ns").value_or("0"));
  int64_t lastEnd = origin + queryInt(trace, "SELECT max(end) FROM NVTX_EVENTS WHERE eventType = 59");
  EXPECT_GE(lastEnd, killedAt - 1'000'000'000) << "lost " << (killedAt - lastEnd) / 1'000'000 << " ms";
  EXPECT_LT(lastEnd, killedAt);
  // No stretch is missing before that: the program makes a range about every millisecond.
  EXPECT_GT(queryInt(trace, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59"), 1000);
  EXPECT_LT(queryInt(trace,
                     "SELECT max(start - previousEnd) FROM (SELECT start, lag(end) OVER (ORDER BY start) AS "
                     "previousEnd FROM NVTX_EVENTS WHERE eventType = 59)"),
            500'000'000);

  // A file that is not a killed recorder's: one sentence each.
  RunResult again = runGpuscope({"record", "--recover", partial});
  EXPECT_EQ(again.status, 1);
  RunResult named = runGpuscope({"record", "--recover", trace});
  EXPECT_EQ(named.status, 1);
  EXPECT_NE(named.errorOutput.find("FILE.<pid>.recording"), std::string::npos) << named.errorOutput;
}
#endif

// A recorder killed with SIGKILL leaves its session folder; the next recording removes it (and
// leaves alone a folder whose owner is unknown).
TEST(RecordRobustness, TheNextRecordingRemovesAKilledRecordersSessionFolder) {
  TempDir dir;
  std::string log = dir.file("log");
  std::string left;
  {
    Running running({"record", "-o", dir.file("killed.sqlite"), "--", CRASH_WORKLOAD, "wait", log}, true);
    ASSERT_TRUE(waitForText(log, "ready"));
    kill(running.pid(), SIGKILL);
    // The program, orphaned, is still in the recorder's process group (and holds its stderr): end it too.
    usleep(50000);  // SIGKILL has landed: the folder stays, as after any killed recorder
    left = sessionFolderOf(running.pid());
    kill(-running.pid(), SIGKILL);
    running.wait();
  }
  ASSERT_NE(left, "");
  std::string unknown = "/dev/shm/gpuscope-unknown-owner-test";
  fs::create_directory(unknown);
  RunResult next = runGpuscope({"record", "-o", dir.file("next.sqlite"), "--", "/bin/true"});
  EXPECT_EQ(next.status, 0) << next.errorOutput;
  // Only that the folder is gone: a `record` test running in parallel may have removed it first,
  // and then this recording's "removed N session folder(s)" line is not printed.
  EXPECT_FALSE(fs::exists(left));
  EXPECT_TRUE(fs::exists(unknown));
  fs::remove_all(unknown);
}

// --force-overwrite: the old file stays as it was while the new recording runs, and an unrelated
// file named like the writer's side file is never touched.
TEST(RecordRobustness, ForceOverwriteReplacesOnlyWithACompleteTrace) {
  TempDir dir;
  std::string trace = dir.file("existing.sqlite");
  std::ofstream(trace) << "keep me";
  std::ofstream(trace + ".gpu-lane") << "not ours";
  std::string log = dir.file("log");
  Running running({"record", "-f", "-o", trace, "--", CRASH_WORKLOAD, "wait", log}, true);
  ASSERT_TRUE(waitForText(log, "ready"));
  EXPECT_EQ(firstLine(trace), "keep me");
  kill(running.pid(), SIGINT);
  RunResult result = running.wait();
  EXPECT_EQ(result.status, 128 + SIGINT) << result.errorOutput;
  EXPECT_NO_THROW(loadTrace(trace));
  EXPECT_EQ(firstLine(trace + ".gpu-lane"), "not ours");
}

}  // namespace
}  // namespace gpuscope::test
