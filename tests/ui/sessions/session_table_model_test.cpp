// Issue 42: the Sessions table changes in place at each refresh (the selection stays on its session), and a
// session that gave no status says why in a few words.
#include "ui/sessions/session_table_model.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QItemSelectionModel>

namespace gpuscope::ui {
namespace {

SessionSnapshot launchedSession(const std::string& name) {
  control::SessionStatus status;
  status.name = name;
  status.program = "./" + name;
  status.pid = static_cast<int64_t>(name.size());
  return {name, "/run/" + name + ".sock", status, {}};
}

std::vector<std::string> namesIn(const SessionTableModel& model) {
  std::vector<std::string> names;
  for (int row = 0; row < model.rowCount(); ++row) names.push_back(model.session(row)->name);
  return names;
}

TEST(SessionTableModel, RefreshesInsertChangeAndRemoveRowsInNameOrder) {
  SessionTableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Warning);
  model.update({launchedSession("b"), launchedSession("d")});
  model.update({launchedSession("a"), launchedSession("b"), launchedSession("c")});
  EXPECT_EQ(namesIn(model), std::vector<std::string>({"a", "b", "c"}));
  model.update({launchedSession("c")});
  EXPECT_EQ(namesIn(model), std::vector<std::string>({"c"}));
  model.update({});
  EXPECT_EQ(model.rowCount(), 0);
  EXPECT_EQ(model.rowOf("c"), -1);
}

TEST(SessionTableModel, TheSelectionStaysOnItsSessionWhenOthersComeAndGo) {
  SessionTableModel model;
  QItemSelectionModel selection(&model);
  model.update({launchedSession("m"), launchedSession("x")});
  selection.select(model.index(model.rowOf("x"), 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  model.update({launchedSession("a"), launchedSession("b"), launchedSession("x")});
  ASSERT_EQ(selection.selectedRows().size(), 1);
  EXPECT_EQ(model.session(selection.selectedRows().front().row())->name, "x");
}

TEST(SessionTableModel, ASessionWithoutStatusShowsItsErrorInShortInTheStateColumn) {
  SessionTableModel model;
  const std::string sentence = "session train.rank3 did not answer within 2 s.";
  model.update({{"train.rank3", "/run/train.rank3.sock", std::nullopt, sentence}});
  const QModelIndex state = model.index(0, SessionTableModel::State);
  EXPECT_EQ(model.data(state).toString(), QStringLiteral("did not answer within 2 s"));
  EXPECT_EQ(model.data(state, Qt::ToolTipRole).toString(), QString::fromStdString(sentence));
  EXPECT_TRUE(model.data(state, Qt::ForegroundRole).isValid());
  EXPECT_EQ(model.data(model.index(0, SessionTableModel::Name)).toString(), QStringLiteral("train.rank3"));
  EXPECT_EQ(model.data(model.index(0, SessionTableModel::Pid)).toString(), QString());
}

TEST(SessionTableModel, ShortErrorsKeepTheCauseAndDropTheSessionsName) {
  EXPECT_EQ(shortErrorText("session a is not running.", "a"), QStringLiteral("not running"));
  EXPECT_EQ(shortErrorText("cannot reach session a: Connection refused.", "a"), QStringLiteral("Connection refused"));
  EXPECT_EQ(shortErrorText("session a closed the connection without answering.", "a"),
            QStringLiteral("closed the connection without answering"));
  EXPECT_EQ(
      shortErrorText("the recorder of this session refuses to start while the GPU is in use by another one.", "a"),
      QString::fromUtf8("the recorder of this session refuses to…"));
  EXPECT_EQ(shortErrorText("the recorder is busy.", "a"), QStringLiteral("the recorder is busy"));
}

TEST(SessionTableModel, HeadersNameEveryColumn) {
  SessionTableModel model;
  QStringList headers;
  for (int column = 0; column < model.columnCount(); ++column)
    headers << model.headerData(column, Qt::Horizontal).toString();
  EXPECT_EQ(headers, QStringList({"Name", "Program", "PID", "State", "Recording", "Events", "Last file"}));
}

}  // namespace
}  // namespace gpuscope::ui
