// Issue 42: File > Sessions… against real control servers that fake two sessions (one launched, one
// recording): the table after a refresh, the buttons each state allows, what Start sends, the files a Stop or
// a recording that ends by itself hands to the main window, a session that goes away, and what is painted.
#include "ui/sessions/sessions_window.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

#include "tests/ui/sessions/fake_session.h"
#include "tests/ui/sessions/temporary_control_directory.h"
#include "tests/ui/test_timeouts.h"
#include "ui/sessions/session_table_model.h"

namespace gpuscope::ui {
namespace {

using control::SessionState;
using test::FakeSession;
using test::kTimeoutMs;
using test::sessionStatus;

// What SESSION was asked besides its status, which the window asks for every second while it is shown.
std::vector<control::Request> commandsTo(const FakeSession& session) {
  std::vector<control::Request> commands;
  for (const auto& request : session.requests())
    if (request.verb != control::Verb::Status) commands.push_back(request);
  return commands;
}

class SessionsWindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(files_.isValid());
    launched_ = std::make_unique<FakeSession>(
        sessionStatus("alpha", SessionState::Launched, "python train.py --epochs 3"), filesDir());
    auto recording = sessionStatus("bravo", SessionState::Recording, "./bench --size 4096");
    recording.pid = 5151;
    recording.recordingSeconds = 2.5;
    recording.events = 12'345;
    recording.files = {filesDir() + "/bravo.1.sqlite"};
    recording_ = std::make_unique<FakeSession>(recording, filesDir());
  }

  std::string filesDir() const { return files_.path().toStdString(); }

  // A new look at the sessions, waited for; false when none came.
  bool refreshed() {
    QSignalSpy spy(&window_, &SessionsWindow::refreshed);
    window_.refresh();
    return spy.wait(kTimeoutMs);
  }

  bool clickAndWaitForTheReply(const char* button) {
    QSignalSpy answered(&window_, &SessionsWindow::commandAnswered);
    auto* pushButton = window_.findChild<QPushButton*>(button);
    if (!pushButton || !pushButton->isEnabled()) return false;
    QTest::mouseClick(pushButton, Qt::LeftButton);
    return answered.wait(kTimeoutMs);
  }

  QString cell(const char* session, SessionTableModel::Column column, int role = Qt::DisplayRole) const {
    const SessionTableModel* model = window_.model();
    return model->data(model->index(model->rowOf(session), column), role).toString();
  }

  // Which of Start, Stop, Dump and Cancel are enabled, as "S", "T", "D", "C".
  std::string enabledButtons() const {
    std::string enabled;
    for (const auto& [name, letter] : {std::pair{"startSession", "S"}, std::pair{"stopSession", "T"},
                                       std::pair{"dumpSession", "D"}, std::pair{"cancelSession", "C"}}) {
      auto* button = window_.findChild<QPushButton*>(name);
      if (button && button->isEnabled()) enabled += letter;
    }
    return enabled;
  }

  QString statusLine() const { return window_.findChild<QLabel*>("sessionStatusLine")->text(); }

  test::TemporaryControlDirectory directory_;  // first: it outlives the sessions and the window's polls
  QTemporaryDir files_;
  std::unique_ptr<FakeSession> launched_;
  std::unique_ptr<FakeSession> recording_;
  SessionsWindow window_;
};

TEST_F(SessionsWindowTest, TheTableShowsEachSessionAfterARefresh) {
  ASSERT_TRUE(refreshed());
  ASSERT_EQ(window_.model()->rowCount(), 2);
  EXPECT_EQ(window_.model()->rowOf("alpha"), 0);
  EXPECT_EQ(window_.model()->rowOf("bravo"), 1);
  EXPECT_EQ(cell("alpha", SessionTableModel::Program), "python train.py --epochs 3");
  EXPECT_EQ(cell("alpha", SessionTableModel::Pid), "4242");
  EXPECT_EQ(cell("alpha", SessionTableModel::State), "launched");
  EXPECT_EQ(cell("alpha", SessionTableModel::Recording), "");
  EXPECT_EQ(cell("alpha", SessionTableModel::Events), "");
  EXPECT_EQ(cell("alpha", SessionTableModel::LastFile), "");
  EXPECT_EQ(cell("bravo", SessionTableModel::Name), "bravo");
  EXPECT_EQ(cell("bravo", SessionTableModel::Pid), "5151");
  EXPECT_EQ(cell("bravo", SessionTableModel::State), "recording");
  EXPECT_EQ(cell("bravo", SessionTableModel::Recording), "2.500 s");
  EXPECT_EQ(cell("bravo", SessionTableModel::Events), "12,345");
  EXPECT_EQ(cell("bravo", SessionTableModel::LastFile), "bravo.1.sqlite");
  EXPECT_EQ(cell("bravo", SessionTableModel::LastFile, Qt::ToolTipRole),
            QString::fromStdString(filesDir() + "/bravo.1.sqlite"));
  EXPECT_TRUE(window_.findChild<QLabel*>("sessionsHint")->isHidden());
}

