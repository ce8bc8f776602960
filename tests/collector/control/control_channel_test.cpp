// The control directory's rules, and a client and a server talking through it: requests answered,
// sessions found by pattern, stale sockets cleared, a name taken only once, errors in one sentence.
#include "collector/control/control_channel.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "collector/control/control_server.h"
#include "control_test_support.h"
#include "core/error.h"

namespace gpuscope::control {
namespace {

using testing::ScopedEnvironment;
using testing::TemporaryFolder;

std::string errorOf(const std::function<void()>& action) {
  try {
    action();
  } catch (const TraceError& error) {
    return error.what();
  }
  return "(no error)";
}

// Each test's sessions live in a control directory of their own.
class ControlChannelTest : public ::testing::Test {
 protected:
  ControlChannelTest() : controlDir_(folder_ / "control"), environment_("GPUSCOPE_CONTROL_DIR", controlDir_) {}

  // A server for session NAME that answers every request with its verb and output.
  std::unique_ptr<ControlServer> serve(const std::string& name) {
    return std::make_unique<ControlServer>(socketPath(name), [this, name](const Request& request) {
      calls_.fetch_add(1);
      Reply reply;
      reply.ok = true;
      reply.message = std::string(verbName(request.verb)) + " " + request.output;
      reply.status.name = name;
      reply.status.state = SessionState::Recording;
      return reply;
    });
  }

  static std::vector<std::string> names(const std::vector<Endpoint>& endpoints) {
    std::vector<std::string> found;
    for (const auto& endpoint : endpoints) found.push_back(endpoint.name);
    return found;
  }

