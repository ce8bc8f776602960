// Issue 42: the Sessions window offers only what the selected session's state allows.
#include "ui/sessions/session_actions.h"

#include <gtest/gtest.h>

namespace gpuscope::ui {
namespace {

using control::SessionState;

control::SessionStatus inState(SessionState state, bool flightRecorder = false) {
  control::SessionStatus status;
  status.state = state;
  status.flightRecorder = flightRecorder;
  return status;
}

// "S" start, "T" stop, "C" cancel, "D" dump: what a status allows, in one word for a readable failure.
std::string offered(const std::optional<control::SessionStatus>& status) {
  const SessionActions actions = actionsFor(status);
  return std::string(actions.start ? "S" : "") + (actions.stop ? "T" : "") + (actions.cancel ? "C" : "") +
         (actions.dump ? "D" : "");
}

TEST(SessionActions, FollowTheSessionsState) {
  EXPECT_EQ(offered(inState(SessionState::Launched)), "S");
  EXPECT_EQ(offered(inState(SessionState::Recording)), "TC");
  EXPECT_EQ(offered(inState(SessionState::Writing)), "");
  EXPECT_EQ(offered(inState(SessionState::Ended)), "");
}

TEST(SessionActions, AFlightRecorderThatRunsCanOnlyBeDumped) {
  EXPECT_EQ(offered(inState(SessionState::Launched, true)), "D");
  EXPECT_EQ(offered(inState(SessionState::Recording, true)), "D");
  EXPECT_EQ(offered(inState(SessionState::Writing, true)), "");
  EXPECT_EQ(offered(inState(SessionState::Ended, true)), "");
}

TEST(SessionActions, NothingForASessionThatGaveNoStatus) {
  EXPECT_EQ(offered(std::nullopt), "");
  EXPECT_FALSE(actionsFor(std::nullopt).allows(control::Verb::Start));
  EXPECT_TRUE(actionsFor(inState(SessionState::Recording)).allows(control::Verb::Stop));
}

}  // namespace
}  // namespace gpuscope::ui
