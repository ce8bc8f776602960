// Issue 42: the Sessions window opens each file a session writes once, whether it learns of it from its own
// Stop's reply, from a refresh, or from both in either order.
#include "ui/sessions/written_file_log.h"

#include <gtest/gtest.h>

namespace gpuscope::ui {
namespace {

using Files = std::vector<std::string>;

SessionSnapshot withFiles(const std::string& name, Files files) {
  control::SessionStatus status;
  status.name = name;
  status.files = std::move(files);
  return {name, "/run/" + name + ".sock", status, {}};
}

SessionSnapshot silent(const std::string& name) {
  return {name, "/run/" + name + ".sock", std::nullopt, "session " + name + " did not answer within 2 s."};
}

TEST(WrittenFileLog, FilesWrittenBeforeTheWindowLookedAreNotAnnounced) {
  WrittenFileLog log;
  EXPECT_EQ(log.update({withFiles("a", {"a.1.sqlite", "a.2.sqlite"}), withFiles("b", {})}), Files());
  EXPECT_EQ(log.update({withFiles("a", {"a.1.sqlite", "a.2.sqlite"}), withFiles("b", {})}), Files());
}

TEST(WrittenFileLog, ANewLastEntryIsAnnouncedOnce) {
  WrittenFileLog log;
  log.update({withFiles("a", {"a.1.sqlite"}), withFiles("b", {})});
  EXPECT_EQ(log.update({withFiles("a", {"a.1.sqlite", "a.2.sqlite"}), withFiles("b", {"b.1.sqlite"})}),
            Files({"a.2.sqlite", "b.1.sqlite"}));
  EXPECT_EQ(log.update({withFiles("a", {"a.1.sqlite", "a.2.sqlite"}), withFiles("b", {"b.1.sqlite"})}), Files());
}

TEST(WrittenFileLog, OneFileNameWrittenTwiceIsAnnouncedTwice) {
  WrittenFileLog log;
  log.update({withFiles("a", {"run.sqlite"})});
  EXPECT_EQ(log.update({withFiles("a", {"run.sqlite", "run.sqlite"})}), Files({"run.sqlite"}));
  log.asking("a");
  EXPECT_TRUE(log.replied("a", "run.sqlite"));
}

TEST(WrittenFileLog, AReplysFileIsNotAnnouncedAgainByTheRefreshThatListsIt) {
  WrittenFileLog log;
  log.update({withFiles("a", {})});
  log.asking("a");
  EXPECT_TRUE(log.replied("a", "a.1.sqlite"));
  EXPECT_EQ(log.update({withFiles("a", {"a.1.sqlite"})}), Files());
  EXPECT_EQ(log.update({withFiles("a", {"a.1.sqlite", "a.2.sqlite"})}), Files({"a.2.sqlite"}));
}

TEST(WrittenFileLog, AFileARefreshAnnouncedWhileTheStopWasOnItsWayIsNotAnnouncedByTheReply) {
  WrittenFileLog log;
  log.update({withFiles("a", {})});
  log.asking("a");
  EXPECT_EQ(log.update({withFiles("a", {"a.1.sqlite"})}), Files({"a.1.sqlite"}));
  EXPECT_FALSE(log.replied("a", "a.1.sqlite"));
  EXPECT_EQ(log.update({withFiles("a", {"a.1.sqlite"})}), Files());
}

TEST(WrittenFileLog, AReplyWithoutAFileAnnouncesNothing) {
  WrittenFileLog log;
  log.asking("a");
  EXPECT_FALSE(log.replied("a", ""));
}

TEST(WrittenFileLog, ASessionThatDoesNotAnswerKeepsWhatWasKnownOfIt) {
  WrittenFileLog log;
  log.update({withFiles("a", {"a.1.sqlite"})});
  EXPECT_EQ(log.update({silent("a")}), Files());
  EXPECT_EQ(log.update({withFiles("a", {"a.1.sqlite", "a.2.sqlite"})}), Files({"a.2.sqlite"}));
}

TEST(WrittenFileLog, ASessionThatWentAwayIsNewWhenItComesBack) {
  WrittenFileLog log;
  log.update({withFiles("a", {"a.1.sqlite"})});
  log.update({});
  EXPECT_EQ(log.update({withFiles("a", {"a.1.sqlite", "a.2.sqlite"})}), Files());
}

}  // namespace
}  // namespace gpuscope::ui
