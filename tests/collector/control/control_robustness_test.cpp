// A live server against hostile clients: 10,000 connections of random bytes, requests cut short, JSON of
// the wrong shape and hang-ups; then silent clients. Each is refused and counted, the handler sees only the
// valid requests, and a valid request afterwards is still answered.
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "collector/control/control_channel.h"
#include "collector/control/control_server.h"
#include "control_test_support.h"

namespace gpuscope::control {
namespace {

// JSON a request might be mistaken for: all of it well formed, none of it a request.
const std::vector<std::string> kWrongShapes = {
    "null",
    "true",
    "42",
    "\"status\"",
    "[]",
    "[\"status\"]",
    "{}",
    R"({"verb":null})",
    R"({"verb":0})",
    R"({"verb":{"name":"status"}})",
    R"({"verb":["status"]})",
    R"({"verb":"STATUS"})",
    R"({"verb":"status ","output":""})",
    R"({"verb":"start","output":1})",
    R"({"verb":"start","output":["a"]})",
    R"({"verb":"dump","output":"x\u0000y"})",
    R"({"Verb":"status"})",
};

class HostileClientsTest : public ::testing::Test {
 protected:
  HostileClientsTest()
      : server_(folder_ / "target.sock", [this](const Request&) {
          handlerCalls_.fetch_add(1);
          Reply reply;
          reply.ok = true;
          return reply;
        }) {}

  testing::TemporaryFolder folder_;
  std::atomic<int> handlerCalls_{0};
  ControlServer server_;
};

std::string randomBytes(std::mt19937& random, size_t size) {
  std::uniform_int_distribution<int> byte(0, 255);
  std::string bytes(size, '\0');
  for (char& c : bytes) c = static_cast<char>(byte(random));
  return bytes;
}

TEST_F(HostileClientsTest, TenThousandBadMessagesLeaveTheServerAnswering) {
  std::mt19937 random(20240611);
  std::uniform_int_distribution<size_t> randomSize(0, 20000);
  const std::vector<std::string> valid = {encode(Request{Verb::Status, ""}), encode(Request{Verb::Start, "a.sqlite"}),
                                          encode(Request{Verb::Dump, std::string(300, 'p')})};
  int validSent = 0;
  for (int i = 0; i < 10000; ++i) {
    switch (i % 4) {
      case 0:
        testing::sendRawAndHangUp(server_.path(), randomBytes(random, randomSize(random)));
        break;
      case 1: {
        const std::string& whole = valid[random() % valid.size()];
        testing::sendRawAndHangUp(server_.path(), whole.substr(0, random() % whole.size()));
        break;
      }
      case 2:
        testing::sendRawAndHangUp(server_.path(), kWrongShapes[random() % kWrongShapes.size()]);
        break;
      default:
        ::close(testing::connectRaw(server_.path()));
    }
    if (i % 1000 == 999) {  // valid requests in between are answered as usual
      ASSERT_TRUE(sendRequest(server_.path(), Request{Verb::Stop, ""}).ok) << "after " << i + 1 << " messages";
      ++validSent;
    }
  }
  Reply reply = sendRequest(server_.path(), Request{Verb::Status, ""});
  ++validSent;
  EXPECT_TRUE(reply.ok);
  EXPECT_EQ(handlerCalls_.load(), validSent);
  EXPECT_EQ(server_.answered(), static_cast<uint64_t>(validSent));
  EXPECT_EQ(server_.refused(), 10000u);
}

TEST_F(HostileClientsTest, EachRefusalSaysWhy) {
  auto replyTo = [this](const std::string& bytes) {
    int fd = testing::connectRaw(server_.path());
    ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    std::string reply(kMaxMessageBytes, '\0');
    pollfd ready{fd, POLLIN, 0};
    ::poll(&ready, 1, 5000);
    ssize_t length = ::recv(fd, reply.data(), reply.size(), MSG_DONTWAIT);
    ::close(fd);
    reply.resize(length > 0 ? static_cast<size_t>(length) : 0);
    std::string problem;
    auto decoded = decodeReply(reply, problem);
    return decoded ? decoded->error : "unreadable reply: " + problem;
  };
  EXPECT_EQ(replyTo(std::string(20000, '{')), "the request is longer than the 16384 bytes a message may have");
  EXPECT_EQ(replyTo("{\"verb\":\"sta"), "the request is not JSON");
  EXPECT_EQ(replyTo("{\"verb\":\"pause\"}"),
            "the request's verb \"pause\" is not one of status, start, stop, cancel, dump");
  EXPECT_EQ(handlerCalls_.load(), 0);
  EXPECT_EQ(server_.refused(), 3u);
}

// A client that connects and says nothing holds the server for a second at most (control_server.h): a
// few of them, then a valid request, which is still answered.
TEST_F(HostileClientsTest, SilentClientsAreDroppedAfterASecond) {
  constexpr int kSilent = 3;
  std::vector<int> silent;
  for (int i = 0; i < kSilent; ++i) silent.push_back(testing::connectRaw(server_.path()));
  auto start = std::chrono::steady_clock::now();
  Reply reply = sendRequest(server_.path(), Request{}, std::chrono::seconds(10));
  auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(reply.ok);
  EXPECT_GE(waited, std::chrono::milliseconds(kSilent * 1000 - 100));
  EXPECT_LT(waited, std::chrono::milliseconds(kSilent * 1000 + 2000));
  for (int fd : silent) {
    std::string answer(kMaxMessageBytes, '\0');
    ssize_t length = ::recv(fd, answer.data(), answer.size(), MSG_DONTWAIT);
    answer.resize(length > 0 ? static_cast<size_t>(length) : 0);
    std::string problem;
    auto decoded = decodeReply(answer, problem);
    ASSERT_TRUE(decoded.has_value()) << problem;
    EXPECT_EQ(decoded->error, "the request did not arrive within a second");
    ::close(fd);
  }
  EXPECT_EQ(server_.refused(), static_cast<uint64_t>(kSilent));
  EXPECT_EQ(handlerCalls_.load(), 1);
}

// Twenty clients that go quiet and then hang up before the second is out cost only their own time.
TEST_F(HostileClientsTest, ClientsThatHangUpMidWaitAreCounted) {
  for (int i = 0; i < 20; ++i) {
    int fd = testing::connectRaw(server_.path());
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ::close(fd);
  }
  EXPECT_TRUE(sendRequest(server_.path(), Request{}).ok);
  EXPECT_EQ(server_.refused(), 20u);
  EXPECT_EQ(handlerCalls_.load(), 1);
}

}  // namespace
}  // namespace gpuscope::control
