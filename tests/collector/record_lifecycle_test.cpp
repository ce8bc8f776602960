// `gpuscope record` around the program's life: exit statuses, crashes and SIGKILL (nothing
// recorded before the death is lost and the file opens), Ctrl-C, --duration, and the clear
// messages for what a user can get wrong.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/model/trace_loader.h"
#include "tests/collector/record_test_support.h"

namespace gpuscope::test {
namespace {

// The crash workload's two threads each made 20 usleep(2000) calls long before it died.
void expectEverySleep(const std::string& trace) {
  auto perThread = query(trace,
                         "SELECT o.globalTid, count(*) FROM OSRT_API o JOIN StringIds s ON s.id = o.nameId "
                         "WHERE s.value = 'usleep' GROUP BY o.globalTid");
  ASSERT_EQ(perThread.size(), 2u);
  EXPECT_EQ(perThread[0][1], "20");
  EXPECT_EQ(perThread[1][1], "20");
  auto loaded = loadTrace(trace);
  EXPECT_EQ(loaded->processes().size(), 1u);
  EXPECT_GE(loaded->counts().osrt, 40u);
}

class RecordCrash : public ::testing::TestWithParam<std::pair<std::string, int>> {};

TEST_P(RecordCrash, NothingRecordedBeforeTheDeathIsLost) {
  const auto& [mode, status] = GetParam();
  TempDir dir;
  std::string trace = dir.file(mode + ".sqlite");
  RunResult result = runGpuscope({"record", "-o", trace, "--", CRASH_WORKLOAD, mode, dir.file("log")});
  EXPECT_EQ(result.status, status) << result.errorOutput;
  EXPECT_NE(result.errorOutput.find("it was ended by"), std::string::npos) << result.errorOutput;
  expectEverySleep(trace);
  EXPECT_EQ(meta(trace, "exit_status").value_or(""), std::to_string(status));
}

INSTANTIATE_TEST_SUITE_P(Deaths, RecordCrash,
                         ::testing::Values(std::pair<std::string, int>{"segv", 128 + SIGSEGV},
                                           std::pair<std::string, int>{"abort", 128 + SIGABRT},
                                           std::pair<std::string, int>{"kill", 128 + SIGKILL}),
                         [](const auto& param) { return param.param.first; });

TEST(RecordLifecycle, ExitStatusIsTheProgramsOwn) {
  TempDir dir;
  EXPECT_EQ(runGpuscope({"record", "-o", dir.file("a.sqlite"), "--", "/bin/sh", "-c", "exit 42"}).status, 42);
  EXPECT_EQ(runGpuscope({"record", "-o", dir.file("b.sqlite"), "--", "/bin/sh", "-c", "kill -TERM $$"}).status,
            128 + SIGTERM);
  EXPECT_NO_THROW(loadTrace(dir.file("b.sqlite")));
}

// CUPTI's synchronization kind costs every launch (issue 10): the program is told to leave it out unless
// `--cuda-sync` asks for it, and the file says which was recorded.
TEST(RecordLifecycle, CudaSyncIsOffUnlessAskedFor) {
  TempDir dir;
  auto recordedSync = [&](const std::string& name, std::vector<std::string> flags) {
    std::vector<std::string> arguments = {"record", "-o", dir.file(name + ".sqlite")};
    arguments.insert(arguments.end(), flags.begin(), flags.end());
    std::string seen = dir.file(name + ".env");
    for (const std::string& word :
         {std::string("--"), std::string("/bin/sh"), std::string("-c"), "printf %s \"$GPUSCOPE_CUDA_SYNC\" > " + seen})
      arguments.push_back(word);
    EXPECT_EQ(runGpuscope(arguments).status, 0);
    std::ifstream file(seen);
    std::string value((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    return value + " " + meta(dir.file(name + ".sqlite"), "record_options").value_or("");
  };
  std::string off = recordedSync("default", {});
  EXPECT_EQ(off.substr(0, 2), "0 ") << off;
  EXPECT_EQ(off.find("--cuda-sync"), std::string::npos) << off;
  std::string on = recordedSync("sync", {"--cuda-sync"});
  EXPECT_EQ(on.substr(0, 2), "1 ") << on;
  EXPECT_NE(on.find("--cuda-sync"), std::string::npos) << on;
}

// Ctrl-C: sent to gpuscope alone (it passes it on) or to the whole process group, as a terminal does.
class RecordInterrupt : public ::testing::TestWithParam<bool> {};

TEST_P(RecordInterrupt, EndsTheCaptureWithAValidFile) {
  bool wholeGroup = GetParam();
  TempDir dir;
  std::string trace = dir.file("interrupted.sqlite");
  std::string log = dir.file("log");
  Running running({"record", "-o", trace, "--", CRASH_WORKLOAD, "wait", log}, true);
  ASSERT_TRUE(waitForText(log, "ready"));
  kill(wholeGroup ? -running.pid() : running.pid(), SIGINT);
  RunResult result = running.wait();
  EXPECT_EQ(result.status, 128 + SIGINT) << result.errorOutput;
  EXPECT_NE(result.errorOutput.find("interrupted"), std::string::npos) << result.errorOutput;
  expectEverySleep(trace);
}

INSTANTIATE_TEST_SUITE_P(Senders, RecordInterrupt, ::testing::Values(false, true),
                         [](const auto& param) { return param.param ? "ProcessGroup" : "RecorderOnly"; });

TEST(RecordLifecycle, DurationEndsTheProgram) {
  TempDir dir;
  std::string trace = dir.file("duration.sqlite");
  RunResult result =
      runGpuscope({"record", "--duration", "1.5", "-o", trace, "--", CRASH_WORKLOAD, "wait", dir.file("l")});
  EXPECT_EQ(result.status, 128 + SIGTERM) << result.errorOutput;
  EXPECT_NE(result.errorOutput.find("--duration"), std::string::npos) << result.errorOutput;
  EXPECT_NO_THROW(loadTrace(trace));
}

TEST(RecordLifecycle, ClearMessagesForUserErrors) {
  TempDir dir;
  RunResult noCommand = runGpuscope({"record", "-o", dir.file("x.sqlite")});
  EXPECT_EQ(noCommand.status, 1);
  EXPECT_NE(noCommand.errorOutput.find("no command to record"), std::string::npos) << noCommand.errorOutput;

  RunResult missing = runGpuscope({"record", "-o", dir.file("x.sqlite"), "--", "gpuscope-no-such-program"});
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.errorOutput.find("command not found"), std::string::npos) << missing.errorOutput;

  std::string plain = dir.file("plain.txt");
  std::ofstream(plain) << "not a program";
  std::filesystem::permissions(plain, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  RunResult notExecutable = runGpuscope({"record", "-o", dir.file("x.sqlite"), "--", plain});
  EXPECT_EQ(notExecutable.status, 1);
  EXPECT_NE(notExecutable.errorOutput.find("not an executable"), std::string::npos) << notExecutable.errorOutput;

  std::string existing = dir.file("existing.sqlite");
  std::ofstream(existing) << "keep me";
  RunResult exists = runGpuscope({"record", "-o", existing, "--", "/bin/true"});
  EXPECT_EQ(exists.status, 1);
  EXPECT_NE(exists.errorOutput.find("already exists"), std::string::npos) << exists.errorOutput;
  EXPECT_NE(exists.errorOutput.find("--force-overwrite"), std::string::npos);
  std::ifstream kept(existing);
  std::string content;
  std::getline(kept, content);
  EXPECT_EQ(content, "keep me");
  EXPECT_EQ(runGpuscope({"record", "--force-overwrite", "-o", existing, "--", "/bin/true"}).status, 0);
  EXPECT_NO_THROW(loadTrace(existing));

  RunResult badTrace = runGpuscope({"record", "-t", "cuda,gpu", "-o", dir.file("y.sqlite"), "--", "/bin/true"});
  EXPECT_EQ(badTrace.status, 1);
  EXPECT_NE(badTrace.errorOutput.find("unknown trace 'gpu'"), std::string::npos) << badTrace.errorOutput;

  RunResult noDashes = runGpuscope({"record", "-o", dir.file("z.sqlite"), "/bin/ls", "-l"});
  EXPECT_EQ(noDashes.status, 1);
  EXPECT_NE(noDashes.errorOutput.find("after --"), std::string::npos) << noDashes.errorOutput;
}

TEST(RecordLifecycle, StatsReportsAtTheEnd) {
  TempDir dir;
  RunResult result = runGpuscope(
      {"record", "--stats", "-o", dir.file("s.sqlite"), "--", CRASH_WORKLOAD, "quick", dir.file("l")}, true);
  EXPECT_EQ(result.status, 0) << result.errorOutput;
  EXPECT_NE(result.errorOutput.find("osrt_sum"), std::string::npos) << result.errorOutput;
  EXPECT_NE(result.errorOutput.find("usleep"), std::string::npos) << result.errorOutput;
  EXPECT_EQ(result.errorOutput.find("could not be printed"), std::string::npos) << result.errorOutput;
}

TEST(RecordLifecycle, DefaultOutputNameCountsUp) {
  TempDir dir;
  auto previous = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  EXPECT_EQ(runGpuscope({"record", "--", "/bin/true"}).status, 0);
  EXPECT_EQ(runGpuscope({"record", "--", "/bin/true"}).status, 0);
  std::filesystem::current_path(previous);
  EXPECT_TRUE(std::filesystem::exists(dir.file("report1.sqlite")));
  EXPECT_TRUE(std::filesystem::exists(dir.file("report2.sqlite")));
  // -o naming a directory puts the numbered report there.
  EXPECT_EQ(runGpuscope({"record", "-o", dir.path(), "--", "/bin/true"}).status, 0);
  EXPECT_TRUE(std::filesystem::exists(dir.file("report3.sqlite")));
  RunResult missing = runGpuscope({"record", "-o", dir.file("no/such/dir/x.sqlite"), "--", "/bin/true"});
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.errorOutput.find("directory does not exist"), std::string::npos) << missing.errorOutput;
}

}  // namespace
}  // namespace gpuscope::test