  TemporaryFolder folder_;
  std::string controlDir_;
  ScopedEnvironment environment_;
  std::atomic<int> calls_{0};
};

TEST_F(ControlChannelTest, AFreshControlDirectoryIsCreatedPrivate) {
  EXPECT_EQ(controlDirectory(), controlDir_);
  EXPECT_EQ(testing::permissionBits(controlDir_), 0700u);
  EXPECT_EQ(controlDirectory(), controlDir_);  // and accepted once it exists
}

TEST_F(ControlChannelTest, ADirectoryOpenToOthersIsRefused) {
  ASSERT_EQ(::mkdir(controlDir_.c_str(), 0700), 0);
  ASSERT_EQ(::chmod(controlDir_.c_str(), 0755), 0);
  EXPECT_EQ(errorOf([] { controlDirectory(); }),
            controlDir_ + " is open to other users (mode 0755): gpuscope will not use it for sessions");
}

TEST_F(ControlChannelTest, ASymbolicLinkIsRefusedEvenToAPrivateDirectory) {
  std::string target = folder_ / "target";
  ASSERT_EQ(::mkdir(target.c_str(), 0700), 0);
  ASSERT_EQ(::symlink(target.c_str(), controlDir_.c_str()), 0);
  std::string expected = controlDir_ + " is a symbolic link: gpuscope will not use it for sessions";
  EXPECT_EQ(errorOf([] { controlDirectory(); }), expected);
  ScopedEnvironment withSlash("GPUSCOPE_CONTROL_DIR", controlDir_ + "/");
  EXPECT_EQ(errorOf([] { controlDirectory(); }), expected);
}

TEST_F(ControlChannelTest, AFileIsRefused) {
  std::FILE* file = std::fopen(controlDir_.c_str(), "w");
  ASSERT_NE(file, nullptr);
  std::fclose(file);
  EXPECT_EQ(errorOf([] { controlDirectory(); }),
            controlDir_ + " is not a directory: gpuscope will not use it for sessions");
}

TEST_F(ControlChannelTest, AnotherUsersDirectoryIsRefused) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root, to give the directory to uid 65534";
  ASSERT_EQ(::mkdir(controlDir_.c_str(), 0700), 0);
  ASSERT_EQ(::chown(controlDir_.c_str(), 65534, 65534), 0);
  EXPECT_EQ(errorOf([] { controlDirectory(); }),
            controlDir_ + " belongs to uid 65534, not to you: gpuscope will not use it for sessions");
}

TEST_F(ControlChannelTest, WithoutTheVariableTheRuntimeDirectoryIsUsed) {
  ScopedEnvironment noOverride("GPUSCOPE_CONTROL_DIR", std::nullopt);
  std::string runtime = folder_ / "runtime";
  ASSERT_EQ(::mkdir(runtime.c_str(), 0700), 0);
  ScopedEnvironment xdg("XDG_RUNTIME_DIR", runtime);
  EXPECT_EQ(controlDirectory(), runtime + "/gpuscope");
  EXPECT_EQ(testing::permissionBits(runtime + "/gpuscope"), 0700u);
}

TEST_F(ControlChannelTest, SessionNamesAreChecked) {
  EXPECT_EQ(socketPath("train.0"), controlDir_ + "/train.0.sock");
  EXPECT_EQ(socketPath("a-b_c@d+e.X9"), controlDir_ + "/a-b_c@d+e.X9.sock");
  {
    // A directory as short as /tmp/gpuscope-<uid>, which leaves room for the longest name.
    char shortDir[] = "/tmp/gsc-XXXXXX";
    ASSERT_NE(::mkdtemp(shortDir), nullptr);
    ScopedEnvironment environment("GPUSCOPE_CONTROL_DIR", std::string(shortDir));
    EXPECT_EQ(socketPath(std::string(80, 'n')), std::string(shortDir) + "/" + std::string(80, 'n') + ".sock");
    ::rmdir(shortDir);
  }
  const std::string rule = "\" cannot name a session: a name has 1 to 80 of the characters A-Z a-z 0-9 . _ @ + -";
  EXPECT_EQ(errorOf([] { socketPath(""); }), "\"" + rule);
  EXPECT_EQ(errorOf([] { socketPath("../evil"); }), "\"../evil" + rule);
  EXPECT_EQ(errorOf([] { socketPath("a b"); }), "\"a b" + rule);
  EXPECT_EQ(errorOf([] { socketPath(std::string(81, 'n')); }), "\"" + std::string(81, 'n') + rule);
}

TEST_F(ControlChannelTest, ASocketPathTooLongForUnixIsRefused) {
  std::string deep = folder_ / std::string(90, 'd');
  ScopedEnvironment environment("GPUSCOPE_CONTROL_DIR", deep);
  EXPECT_EQ(errorOf([] { socketPath("train.0"); }),
            "the socket path " + deep + "/train.0.sock is longer than the 107 bytes a Unix socket path may have");
}

TEST_F(ControlChannelTest, AClientGetsTheSessionsReplyForEveryVerb) {
  auto server = serve("train.0");
  EXPECT_EQ(testing::permissionBits(server->path()), 0600u);
  for (Verb verb : {Verb::Status, Verb::Start, Verb::Stop, Verb::Cancel, Verb::Dump}) {
    Reply reply = sendRequest(socketPath("train.0"), Request{verb, "out.sqlite"});
    EXPECT_TRUE(reply.ok);
    EXPECT_EQ(reply.message, std::string(verbName(verb)) + " out.sqlite");
    EXPECT_EQ(reply.status.name, "train.0");
    EXPECT_EQ(reply.status.state, SessionState::Recording);
  }
  EXPECT_EQ(calls_.load(), 5);
  EXPECT_EQ(server->answered(), 5u);
  EXPECT_EQ(server->refused(), 0u);
}

TEST_F(ControlChannelTest, SessionsAreFoundByPatternAndStaleSocketsCleared) {
  auto train0 = serve("train.0");
  auto train1 = serve("train.1");
  auto eval0 = serve("eval.0");
  testing::leaveStaleSocket(socketPath("train.2"));
  EXPECT_EQ(names(findSessions("train.*")), (std::vector<std::string>{"train.0", "train.1"}));
  EXPECT_FALSE(std::filesystem::exists(controlDir_ + "/train.2.sock"));
  EXPECT_EQ(names(findSessions("")), (std::vector<std::string>{"eval.0", "train.0", "train.1"}));
  EXPECT_EQ(names(findSessions("*.0")), (std::vector<std::string>{"eval.0", "train.0"}));
  EXPECT_TRUE(findSessions("nothing*").empty());
  EXPECT_EQ(findSessions("eval.0").at(0).path, eval0->path());
}

TEST_F(ControlChannelTest, ASecondServerOfTheSameNameIsRefused) {
  auto first = serve("train.0");
  EXPECT_EQ(errorOf([this] { serve("train.0"); }), "a session named train.0 is already running");
  EXPECT_TRUE(sendRequest(first->path(), Request{}).ok);  // the first keeps its socket
}

TEST_F(ControlChannelTest, AStaleSocketIsReplacedAndTheServerCleansUp) {
  testing::leaveStaleSocket(socketPath("train.0"));
  std::string path;
  {
    auto server = serve("train.0");
    path = server->path();
    EXPECT_TRUE(sendRequest(path, Request{}).ok);
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST_F(ControlChannelTest, AServerLeavesASocketThatIsNoLongerItsOwn) {
  auto old = serve("train.0");
  std::filesystem::remove(old->path());
  auto successor = serve("train.0");
  old.reset();
  EXPECT_TRUE(std::filesystem::exists(successor->path()));
  EXPECT_TRUE(sendRequest(successor->path(), Request{}).ok);
}

TEST_F(ControlChannelTest, AHandlersExceptionBecomesTheReplysError) {
  ControlServer server(socketPath("broken"),
                       [](const Request&) -> Reply { throw TraceError("no recording is under way"); });
  Reply reply = sendRequest(server.path(), Request{Verb::Stop, ""});
  EXPECT_FALSE(reply.ok);
  EXPECT_EQ(reply.error, "no recording is under way");
  EXPECT_TRUE(sendRequest(server.path(), Request{}).error == "no recording is under way");  // still serving
}

TEST_F(ControlChannelTest, AStatusWithTooManyFilesKeepsTheNewest) {
  ControlServer server(socketPath("busy"), [](const Request&) {
    Reply reply;
    reply.ok = true;
    for (int i = 0; i < 1000; ++i) reply.status.files.push_back("/data/flight/run." + std::to_string(i) + ".sqlite");
    return reply;
  });
  Reply reply = sendRequest(server.path(), Request{});
  ASSERT_TRUE(reply.ok);
  ASSERT_FALSE(reply.status.files.empty());
  EXPECT_LT(reply.status.files.size(), 1000u);
  EXPECT_EQ(reply.status.files.back(), "/data/flight/run.999.sqlite");
}

TEST_F(ControlChannelTest, ClientErrorsNameTheSession) {
  EXPECT_EQ(errorOf([this] { sendRequest(socketPath("ghost"), Request{}); }), "session ghost is not running");
  testing::leaveStaleSocket(socketPath("killed"));
  EXPECT_EQ(errorOf([this] { sendRequest(socketPath("killed"), Request{}); }), "session killed is not running");
  ControlServer slow(socketPath("slow"), [](const Request&) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    return Reply{};
  });
  EXPECT_EQ(errorOf([&] { sendRequest(slow.path(), Request{}, std::chrono::milliseconds(100)); }),
            "session slow did not answer within 100 ms");
}

TEST_F(ControlChannelTest, AnUnreadableReplyIsReportedAsSuch) {
  // A server of our own that answers with something that is not a reply.
  std::string path = socketPath("odd");
  int listener = ::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
  ASSERT_EQ(::bind(listener, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(listener, 1), 0);
  std::thread answer([listener] {
    int connection = ::accept(listener, nullptr, nullptr);
    ::send(connection, "[1]", 3, MSG_NOSIGNAL);
    ::close(connection);
  });
  EXPECT_EQ(errorOf([&] { sendRequest(path, Request{}); }),
            "session odd sent a reply gpuscope cannot read (the reply is not a JSON object)");
  answer.join();
  ::close(listener);
}

}  // namespace
}  // namespace gpuscope::control