TEST_F(SessionsWindowTest, TheButtonsFollowTheSelectedSessionsState) {
  auto flight = sessionStatus("charlie", SessionState::Launched, "./server");
  flight.flightRecorder = true;
  FakeSession flightRecorder(flight, filesDir());
  ASSERT_TRUE(refreshed());
  ASSERT_NE(window_.selectedSession(), nullptr) << "the first look selects the first session";
  EXPECT_EQ(window_.selectedSession()->name, "alpha");
  EXPECT_EQ(enabledButtons(), "S");
  window_.table()->clearSelection();
  EXPECT_EQ(enabledButtons(), "") << "nothing is selected";
  ASSERT_TRUE(refreshed());
  EXPECT_EQ(window_.selectedSession(), nullptr) << "only the first look selects";
  ASSERT_TRUE(window_.selectSession("alpha"));
  EXPECT_EQ(enabledButtons(), "S");
  ASSERT_TRUE(window_.selectSession("bravo"));
  EXPECT_EQ(enabledButtons(), "TC");
  ASSERT_TRUE(window_.selectSession("charlie"));
  EXPECT_EQ(enabledButtons(), "D");
  EXPECT_EQ(cell("charlie", SessionTableModel::State), "launched (flight recorder)");
}

TEST_F(SessionsWindowTest, StartSendsTheFileOfTheOutputField) {
  window_.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window_));
  ASSERT_TRUE(refreshed());
  ASSERT_TRUE(window_.selectSession("alpha"));
  const std::string output = filesDir() + "/warmup.sqlite";
  QTest::keyClicks(window_.findChild<QLineEdit*>("sessionOutput"), QString::fromStdString(output));
  ASSERT_TRUE(clickAndWaitForTheReply("startSession"));
  const auto commands = commandsTo(*launched_);
  ASSERT_EQ(commands.size(), 1u);
  EXPECT_EQ(commands.front().verb, control::Verb::Start);
  EXPECT_EQ(commands.front().output, output);
  EXPECT_EQ(statusLine(), QString::fromStdString("Recording to " + output + "."));
  EXPECT_EQ(window_.findChild<QLineEdit*>("sessionOutput")->text(), "") << "it named that recording's file only";
  ASSERT_TRUE(refreshed());
  EXPECT_EQ(cell("alpha", SessionTableModel::State), "recording");
  EXPECT_EQ(enabledButtons(), "TC") << "the selection stays on alpha, now recording";
}

TEST_F(SessionsWindowTest, TheFileAStopWroteIsHandedOnToBeOpenedOnce) {
  ASSERT_TRUE(refreshed());
  ASSERT_TRUE(window_.selectSession("bravo"));
  QSignalSpy opened(&window_, &SessionsWindow::openFileRequested);
  ASSERT_TRUE(clickAndWaitForTheReply("stopSession"));
  const QString written = QString::fromStdString(filesDir() + "/bravo.2.sqlite");
  ASSERT_EQ(opened.count(), 1);
  EXPECT_EQ(opened.front().front().toString(), written);
  ASSERT_EQ(commandsTo(*recording_).size(), 1u);
  EXPECT_EQ(commandsTo(*recording_).front().verb, control::Verb::Stop);
  EXPECT_EQ(statusLine(), "Wrote " + written + ".");
  ASSERT_TRUE(refreshed());
  EXPECT_EQ(cell("bravo", SessionTableModel::LastFile), "bravo.2.sqlite");
  EXPECT_EQ(opened.count(), 1) << "the refresh that lists the file does not open it again";
}

TEST_F(SessionsWindowTest, NothingIsOpenedWhenTheBoxIsUnchecked) {
  ASSERT_TRUE(refreshed());
  ASSERT_TRUE(window_.selectSession("bravo"));
  auto* openWritten = window_.findChild<QCheckBox*>("openWrittenFiles");
  ASSERT_TRUE(openWritten->isChecked()) << "checked by default";
  openWritten->setChecked(false);
  QSignalSpy opened(&window_, &SessionsWindow::openFileRequested);
  ASSERT_TRUE(clickAndWaitForTheReply("stopSession"));
  EXPECT_TRUE(statusLine().startsWith("Wrote ")) << statusLine().toStdString();
  recording_->endRecording(filesDir() + "/bravo.3.sqlite");
  ASSERT_TRUE(refreshed());
  EXPECT_EQ(opened.count(), 0);
}

