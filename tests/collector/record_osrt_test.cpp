// `gpuscope record` on small programs, without a GPU: the exact OS-runtime rows they cause, their
// threads and processes, with durations checked against the programs' own clock.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "core/model/global_id.h"
#include "core/model/trace_loader.h"
#include "tests/collector/record_test_support.h"

namespace gpuscope::test {
namespace {

constexpr int64_t kMs = 1'000'000;

// The rows named NAME on thread TID.
std::vector<TimedRow> rowsOf(const std::vector<TimedRow>& rows, const std::string& name, uint32_t tid) {
  std::vector<TimedRow> result;
  for (const TimedRow& row : rows) {
    if (row.name == name && row.tid == tid) result.push_back(row);
  }
  return result;
}

// The call the program timed as CALL appears as a row NAME inside the program's own interval and
// lasts at least MINIMUM.
void expectInside(const std::vector<TimedRow>& rows, const std::string& name, const LoggedCall& call, int64_t origin,
                  int64_t minimum) {
  auto candidates = rowsOf(rows, name, static_cast<uint32_t>(call.tid));
  bool found = false;
  for (const TimedRow& row : candidates) {
    if (row.start >= call.start - origin && row.end <= call.end - origin && row.end - row.start >= minimum) {
      found = true;
    }
  }
  EXPECT_TRUE(found) << name << " (" << call.label << ") on thread " << call.tid << ": " << candidates.size()
                     << " rows, none inside [" << call.start - origin << ", " << call.end - origin << "]";
}

std::string threadName(const std::string& trace, uint32_t pid, uint32_t tid) {
  auto rows =
      query(trace, "SELECT s.value FROM ThreadNames t JOIN StringIds s ON s.id = t.nameId WHERE t.globalTid = " +
                       std::to_string(global_id::make(0, 1, pid, tid)));
  return rows.empty() ? std::string() : rows[0][0];
}

TEST(RecordOsRuntime, EveryKindOfCallWithTheProgramsOwnTiming) {
  TempDir dir;
  std::string trace = dir.file("osrt.sqlite");
  std::string log = dir.file("osrt.log");
  RunResult result = runGpuscope({"record", "--osrt-fork-children", "-o", trace, "--", OSRT_WORKLOAD, log});
  ASSERT_EQ(result.status, 0) << result.errorOutput;
  EXPECT_NE(result.errorOutput.find("recorded"), std::string::npos) << result.errorOutput;
  EXPECT_NE(result.errorOutput.find("records dropped: 0"), std::string::npos) << result.errorOutput;
  EXPECT_NE(result.errorOutput.find(std::filesystem::absolute(trace).string()), std::string::npos);

  auto calls = readLog(log);
  auto originText = meta(trace, "clock_origin_ns");
  ASSERT_TRUE(originText);
  int64_t origin = std::stoll(*originText);
  auto rows = osRuntimeRows(trace);
  const LoggedCall& sleep = findCall(calls, "sleep");
  const LoggedCall& mutex = findCall(calls, "mutex");
  uint32_t mainTid = static_cast<uint32_t>(sleep.tid);
  uint32_t waiterTid = static_cast<uint32_t>(mutex.tid);
  uint32_t pid = mainTid;

  expectInside(rows, "nanosleep", sleep, origin, 25 * kMs);
  expectInside(rows, "pthread_mutex_lock", mutex, origin, 15 * kMs);
  expectInside(rows, "pthread_cond_wait", findCall(calls, "cond"), origin, 10 * kMs);
  expectInside(rows, "sem_wait", findCall(calls, "sem"), origin, 10 * kMs);
  expectInside(rows, "poll", findCall(calls, "poll"), origin, 10 * kMs);
  expectInside(rows, "waitpid", findCall(calls, "waitpid"), origin, 15 * kMs);

  // File I/O: eight 1 MiB writes and reads, two opens, one fsync, on the main thread.
  auto writes = rowsOf(rows, "write", mainTid);
  auto reads = rowsOf(rows, "read", mainTid);
  EXPECT_EQ(std::count_if(writes.begin(), writes.end(), [](const TimedRow& r) { return r.returnValue == 1 << 20; }), 8);
  EXPECT_EQ(std::count_if(reads.begin(), reads.end(), [](const TimedRow& r) { return r.returnValue == 1 << 20; }), 8);
  EXPECT_EQ(rowsOf(rows, "fsync", mainTid).size(), 1u);

  // The fork and its child: the child's 30 ms sleep is in its own process.
  int64_t child = 0;
  for (const LoggedCall& call : calls) {
    if (call.label == "child") child = call.tid;
  }
  ASSERT_GT(child, 0);
  auto forks = rowsOf(rows, "fork", mainTid);
  ASSERT_EQ(forks.size(), 1u);
  EXPECT_EQ(forks[0].returnValue, child);
  auto childSleeps = rowsOf(rows, "nanosleep", static_cast<uint32_t>(child));
  ASSERT_EQ(childSleeps.size(), 1u);
  EXPECT_EQ(childSleeps[0].pid, static_cast<uint32_t>(child));
  EXPECT_GE(childSleeps[0].end - childSleeps[0].start, 30 * kMs);

  // Nothing under the 1 us threshold, nothing in the future, nothing before the start.
  int64_t last = queryInt(trace, "SELECT max(end) FROM OSRT_API");
  for (const TimedRow& row : rows) {
    EXPECT_GE(row.end - row.start, 1000) << row.name;
    EXPECT_GE(row.start, 0) << row.name;
    EXPECT_LE(row.end, last);
  }

  // Processes and thread names, as the programs named them.
  auto processes = query(trace, "SELECT pid, name FROM PROCESSES ORDER BY pid");
  ASSERT_EQ(processes.size(), 2u);
  std::set<std::string> pids{processes[0][0], processes[1][0]};
  EXPECT_TRUE(pids.count(std::to_string(pid)) && pids.count(std::to_string(child)));
  EXPECT_EQ(processes[0][1], "osrt_workload");
  EXPECT_EQ(threadName(trace, pid, mainTid), "osrt_workload");
  EXPECT_EQ(threadName(trace, pid, waiterTid), "waiter");
  std::string holderName;
  for (const TimedRow& row : rows) {
    if (row.name == "pthread_cond_signal" || row.name == "sem_post") holderName = threadName(trace, pid, row.tid);
  }
  EXPECT_EQ(holderName, "holder");

  // The file opens in gpuscope and holds the same events.
  auto loaded = loadTrace(trace);
  EXPECT_EQ(loaded->counts().osrt, rows.size());
  EXPECT_EQ(loaded->processes().size(), 2u);
  EXPECT_EQ(meta(trace, "command_line").value_or(""), std::string(OSRT_WORKLOAD) + " " + log);
  EXPECT_EQ(meta(trace, "exit_status").value_or(""), "0");
  EXPECT_EQ(queryInt(trace, "SELECT count(*) FROM TARGET_INFO_SESSION_START_TIME"), 1);
}

// nsys's default (--trace-fork-before-exec=false): a fork child's OS-runtime calls are left out
// until it executes a program; the child is still a process of the trace, and the parent's fork and
// waitpid are there.
TEST(RecordOsRuntime, ForkChildrenBeforeExecAreLeftOutByDefault) {
  TempDir dir;
  std::string trace = dir.file("fork-default.sqlite");
  std::string log = dir.file("log");
  RunResult result = runGpuscope({"record", "-o", trace, "--", OSRT_WORKLOAD, log});
  ASSERT_EQ(result.status, 0) << result.errorOutput;
  auto calls = readLog(log);
  int64_t child = 0;
  for (const LoggedCall& call : calls) {
    if (call.label == "child") child = call.tid;
  }
  ASSERT_GT(child, 0);
  auto rows = osRuntimeRows(trace);
  uint32_t mainTid = static_cast<uint32_t>(findCall(calls, "sleep").tid);
  EXPECT_EQ(std::count_if(rows.begin(), rows.end(), [&](const TimedRow& r) { return r.pid == child; }), 0);
  EXPECT_EQ(rowsOf(rows, "fork", mainTid).size(), 1u);
  EXPECT_EQ(rowsOf(rows, "waitpid", mainTid).size(), 1u);
  EXPECT_EQ(queryInt(trace, "SELECT count(*) FROM PROCESSES WHERE pid = " + std::to_string(child)), 1);
  EXPECT_NE(meta(trace, "record_options").value_or("").find("--osrt-threshold=1000 --delay"), std::string::npos)
      << meta(trace, "record_options").value_or("");
}

TEST(RecordOsRuntime, ThresholdLeavesShortCallsOut) {
  TempDir dir;
  std::string trace = dir.file("threshold.sqlite");
  RunResult result =
      runGpuscope({"record", "--osrt-threshold", "20000000", "-o", trace, "--", OSRT_WORKLOAD, dir.file("log")});
  ASSERT_EQ(result.status, 0) << result.errorOutput;
  auto rows = osRuntimeRows(trace);
  ASSERT_FALSE(rows.empty());
  for (const TimedRow& row : rows) EXPECT_GE(row.end - row.start, 20 * kMs) << row.name;
  EXPECT_EQ(std::count_if(rows.begin(), rows.end(), [](const TimedRow& r) { return r.name == "write"; }), 0);
}

TEST(RecordOsRuntime, OnlyTheChosenSourcesAreTraced) {
  TempDir dir;
  std::string trace = dir.file("nvtx-only.sqlite");
  RunResult result = runGpuscope({"record", "-t", "nvtx", "-o", trace, "--", OSRT_WORKLOAD, dir.file("log")});
  ASSERT_EQ(result.status, 0) << result.errorOutput;
  EXPECT_EQ(queryInt(trace, "SELECT count(*) FROM OSRT_API"), 0);
  EXPECT_EQ(queryInt(trace, "SELECT count(*) FROM PROCESSES"), 2);
}

// Lines "LABEL PATH" of lock_owner's output, by label (several "loaded" lines are joined by spaces).
std::map<std::string, std::string> lockOwners(const std::string& path) {
  std::map<std::string, std::string> owners;
  std::ifstream file(path);
  std::string label, value;
  while (file >> label >> value) owners[label] += (owners[label].empty() ? "" : " ") + value;
  return owners;
}

std::string fileName(const std::string& path) { return std::filesystem::path(path).filename().string(); }

// Without the OS-runtime trace the program's locks are glibc's own (the lock wrappers would only call through,
// on every CUDA launch's path), and the one recorder loaded is the library without them; with it, the
// wrappers time the waits.
TEST(RecordOsRuntime, LockWrappersAreLoadedOnlyWithTheOsRuntimeTrace) {
  TempDir dir;
  for (const std::string traces : {"nvtx", "osrt,nvtx"}) {
    SCOPED_TRACE(traces);
    std::string out = dir.file("owners-" + traces);
    RunResult result = runGpuscope({"record", "-t", traces, "-f", "-o", dir.file("t.sqlite"), "--", LOCK_OWNER, out});
    ASSERT_EQ(result.status, 0) << result.errorOutput;
    std::map<std::string, std::string> owners = lockOwners(out);
    bool osrt = traces.starts_with("osrt");
    EXPECT_EQ(fileName(owners["loaded"]), osrt ? "libgpuscope_inject.so" : "libgpuscope_inject_nolocks.so");
    for (const char* lock : {"lock", "rdlock"}) {
      EXPECT_EQ(fileName(owners[lock]).starts_with("libgpuscope"), osrt) << lock << " from " << owners[lock];
      EXPECT_NE(owners[lock], "?") << lock;
    }
  }
}

TEST(RecordOsRuntime, DelayLeavesTheBeginningOut) {
  TempDir dir;
  std::string trace = dir.file("delay.sqlite");
  std::string log = dir.file("log");
  RunResult result = runGpuscope({"record", "--delay", "0.08", "-o", trace, "--", OSRT_WORKLOAD, log});
  ASSERT_EQ(result.status, 0) << result.errorOutput;
  int64_t origin = std::stoll(meta(trace, "clock_origin_ns").value());
  auto rows = osRuntimeRows(trace);
  for (const TimedRow& row : rows) EXPECT_GE(row.start, 80 * kMs) << row.name;
  // The last call the program timed began well after the delay: it is there.
  const LoggedCall& waited = findCall(readLog(log), "waitpid");
  if (waited.start - origin > 80 * kMs) expectInside(rows, "waitpid", waited, origin, 15 * kMs);
}

TEST(RecordOsRuntime, ExecutedAndForkedProgramsAreFollowedEvenWithoutTheirEnvironment) {
  TempDir dir;
  std::string trace = dir.file("follow.sqlite");
  std::string script = std::string("'") + CRASH_WORKLOAD + "' quick " + dir.file("a") + " && env -i '" +
                       CRASH_WORKLOAD + "' quick " + dir.file("b");
  RunResult result = runGpuscope({"record", "-o", trace, "--", "/bin/sh", "-c", script});
  ASSERT_EQ(result.status, 0) << result.errorOutput;
  // sh, and two crash_workload processes with 40 usleep calls each (the second with env -i).
  auto perProcess = query(trace, "SELECT p.name, count(o.start) FROM PROCESSES p LEFT JOIN OSRT_API o ON " +
                                     global_id::sqlSameProcess("o.globalTid", "p.globalPid") +
                                     " AND o.nameId = "
                                     "(SELECT id FROM StringIds WHERE value = 'usleep') GROUP BY p.pid ORDER BY p.pid");
  int workloads = 0;
  for (const auto& row : perProcess) {
    if (row[0] == "crash_workload") {
      ++workloads;
      EXPECT_EQ(row[1], "40");
    }
  }
  EXPECT_EQ(workloads, 2);
}

TEST(RecordOsRuntime, PythonThreadsAndForkedWorkerProcesses) {
  if (std::string(PYTHON_EXECUTABLE).empty()) GTEST_SKIP() << "no python3 found at configure time";
  TempDir dir;
  std::string trace = dir.file("python.sqlite");
  std::string log = dir.file("python.log");
  RunResult result =
      runGpuscope({"record", "--osrt-fork-children", "-o", trace, "--", PYTHON_EXECUTABLE, PYTHON_WORKLOAD, log});
  ASSERT_EQ(result.status, 0) << result.errorOutput;
  auto calls = readLog(log);
  int64_t origin = std::stoll(meta(trace, "clock_origin_ns").value());
  auto rows = osRuntimeRows(trace);

  // time.sleep and a blocked Lock.acquire, whichever libc call this Python uses for them.
  auto inside = [&](const LoggedCall& call, const std::set<std::string>& names, int64_t minimum) {
    for (const TimedRow& row : rows) {
      if (names.count(row.name) && row.tid == call.tid && row.start >= call.start - origin &&
          row.end <= call.end - origin && row.end - row.start >= minimum) {
        return true;
      }
    }
    return false;
  };
  EXPECT_TRUE(inside(findCall(calls, "sleep"), {"clock_nanosleep", "nanosleep", "select"}, 30 * kMs));
  EXPECT_TRUE(inside(findCall(calls, "lock"),
                     {"sem_wait", "sem_clockwait", "sem_timedwait", "pthread_cond_wait", "pthread_cond_timedwait"},
                     20 * kMs));
  // 4 MiB written in one call.
  EXPECT_TRUE(std::any_of(rows.begin(), rows.end(),
                          [](const TimedRow& r) { return r.name == "write" && r.returnValue == 4 << 20; }));

  // One file with every process: the interpreter and both pool workers, each with its sleeps.
  std::set<uint32_t> workers;
  for (const LoggedCall& call : calls) {
    if (call.label == "worker") workers.insert(static_cast<uint32_t>(call.tid));
  }
  ASSERT_EQ(workers.size(), 2u);
  auto pids = query(trace, "SELECT pid FROM PROCESSES");
  std::set<uint32_t> recorded;
  for (const auto& row : pids) recorded.insert(static_cast<uint32_t>(std::stoul(row[0])));
  for (uint32_t worker : workers) {
    EXPECT_TRUE(recorded.count(worker)) << "worker " << worker;
    int sleeps = 0;
    for (const TimedRow& row : rows) {
      if (row.pid == worker && row.end - row.start >= 20 * kMs) ++sleeps;
    }
    EXPECT_GE(sleeps, 1) << "worker " << worker;
  }
  EXPECT_NO_THROW(loadTrace(trace));
}

}  // namespace
}  // namespace gpuscope::test
