// The viewer loads without SQLite's whole-file check and runs it once the window shows the trace
// (IntegrityChecker): a damaged file still loads, then is reported; a sound one raises nothing.
#include <gtest/gtest.h>

#include <QFile>
#include <QMessageBox>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>

#include "core/db/sqlite_database.h"
#include "tests/ui/shell/shell_fixtures.h"
#include "tests/ui/test_timeouts.h"
#include "ui/loading/integrity_checker.h"
#include "ui/main_window/main_window.h"

namespace gpuscope::ui {
namespace {

using test::kTimeoutMs;

// A copy of the transpose fixture whose META_DATA_EXPORT root page (a table the loader never reads)
// has an impossible b-tree page type: only the integrity check can find it.
QString damagedCopy(const QTemporaryDir& dir) {
  QString path = dir.filePath(QStringLiteral("damaged.sqlite"));
  QFile::copy(test::fixturePath("nsys/transpose.sqlite"), path);
  QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
  int64_t root = 0;
  {
    Database db = Database::openReadOnly(path.toStdString());
    Statement stmt = db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'META_DATA_EXPORT'");
    EXPECT_TRUE(stmt.step());
    root = stmt.int64(0);
  }
  QFile file(path);
  EXPECT_TRUE(file.open(QIODevice::ReadWrite));
  QByteArray header = file.read(18);
  const int64_t pageSize = (static_cast<unsigned char>(header[16]) << 8) | static_cast<unsigned char>(header[17]);
  file.seek((root - 1) * pageSize);
  file.write("\x7F", 1);
  return path;
}

class IntegrityCheckTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.isValid());
    window_ = std::make_unique<MainWindow>(
        std::make_unique<QSettings>(dir_.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat));
    window_->resize(1200, 800);
    window_->show();
  }

  // Opens PATH and waits for its integrity check; returns the problem it reported.
  QString openAndCheck(const QString& path) {
    QSignalSpy loaded(window_.get(), &MainWindow::traceLoaded);
    QSignalSpy checked(window_->integrity(), &IntegrityChecker::checked);
    window_->openFile(path);
    EXPECT_TRUE(checked.wait(kTimeoutMs));
    EXPECT_EQ(loaded.count(), 1) << "the check runs after the trace is shown";
    if (checked.isEmpty()) return QStringLiteral("(no check)");
    EXPECT_EQ(checked.first().at(0).toString(), path);
    return checked.first().at(1).toString();
  }

  QTemporaryDir dir_;
  std::unique_ptr<MainWindow> window_;
};

TEST_F(IntegrityCheckTest, DamageTheLoaderNeverReadsIsReportedAfterTheTraceIsShown) {
  QString problem = openAndCheck(damagedCopy(dir_));
  EXPECT_TRUE(problem.contains(QStringLiteral("damaged"))) << problem.toStdString();
  EXPECT_TRUE(window_->showsTrace());
  EXPECT_TRUE(window_->statusBar()->currentMessage().contains(QStringLiteral("damaged")))
      << window_->statusBar()->currentMessage().toStdString();
  auto boxes = window_->findChildren<QMessageBox*>();
  ASSERT_EQ(boxes.size(), 1);
  EXPECT_EQ(boxes[0]->icon(), QMessageBox::Warning);
  EXPECT_TRUE(boxes[0]->text().contains(QStringLiteral("may be incomplete or wrong")));
}

TEST_F(IntegrityCheckTest, ASoundFileRaisesNothing) {
  EXPECT_EQ(openAndCheck(test::fixturePath("nsys/transpose.sqlite")), QString());
  EXPECT_TRUE(window_->findChildren<QMessageBox*>().isEmpty());
  EXPECT_FALSE(window_->statusBar()->currentMessage().contains(QStringLiteral("damaged")));
}

}  // namespace
}  // namespace gpuscope::ui
