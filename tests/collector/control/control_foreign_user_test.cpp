// Another user reaches a session's socket (here on purpose: the socket is made 0666 in a 0777 folder) and
// is refused on every verb, before the session reads a byte of the request: the handler never runs.
// Checked twice: from forked children that drop to uid 65534 themselves, and through the system's own
// setpriv running control_client_probe. Both need root; setpriv's needs setpriv too.
#include <grp.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "collector/control/control_channel.h"
#include "collector/control/control_server.h"
#include "control_test_support.h"
#include "core/error.h"

namespace gpuscope::control {
namespace {

constexpr uid_t kNobody = 65534;
constexpr Verb kEveryVerb[] = {Verb::Status, Verb::Start, Verb::Stop, Verb::Cancel, Verb::Dump};

// Runs BODY in a child that has become uid and gid 65534 with no other groups; its exit status (or -1).
int exitStatusAsNobody(const std::function<int()>& body) {
  pid_t child = ::fork();
  if (child == 0) {
    bool dropped = ::setgroups(0, nullptr) == 0 && ::setresgid(kNobody, kNobody, kNobody) == 0 &&
                   ::setresuid(kNobody, kNobody, kNobody) == 0 && ::geteuid() == kNobody;
    ::_exit(dropped ? body() : 100);
  }
  int status = 0;
  if (child < 0 || ::waitpid(child, &status, 0) != child || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

class ForeignUserTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root, to run clients as uid 65534 (CI runs the tests as root)";
    ASSERT_EQ(::chmod(folder_.path().c_str(), 0777), 0);
    server_ = std::make_unique<ControlServer>(folder_ / "open.sock", [this](const Request&) {
      handlerCalls_.fetch_add(1);
      Reply reply;
      reply.ok = true;
      reply.message = "the handler ran";
      return reply;
    });
    // Open to everyone, so that only the server's own check stands between uid 65534 and the handler.
    ASSERT_EQ(::chmod(server_->path().c_str(), 0666), 0);
  }

  testing::TemporaryFolder folder_;
  std::unique_ptr<ControlServer> server_;
  std::atomic<int> handlerCalls_{0};
};

TEST_F(ForeignUserTest, EveryVerbFromAnotherUidIsRefusedUnread) {
  const std::string path = server_->path();
  for (Verb verb : kEveryVerb) {
    int status = exitStatusAsNobody([&] {
      try {
        Reply reply = sendRequest(path, Request{verb, "/tmp/theirs.sqlite"}, std::chrono::seconds(10));
        return !reply.ok && reply.error == "refused: this session belongs to uid 0" ? 0 : 1;
      } catch (const TraceError&) {
        return 2;  // could not reach it: the test would prove nothing
      }
    });
    EXPECT_EQ(status, 0) << verbName(verb) << " (1: answered or refused otherwise, 2: unreachable, 100: no setuid)";
  }
  EXPECT_EQ(handlerCalls_.load(), 0);
  EXPECT_EQ(server_->refused(), 5u);
  EXPECT_EQ(server_->answered(), 0u);
  // The owner is still served: the refusals were about the uid, not about the socket.
  EXPECT_TRUE(sendRequest(path, Request{}).ok);
  EXPECT_EQ(handlerCalls_.load(), 1);
}

TEST_F(ForeignUserTest, SetprivAsNobodyIsRefusedOnEveryVerb) {
  if (std::string(SETPRIV).empty()) GTEST_SKIP() << "setpriv (util-linux) is not installed";
  // A copy the other user can surely execute, whatever the permissions of the build tree above it.
  std::string probe = folder_ / "control_client_probe";
  std::filesystem::copy_file(CONTROL_CLIENT_PROBE, probe);
  ASSERT_EQ(::chmod(probe.c_str(), 0755), 0);
  for (Verb verb : kEveryVerb) {
    std::string command = std::string(SETPRIV) + " --reuid=65534 --regid=65534 --clear-groups " + probe + " " +
                          server_->path() + " " + std::string(verbName(verb)) + " 2>&1";
    std::FILE* pipe = ::popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string output;
    char chunk[256];
    while (size_t read = std::fread(chunk, 1, sizeof chunk, pipe)) output.append(chunk, read);
    int status = ::pclose(pipe);
    ASSERT_TRUE(WIFEXITED(status)) << command;
    EXPECT_EQ(WEXITSTATUS(status), 0) << command << "\n" << output;
    EXPECT_EQ(output, "refused: this session belongs to uid 0\n") << command;
  }
  EXPECT_EQ(handlerCalls_.load(), 0);
  EXPECT_EQ(server_->refused(), 5u);
}

}  // namespace
}  // namespace gpuscope::control
