// The control channel's messages: every verb and state survives a round trip, and every kind of malformed
// message is refused in its own sentence, never with an exception.
#include "collector/control/control_protocol.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

namespace gpuscope::control {
namespace {

constexpr Verb kAllVerbs[] = {Verb::Status, Verb::Start, Verb::Stop, Verb::Cancel, Verb::Dump};
constexpr SessionState kAllStates[] = {SessionState::Launched, SessionState::Recording, SessionState::Writing,
                                       SessionState::Ended};

std::string requestProblem(std::string_view message) {
  std::string problem;
  EXPECT_FALSE(decodeRequest(message, problem).has_value()) << message;
  return problem;
}

std::string replyProblem(std::string_view message) {
  std::string problem;
  EXPECT_FALSE(decodeReply(message, problem).has_value()) << message;
  return problem;
}

TEST(ControlProtocol, VerbAndStateNamesGoBothWays) {
  for (Verb verb : kAllVerbs) EXPECT_EQ(verbFromName(verbName(verb)), verb);
  for (SessionState state : kAllStates) EXPECT_EQ(stateFromName(stateName(state)), state);
  EXPECT_EQ(verbName(Verb::Dump), "dump");
  EXPECT_EQ(stateName(SessionState::Writing), "writing");
  EXPECT_FALSE(verbFromName("Status").has_value());
  EXPECT_FALSE(stateFromName("").has_value());
}

TEST(ControlProtocol, EveryVerbSurvivesARoundTrip) {
  for (Verb verb : kAllVerbs) {
    for (std::string output : {"", "run.%p.sqlite", "/tmp/dir with spaces/ü.sqlite"}) {
      std::string problem;
      auto decoded = decodeRequest(encode(Request{verb, output}), problem);
      ASSERT_TRUE(decoded.has_value()) << problem;
      EXPECT_EQ(decoded->verb, verb);
      EXPECT_EQ(decoded->output, output);
    }
  }
}

TEST(ControlProtocol, EveryStateSurvivesARoundTripInAReply) {
  for (SessionState state : kAllStates) {
    Reply reply;
    reply.ok = true;
    reply.message = "recording to run.2.sqlite";
    reply.file = "run.1.sqlite";
    reply.status = {"train.0", "python 'train.py' --epochs 3", 4242, state, 12.5, 1u << 31 | 7u, {"a", "b.sqlite"},
                    true};
    std::string problem;
    auto decoded = decodeReply(encode(reply), problem);
    ASSERT_TRUE(decoded.has_value()) << problem;
    EXPECT_TRUE(decoded->ok);
    EXPECT_EQ(decoded->message, reply.message);
    EXPECT_EQ(decoded->file, reply.file);
    EXPECT_EQ(decoded->status.name, "train.0");
    EXPECT_EQ(decoded->status.program, reply.status.program);
    EXPECT_EQ(decoded->status.pid, 4242);
    EXPECT_EQ(decoded->status.state, state);
    EXPECT_DOUBLE_EQ(decoded->status.recordingSeconds, 12.5);
    EXPECT_EQ(decoded->status.events, reply.status.events);
    EXPECT_EQ(decoded->status.files, reply.status.files);
    EXPECT_TRUE(decoded->status.flightRecorder);
  }
}

TEST(ControlProtocol, AFailedReplyCarriesItsError) {
  Reply reply;
  reply.error = "no recording is under way";
  std::string problem;
  auto decoded = decodeReply(encode(reply), problem);
  ASSERT_TRUE(decoded.has_value()) << problem;
  EXPECT_FALSE(decoded->ok);
  EXPECT_EQ(decoded->error, "no recording is under way");
}

TEST(ControlProtocol, TextThatIsNotUtf8IsSentRatherThanThrown) {
  Reply reply;
  reply.error = "bad \xff byte";
  reply.status.recordingSeconds = std::numeric_limits<double>::quiet_NaN();
  std::string problem;
  auto decoded = decodeReply(encode(reply), problem);
  ASSERT_TRUE(decoded.has_value()) << problem;
  EXPECT_EQ(decoded->error, "bad \xEF\xBF\xBD byte");
  EXPECT_EQ(decoded->status.recordingSeconds, 0.0);
}

TEST(ControlProtocol, UnknownFieldsAreIgnored) {
  std::string problem;
  auto request = decodeRequest(R"({"verb":"stop","output":"x.sqlite","since":3,"extra":{"a":[1]}})", problem);
  ASSERT_TRUE(request.has_value()) << problem;
  EXPECT_EQ(request->verb, Verb::Stop);
  EXPECT_EQ(request->output, "x.sqlite");
  auto reply = decodeReply(R"({"ok":true,"later":"field","status":{"state":"ended","cpu":1}})", problem);
  ASSERT_TRUE(reply.has_value()) << problem;
  EXPECT_EQ(reply->status.state, SessionState::Ended);
}

TEST(ControlProtocol, MalformedRequestsAreRefusedInOneSentenceEach) {
  EXPECT_EQ(requestProblem(""), "the request is empty");
  EXPECT_EQ(requestProblem(std::string(kMaxMessageBytes + 1, ' ')),
            "the request is longer than the 16384 bytes a message may have");
  EXPECT_EQ(requestProblem("{\"verb\":"), "the request is not JSON");
  EXPECT_EQ(requestProblem("\xff\xfe"), "the request is not JSON");
  EXPECT_EQ(requestProblem("[\"status\"]"), "the request is not a JSON object");
  EXPECT_EQ(requestProblem("\"status\""), "the request is not a JSON object");
  EXPECT_EQ(requestProblem("{}"), "the request has no \"verb\"");
  EXPECT_EQ(requestProblem(R"({"verb":1})"), "the request's \"verb\" is not a string");
  EXPECT_EQ(requestProblem(R"({"verb":["stop"]})"), "the request's \"verb\" is not a string");
  EXPECT_EQ(requestProblem(R"({"verb":"pause"})"),
            "the request's verb \"pause\" is not one of status, start, stop, cancel, dump");
  EXPECT_EQ(requestProblem(R"({"verb":"start","output":7})"), "the request's \"output\" is not a string");
  EXPECT_EQ(requestProblem(R"({"verb":"start","output":null})"), "the request's \"output\" is not a string");
  EXPECT_EQ(requestProblem(R"({"verb":"dump","output":")" + std::string(4097, 'a') + "\"}"),
            "the request's output path is longer than 4096 bytes");
  EXPECT_EQ(requestProblem(R"({"verb":"dump","output":"a\u0000b"})"), "the request's output path contains a NUL byte");
}

TEST(ControlProtocol, AnOutputOfExactly4096BytesIsAccepted) {
  std::string problem;
  auto request = decodeRequest(encode(Request{Verb::Dump, std::string(4096, 'a')}), problem);
  ASSERT_TRUE(request.has_value()) << problem;
  EXPECT_EQ(request->output.size(), 4096u);
}

TEST(ControlProtocol, AnUnknownVerbIsQuotedShortAndPrintable) {
  EXPECT_EQ(
      requestProblem(R"({"verb":"bad\nverb)" + std::string(100, 'x') + "\"}"),
      "the request's verb \"bad?verb" + std::string(32, 'x') + "...\" is not one of status, start, stop, cancel, dump");
}

