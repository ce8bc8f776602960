#include "tests/ui/timeline/timeline_test_trace.h"

#include <QDir>
#include <QTemporaryDir>
#include <stdexcept>

#include "core/db/sqlite_database.h"
#include "core/model/global_id.h"
#include "core/model/trace_loader.h"

namespace gpuscope::ui::timeline_test {
namespace {

constexpr uint32_t kPid = 100;

void insert(Database& db, const std::string& sql) { db.exec(sql); }

std::string n(int64_t value) { return std::to_string(value); }

}  // namespace

std::string writeHandMadeTrace() {
  static QTemporaryDir dir;
  if (!dir.isValid()) throw std::runtime_error("no temporary folder");
  std::string path = QDir(dir.path()).filePath(QStringLiteral("handmade.sqlite")).toStdString();
  Database db = Database::create(path);
  const int64_t tid = global_id::make(0, 0, kPid, kPid);
  const int64_t gpid = global_id::processOf(tid);
  db.exec("CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL)");
  db.exec(
      "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER "
      "NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL)");
  db.exec(
      "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT "
      "NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, "
      "demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL)");
  db.exec(
      "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT "
      "NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, bytes "
      "INTEGER NOT NULL, copyKind INTEGER NOT NULL)");
  db.exec(
      "CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, color INTEGER, text "
      "TEXT, globalTid INTEGER, textId INTEGER, domainId INTEGER)");
  db.exec("CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT)");
  db.exec("CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER)");

  db.exec("BEGIN");
  insert(db,
         "INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'), (2, 'cudaMemcpy_v3020'), (3, 'kernelA'), "
         "(4, 'kernelB'), (5, 'tiny'), (6, 'main'), (7, 'void kernelA(float*)'), (8, 'void kernelB(float*)'), "
         "(9, 'void tiny()')");
  auto api = [&](TimeNs s, TimeNs e, int corr, int name) {
    insert(db, "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (" + n(s) + "," + n(e) + ",0," + n(tid) + "," + n(corr) +
                   "," + n(name) + ",0)");
  };
  api(HandMade::kApi1Start, HandMade::kApi1End, 1, 1);
  api(HandMade::kApi2Start, HandMade::kApi2End, 2, 1);
  api(5000, 9000, 3, 2);
  auto kernel = [&](TimeNs s, TimeNs e, int stream, int corr, int shortName, int longName) {
    insert(db, "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (" + n(s) + "," + n(e) + ",0,1," + n(stream) + "," +
                   n(corr) + "," + n(gpid) + "," + n(longName) + "," + n(shortName) + ")");
  };
  kernel(HandMade::kKernelAStart, HandMade::kKernelAEnd, 7, 1, 3, 7);
  kernel(HandMade::kKernelBStart, HandMade::kKernelBEnd, 7, 2, 4, 8);
  for (int i = 0; i < HandMade::kTinyCount; ++i) {
    TimeNs s = HandMade::kTinyStart + 3 * i;
    kernel(s, s + 2, 8, 0, 5, 9);
  }
  insert(db, "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (9000, 9900, 0, 1, 7, 3, " + n(gpid) + ", 4096, 1)");
  insert(db, "INSERT INTO NVTX_EVENTS VALUES (500, 9500, 59, " + n(HandMade::kStepColor) + ", 'step', " + n(tid) +
                 ", NULL, 0)");
  insert(db, "INSERT INTO NVTX_EVENTS VALUES (900, 4000, 59, NULL, 'forward', " + n(tid) + ", NULL, 0)");
  insert(db, "INSERT INTO PROCESSES VALUES (" + n(gpid) + ", " + n(kPid) + ", 'app')");
  insert(db, "INSERT INTO ThreadNames VALUES (6, 0, " + n(tid) + ")");
  db.exec("COMMIT");
  return path;
}

std::shared_ptr<const Trace> loadHandMadeTrace() {
  static const std::string path = writeHandMadeTrace();
  return std::shared_ptr<const Trace>(loadTrace(path).release());
}

std::shared_ptr<const Trace> loadFixture(const char* relative) {
  return std::shared_ptr<const Trace>(loadTrace(std::string(GPUSCOPE_FIXTURES) + "/" + relative).release());
}

int findTrack(const Trace& trace, TrackKind kind, const std::string& firstEventName) {
  for (size_t t = 0; t < trace.tracks().size(); ++t) {
    const Track& track = trace.tracks()[t];
    if (track.kind != kind || track.lanes.empty() || track.lanes[0].size() == 0) continue;
    if (trace.string(track.lanes[0].name[0]) == firstEventName) return static_cast<int>(t);
  }
  return -1;
}

StringId stringId(const Trace& trace, const std::string& text) {
  for (size_t i = 0; i < trace.stringCount(); ++i) {
    if (trace.string(static_cast<StringId>(i)) == text) return static_cast<StringId>(i);
  }
  return static_cast<StringId>(trace.stringCount());
}

}  // namespace gpuscope::ui::timeline_test
