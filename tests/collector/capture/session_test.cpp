// `gpuscope launch` and the session verbs, end to end: a CPU program with NVTX steps runs under the collector
// recording nothing; start/stop from "another shell" (this test) write one file per window, holding only
// that window; cancel throws a window away; patterns reach several sessions; another user and hostile
// messages get nothing and change nothing.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <thread>

#include "tests/collector/capture/control_dir_test.h"
#include "tests/collector/record_test_support.h"

namespace gpuscope::test {
namespace {

namespace fs = std::filesystem;

class SessionTest : public ControlDirTest {
 protected:
  // `gpuscope launch --session NAME` of a slow steps_workload (about 6 ms a step) in the background.
  // NAME may be a pattern (--session 'p.%q{RANK}'); LISTENS is the name it becomes.
  std::unique_ptr<Running> launch(const std::string& name, int steps, const std::string& listens = "") {
    std::string session = listens.empty() ? name : listens;
    auto running = std::make_unique<Running>(
        std::vector<std::string>{"launch", "--session", name, "-o", dir_.file(session), "-t", "nvtx,osrt", "--",
                                 STEPS_WORKLOAD, std::to_string(steps), "-1", "-1", "5000"},
        true);
    waitForSession(session);
    return running;
  }

  RunResult verb(const std::vector<std::string>& args) { return runGpuscope(args, true); }
};

void pause(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

// The step numbers a window's file holds, in order.
std::vector<int> stepsIn(const std::string& path) {
  std::vector<int> numbers;
  for (const auto& row : query(path, "SELECT substr(text, 6) FROM NVTX_EVENTS WHERE text LIKE 'step %' ORDER BY start"))
    numbers.push_back(std::stoi(row[0]));
  return numbers;
}

TEST_F(SessionTest, EachStartAndStopWritesAFileOfItsWindowOnly) {
  auto program = launch("train", 1500);
  RunResult listed = verb({"sessions"});
  EXPECT_NE(listed.errorOutput.find("train"), std::string::npos) << listed.errorOutput;
  EXPECT_NE(listed.errorOutput.find("launched"), std::string::npos) << listed.errorOutput;
  for (int window = 1; window <= 3; ++window) {
    RunResult started = verb({"start", "--session", "train"});
    EXPECT_EQ(started.status, 0) << started.errorOutput;
    pause(300);
    RunResult recording = verb({"sessions"});
    EXPECT_NE(recording.errorOutput.find("recording"), std::string::npos) << recording.errorOutput;
    RunResult stopped = verb({"stop", "--session", "train"});
    EXPECT_EQ(stopped.status, 0) << stopped.errorOutput;
    EXPECT_NE(stopped.errorOutput.find("wrote " + dir_.file("train." + std::to_string(window) + ".sqlite")),
              std::string::npos)
        << stopped.errorOutput;
    pause(200);
  }
  RunResult notRecording = verb({"stop", "--session", "train"});
  EXPECT_EQ(notRecording.status, 1);
  EXPECT_NE(notRecording.errorOutput.find("session train is not recording"), std::string::npos);
  kill(program->pid(), SIGINT);  // the launch forwards it; the program ends
  program->wait();
  int previousLast = -1;
  for (int window = 1; window <= 3; ++window) {
    std::string file = dir_.file("train." + std::to_string(window) + ".sqlite");
    ASSERT_TRUE(fs::exists(file));
    std::vector<int> numbers = stepsIn(file);
    // About 300 ms of 6 ms steps, contiguous, after the previous window's and not touching it.
    ASSERT_GE(numbers.size(), 10u) << file;
    EXPECT_EQ(numbers.back() - numbers.front() + 1, static_cast<int>(numbers.size())) << file;
    EXPECT_GT(numbers.front(), previousLast + 1) << file;
    previousLast = numbers.back();
    // Nothing from before the window opened (trace time 0) or after its last step.
    EXPECT_EQ(queryInt(file, "SELECT count(*) FROM NVTX_EVENTS WHERE start < 0"), 0) << file;
    EXPECT_EQ(queryInt(file, "SELECT count(*) FROM OSRT_API WHERE start < 0"), 0) << file;
    EXPECT_GE(queryInt(file, "SELECT count(*) FROM OSRT_API"), queryInt(file,
                                                                        "SELECT count(*) FROM NVTX_EVENTS "
                                                                        "WHERE text = 'op'"));
    EXPECT_EQ(meta(file, "capture_trigger").value_or(""), "start");
  }
  EXPECT_FALSE(fs::exists(dir_.file("train.4.sqlite")));
}

TEST_F(SessionTest, CancelThrowsTheWindowAwayAndStartTakesAFileName) {
  auto program = launch("trial", 1500);
  EXPECT_EQ(verb({"start"}).status, 0);  // the only session: no name needed
  pause(200);
  RunResult cancelled = verb({"cancel"});
  EXPECT_EQ(cancelled.status, 0) << cancelled.errorOutput;
  EXPECT_NE(cancelled.errorOutput.find("thrown away"), std::string::npos) << cancelled.errorOutput;
  std::string named = dir_.file("named.sqlite");
  EXPECT_EQ(verb({"start", "-o", named}).status, 0);
  RunResult again = verb({"start"});
  EXPECT_EQ(again.status, 1);
  EXPECT_NE(again.errorOutput.find("is recording already"), std::string::npos) << again.errorOutput;
  pause(200);
  EXPECT_EQ(verb({"stop"}).status, 0);
  kill(program->pid(), SIGINT);
  program->wait();
  EXPECT_TRUE(fs::exists(named));
  EXPECT_FALSE(fs::exists(dir_.file("trial.1.sqlite")));
  EXPECT_GE(stepsIn(named).size(), 5u);
}

TEST_F(SessionTest, APatternStartsAndStopsEveryRank) {
  setenv("RANK", "0", 1);
  RunResult missing = verb({"start", "--session", "p.*"});
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.errorOutput.find("no session of this user matches 'p.*'"), std::string::npos);
  auto rank0 = launch("p.%q{RANK}", 1500, "p.0");
  setenv("RANK", "1", 1);
  auto rank1 = std::make_unique<Running>(
      std::vector<std::string>{"launch", "--session", "p.%q{RANK}", "-o", dir_.file("p.1"), "-t", "nvtx,osrt", "--",
                               STEPS_WORKLOAD, "1500", "-1", "-1", "5000"},
      true);
  unsetenv("RANK");
  waitForSession("p.1");
  RunResult ambiguous = verb({"start"});
  EXPECT_EQ(ambiguous.status, 1);
  EXPECT_NE(ambiguous.errorOutput.find("2 sessions are running (p.0, p.1)"), std::string::npos);
  EXPECT_EQ(verb({"start", "--session", "p.*"}).status, 0);
  pause(200);
  RunResult stopped = verb({"stop", "--session", "p.*"});
  EXPECT_EQ(stopped.status, 0) << stopped.errorOutput;
  kill(rank0->pid(), SIGINT);
  kill(rank1->pid(), SIGINT);
  rank0->wait();
  rank1->wait();
  EXPECT_TRUE(fs::exists(dir_.file("p.0.1.sqlite")));
  EXPECT_TRUE(fs::exists(dir_.file("p.1.1.sqlite")));
}

// The session socket's path, to speak to it without the client.
int connectTo(const std::string& path) {
  int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::snprintf(address.sun_path, sizeof address.sun_path, "%s", path.c_str());
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

TEST_F(SessionTest, TenThousandHostileMessagesLeaveTheSessionAndItsProgramRunning) {
  auto program = launch("target", 3000);
  std::string socket = controlDir_ + "/target.sock";
  std::mt19937 random(42);
  std::string valid = R"({"verb":"start","output":"x.sqlite"})";
  int refusedReplies = 0;
  for (int i = 0; i < 10000; ++i) {
    int fd = connectTo(socket);
    ASSERT_GE(fd, 0) << "message " << i;
    std::string message;
    switch (i % 4) {
      case 0:  // random bytes
        message.resize(random() % 300);
        for (char& c : message) c = static_cast<char>(random());
        break;
      case 1:  // a valid request cut short
        message = valid.substr(0, random() % valid.size());
        break;
      case 2:  // the right shape, the wrong types
        message = R"({"verb":)" + std::to_string(random() % 100) + "}";
        break;
      default:  // oversized
        message.assign(17000 + random() % 1000, '{');
    }
    send(fd, message.data(), message.size(), MSG_NOSIGNAL);
    char reply[20000];
    ssize_t got = recv(fd, reply, sizeof reply, 0);
    if (got > 0 && std::string(reply, static_cast<size_t>(got)).find("\"ok\":false") != std::string::npos)
      ++refusedReplies;
    close(fd);
  }
  EXPECT_EQ(refusedReplies, 10000);
  // The program never noticed; the session still answers and records.
  EXPECT_EQ(kill(program->pid(), 0), 0);
  RunResult status = verb({"sessions"});
  EXPECT_NE(status.errorOutput.find("launched"), std::string::npos) << status.errorOutput;
  EXPECT_EQ(verb({"start", "--session", "target"}).status, 0);
  pause(200);
  EXPECT_EQ(verb({"stop", "--session", "target"}).status, 0);
  kill(program->pid(), SIGINT);
  RunResult ended = program->wait();
  EXPECT_NE(ended.errorOutput.find("target.1.sqlite"), std::string::npos) << ended.errorOutput;
}

// Another user (setpriv --reuid): cannot list, start, stop, cancel or dump this user's sessions, and the
// session records on undisturbed.
TEST_F(SessionTest, AnotherUserIsRefusedEveryVerb) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to run a client as another uid (CI runs as root)";
  const char* setpriv = "/usr/bin/setpriv";
  if (access(setpriv, X_OK) != 0) GTEST_SKIP() << "no /usr/bin/setpriv (util-linux)";
  // The control directory itself must be reachable for the socket's own check to be what refuses: the
  // directory's 0700 already keeps others out, which the first call below shows.
  auto program = launch("mine", 3000);
  EXPECT_EQ(verb({"start", "--session", "mine"}).status, 0);
  auto asNobody = [&](const std::vector<std::string>& args) {
    std::vector<std::string> words{setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", GPUSCOPE_CLI};
    words.insert(words.end(), args.begin(), args.end());
    std::string command;
    for (const std::string& word : words) command += "'" + word + "' ";
    return std::system((command + "> /dev/null 2>&1").c_str());
  };
  for (std::string verbName : {"sessions", "start", "stop", "cancel", "dump"}) {
    int status = asNobody({verbName, "--session", "mine"});
    if (verbName == std::string("sessions")) status = asNobody({verbName});
    EXPECT_NE(WEXITSTATUS(status), 0) << verbName << " as uid 65534 was not refused";
  }
  // Through directories open to all, the socket's SO_PEERCRED check refuses them too.
  ASSERT_EQ(chmod(dir_.path().c_str(), 0711), 0);
  ASSERT_EQ(chmod(controlDir_.c_str(), 0711), 0);
  ASSERT_EQ(chmod((controlDir_ + "/mine.sock").c_str(), 0666), 0);
  for (std::string verbName : {"stop", "cancel", "start", "dump"}) {
    std::string command = std::string(setpriv) + " --reuid=65534 --regid=65534 --clear-groups " + CONTROL_PROBE + " '" +
                          controlDir_ + "/mine.sock' " + verbName + " > /dev/null 2>&1";
    int status = std::system(command.c_str());
    EXPECT_EQ(WEXITSTATUS(status), 0) << verbName << ": the socket accepted uid 65534";
  }
  ASSERT_EQ(chmod(controlDir_.c_str(), 0700), 0);
  ASSERT_EQ(chmod(dir_.path().c_str(), 0700), 0);
  // Still recording, for its owner.
  RunResult stopped = verb({"stop", "--session", "mine"});
  EXPECT_EQ(stopped.status, 0) << stopped.errorOutput;
  kill(program->pid(), SIGINT);
  program->wait();
  EXPECT_GE(stepsIn(dir_.file("mine.1.sqlite")).size(), 1u);
}

}  // namespace
}  // namespace gpuscope::test
