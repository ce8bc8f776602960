#include "tests/ui/tables/table_test_support.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <QAbstractItemModel>
#include <QTableView>
#include <QTest>
#include <filesystem>

#include "core/db/sqlite_database.h"
#include "core/model/trace_loader.h"
#include "core/ncu/ncu_import.h"

namespace gpuscope::ui::test {
namespace {

QStringList& failureLog() {
  static QStringList log;
  return log;
}

QtMessageHandler& previousHandler() {
  static QtMessageHandler handler = nullptr;
  return handler;
}

int& liveChecks() {
  static int count = 0;
  return count;
}

// QAbstractItemModelTester in Warning mode reports each failed check as a warning starting "FAIL!".
void collectFailures(QtMsgType type, const QMessageLogContext& context, const QString& message) {
  if (type == QtWarningMsg && message.startsWith(QLatin1String("FAIL!"))) failureLog() << message;
  if (previousHandler()) previousHandler()(type, context, message);
}

}  // namespace

std::shared_ptr<const Trace> transposeTrace() {
  static std::shared_ptr<const Trace> trace = loadTrace(std::string(GPUSCOPE_FIXTURES) + "/nsys/transpose.sqlite");
  return trace;
}

std::shared_ptr<const Trace> transposeWithMetricsTrace() {
  static std::shared_ptr<const Trace> trace = [] {
    const std::string fixtures = GPUSCOPE_FIXTURES;
    auto path = (std::filesystem::temp_directory_path() /
                 ("gpuscope_transpose_metrics_" + std::to_string(::getpid()) + ".sqlite"))
                    .string();
    importNcuMetrics({fixtures + "/nsys/transpose.sqlite", fixtures + "/nsys/transpose_ncu_metrics.csv", path, false});
    std::shared_ptr<const Trace> loaded = loadTrace(path);
    std::filesystem::remove(path);  // the open connection keeps the file's contents
    return loaded;
  }();
  return trace;
}

std::shared_ptr<const Trace> loader2Trace() {
  static std::shared_ptr<const Trace> trace = loadTrace(std::string(GPUSCOPE_FIXTURES) + "/nsys/loader2.sqlite");
  return trace;
}

int64_t sqlInt(const Trace& trace, const std::string& sql) {
  auto stmt = trace.database().prepare(sql);
  EXPECT_TRUE(stmt.step()) << sql;
  return stmt.int64(0);
}

std::string sqlText(const Trace& trace, const std::string& sql) {
  auto stmt = trace.database().prepare(sql);
  EXPECT_TRUE(stmt.step()) << sql;
  return std::string(stmt.text(0));
}

std::optional<EventRef> eventByRow(const Trace& trace, TrackKind kind, uint32_t row) {
  const auto& tracks = trace.tracks();
  for (uint32_t t = 0; t < tracks.size(); ++t) {
    if (tracks[t].kind != kind) continue;
    for (uint32_t l = 0; l < tracks[t].lanes.size(); ++l) {
      const Lane& lane = tracks[t].lanes[l];
      for (uint32_t i = 0; i < lane.size(); ++i) {
        if (lane.row[i] == row) return EventRef{t, l, i};
      }
    }
  }
  return std::nullopt;
}

ShownKernelTable::ShownKernelTable() {
  table.resize(1000, 600);
  table.show();
  EXPECT_TRUE(QTest::qWaitForWindowExposed(&table));
  session.setTrace(loader2Trace());
}

int ShownKernelTable::rows() const { return table.view()->model()->rowCount(); }

ModelCheck::ModelCheck(QAbstractItemModel* model) : firstFailure_(failureLog().size()) {
  if (liveChecks()++ == 0) previousHandler() = qInstallMessageHandler(collectFailures);
  tester_ = std::make_unique<QAbstractItemModelTester>(model, QAbstractItemModelTester::FailureReportingMode::Warning);
}

ModelCheck::~ModelCheck() {
  tester_.reset();
  if (--liveChecks() == 0) qInstallMessageHandler(previousHandler());
}

QStringList ModelCheck::failures() const { return failureLog().mid(firstFailure_); }

}  // namespace gpuscope::ui::test
