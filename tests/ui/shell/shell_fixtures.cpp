#include "shell_fixtures.h"

#include <QSettings>

#include "core/db/sqlite_database.h"
#include "core/model/global_id.h"
#include "ui/main_window/main_window.h"

namespace gpuscope::ui::test {

QString fixturePath(const char* relative) {
  return QStringLiteral(GPUSCOPE_FIXTURES "/") + QString::fromUtf8(relative);
}

std::unique_ptr<MainWindow> shownMainWindow(const QTemporaryDir& dir, int width, int height) {
  auto window = std::make_unique<MainWindow>(
      std::make_unique<QSettings>(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat));
  window->resize(width, height);
  window->show();
  return window;
}

namespace {

int64_t scalar(const Database& db, const std::string& sql) {
  Statement statement = db.prepare(sql);
  return statement.step() ? statement.int64(0) : 0;
}

int64_t countRows(const Database& db, const std::string& table, const std::string& where = {}) {
  if (!db.hasTable(table)) return 0;
  return scalar(db, "SELECT count(*) FROM " + table + (where.empty() ? "" : " WHERE " + where));
}

}  // namespace

FixtureFacts readFixtureFacts(const QString& path) {
  const Database db = Database::openReadOnly(path.toStdString());
  FixtureFacts facts;
  facts.kernels = countRows(db, "CUPTI_ACTIVITY_KIND_KERNEL");
  facts.memcpys = countRows(db, "CUPTI_ACTIVITY_KIND_MEMCPY");
  facts.memsets = countRows(db, "CUPTI_ACTIVITY_KIND_MEMSET");
  facts.syncs = countRows(db, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION");
  facts.cudaApi = countRows(db, "CUPTI_ACTIVITY_KIND_RUNTIME");
  // ENUM_NSYS_EVENT_TYPE: 34 NvtxMark, 59 NvtxPushPopRange, 60 NvtxStartEndRange.
  facts.nvtx = countRows(db, "NVTX_EVENTS", "eventType IN (34, 59, 60)");
  facts.osrt = countRows(db, "OSRT_API");

  std::string pid = global_id::sqlPid("r.globalTid");
  Statement processes =
      db.prepare("SELECT " + pid + " AS pid, count(*), (SELECT p.name FROM PROCESSES p WHERE p.pid = " + pid +
                 ") FROM CUPTI_ACTIVITY_KIND_RUNTIME r GROUP BY pid ORDER BY pid");
  while (processes.step()) {
    FixtureFacts::Process process;
    process.pid = static_cast<uint32_t>(processes.int64(0));
    process.cudaApi = processes.int64(1);
    if (!processes.isNull(2)) process.name = std::string(processes.text(2));
    facts.cudaProcesses.push_back(process);
  }

  Statement gpu = db.prepare("SELECT name, smCount FROM TARGET_INFO_GPU ORDER BY id LIMIT 1");
  if (gpu.step()) {
    facts.gpuName = std::string(gpu.text(0));
    facts.smCount = gpu.int64(1);
  }
  return facts;
}

}  // namespace gpuscope::ui::test