TEST(ControlProtocol, MalformedRepliesAreRefusedInOneSentenceEach) {
  EXPECT_EQ(replyProblem(""), "the reply is empty");
  EXPECT_EQ(replyProblem("nope"), "the reply is not JSON");
  EXPECT_EQ(replyProblem("[]"), "the reply is not a JSON object");
  EXPECT_EQ(replyProblem("{}"), "the reply has no \"ok\"");
  EXPECT_EQ(replyProblem(R"({"ok":"yes"})"), "the reply's \"ok\" is not true or false");
  EXPECT_EQ(replyProblem(R"({"ok":false,"error":1})"), "the reply's \"error\" is not a string");
  EXPECT_EQ(replyProblem(R"({"ok":true,"status":[]})"), "the reply's \"status\" is not an object");
  EXPECT_EQ(replyProblem(R"({"ok":true,"status":{"pid":1.5}})"), "the reply's status's \"pid\" is not an integer");
  EXPECT_EQ(replyProblem(R"({"ok":true,"status":{"pid":9223372036854775808}})"),
            "the reply's status's \"pid\" is not an integer");
  EXPECT_EQ(replyProblem(R"({"ok":true,"status":{"state":"paused"}})"),
            "the reply's status has the unknown state \"paused\"");
  EXPECT_EQ(replyProblem(R"({"ok":true,"status":{"events":-1}})"),
            "the reply's status's \"events\" is not a count (an integer of 0 or more)");
  EXPECT_EQ(replyProblem(R"({"ok":true,"status":{"recordingSeconds":"2"}})"),
            "the reply's status's \"recordingSeconds\" is not a number");
  EXPECT_EQ(replyProblem(R"({"ok":true,"status":{"files":["a",2]}})"),
            "the reply's status's \"files\" is not a list of strings");
  EXPECT_EQ(replyProblem(R"({"ok":true,"status":{"flightRecorder":1}})"),
            "the reply's status's \"flightRecorder\" is not true or false");
}

}  // namespace
}  // namespace gpuscope::control