TEST_F(SessionsWindowTest, ARecordingThatEndsByItselfIsHandedOnToBeOpened) {
  ASSERT_TRUE(refreshed());
  QSignalSpy opened(&window_, &SessionsWindow::openFileRequested);
  const std::string written = filesDir() + "/bravo.capture-range.sqlite";
  recording_->endRecording(written);
  ASSERT_TRUE(refreshed());
  ASSERT_EQ(opened.count(), 1);
  EXPECT_EQ(opened.front().front().toString(), QString::fromStdString(written));
  EXPECT_EQ(cell("bravo", SessionTableModel::State), "launched");
  ASSERT_TRUE(refreshed());
  EXPECT_EQ(opened.count(), 1);
}

TEST_F(SessionsWindowTest, ARefusalIsSaidOnTheStatusLine) {
  ASSERT_TRUE(refreshed());
  ASSERT_TRUE(window_.selectSession("bravo"));
  recording_->endRecording(filesDir() + "/bravo.2.sqlite");  // after the refresh: the window still offers Stop
  ASSERT_TRUE(clickAndWaitForTheReply("stopSession"));
  EXPECT_EQ(statusLine(), "session bravo is not recording.");
}

TEST_F(SessionsWindowTest, ASessionThatGoesAwayLeavesTheTable) {
  ASSERT_TRUE(refreshed());
  ASSERT_TRUE(window_.selectSession("bravo"));
  recording_.reset();
  ASSERT_TRUE(refreshed());
  ASSERT_EQ(window_.model()->rowCount(), 1);
  EXPECT_EQ(window_.model()->rowOf("alpha"), 0);
  EXPECT_EQ(window_.selectedSession(), nullptr);
  EXPECT_EQ(enabledButtons(), "");
  launched_.reset();
  ASSERT_TRUE(refreshed());
  EXPECT_EQ(window_.model()->rowCount(), 0);
  EXPECT_FALSE(window_.findChild<QLabel*>("sessionsHint")->isHidden());
}

TEST_F(SessionsWindowTest, ASessionThatAnswersWithAnErrorSaysSoInTheStateColumn) {
  launched_->failStatus("session alpha cannot say its status while it writes.");
  ASSERT_TRUE(refreshed());
  ASSERT_EQ(window_.model()->rowCount(), 2);
  EXPECT_EQ(cell("alpha", SessionTableModel::State), "cannot say its status while it writes");
  EXPECT_EQ(cell("alpha", SessionTableModel::Program), "");
  ASSERT_TRUE(window_.selectSession("alpha"));
  EXPECT_EQ(enabledButtons(), "");
}

// The share of RECT's pixels in IMAGE that are COLOUR.
double shareOfColour(const QImage& image, const QRect& rect, const QColor& colour) {
  int matching = 0;
  int all = 0;
  for (int y = rect.top(); y <= rect.bottom(); ++y)
    for (int x = rect.left(); x <= rect.right(); ++x, ++all)
      if (image.pixelColor(x, y).rgb() == colour.rgb()) ++matching;
  return all == 0 ? 0 : static_cast<double>(matching) / all;
}

TEST_F(SessionsWindowTest, TheSelectedSessionsRowIsPaintedInTheHighlightColour) {
  window_.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window_));
  ASSERT_TRUE(refreshed());
  ASSERT_TRUE(window_.selectSession("bravo"));
  QTableView* table = window_.table();
  const QImage image = window_.grab().toImage();
  ASSERT_FALSE(image.isNull());
  const double ratio = image.devicePixelRatio();
  auto rowRect = [&](const char* session) {
    const int row = window_.model()->rowOf(session);
    QRect rect = table->visualRect(window_.model()->index(row, 0))
                     .united(table->visualRect(window_.model()->index(row, SessionTableModel::ColumnCount - 1)));
    rect.moveTopLeft(table->viewport()->mapTo(&window_, rect.topLeft()));
    return QRect((rect.topLeft() * ratio), (rect.size() * ratio)).adjusted(1, 1, -1, -1);
  };
  // The application's palette, not the table's: a style sheet would change both what it paints and its palette.
  const QPalette palette = QApplication::palette();
  const QColor highlight = window_.isActiveWindow() ? palette.color(QPalette::Active, QPalette::Highlight)
                                                    : palette.color(QPalette::Inactive, QPalette::Highlight);
  // Text covers part of the row; the rest of it is the highlight.
  EXPECT_GT(shareOfColour(image, rowRect("bravo"), highlight), 0.5);
  EXPECT_LT(shareOfColour(image, rowRect("alpha"), highlight), 0.05);
  EXPECT_EQ(table->indexAt(table->visualRect(window_.model()->index(1, 0)).center()).row(), 1);
}

}  // namespace
}  // namespace gpuscope::ui
