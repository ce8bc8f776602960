#include "core/samples/thread_states.h"

#include <algorithm>

#include "core/db/sqlite_database.h"
#include "core/model/global_id.h"
#include "core/schema/nsys_enums.h"
#include "core/schema/table_names.h"

namespace gpuscope {
namespace {

struct SwitchRecord {
  TimeNs start = 0;
  bool in = false;
  int64_t state = 0;
  uint8_t block = 0;
};

std::string columnOr(const Database& db, const std::string& column) {
  auto columns = db.columnsOf(table::kSchedEvents);
  return std::find(columns.begin(), columns.end(), column) != columns.end() ? column : "NULL";
}

// Switch records in time order; at one instant a switch out comes before a switch in, so that a thread
// switched out and in at the same nanosecond runs on.
std::string schedSql(const Database& db, std::optional<uint32_t> pid, std::optional<uint32_t> tid) {
  std::string sql = "SELECT globalTid, start, isSchedIn, " + columnOr(db, "threadState") + ", " +
                    columnOr(db, "threadBlock") + " FROM " + std::string(table::kSchedEvents) +
                    " WHERE globalTid IS NOT NULL";
  if (pid) sql += " AND " + global_id::sqlPid("globalTid") + " = " + std::to_string(*pid);
  if (tid) sql += " AND " + global_id::sqlTid("globalTid") + " = " + std::to_string(*tid);
  return sql + " ORDER BY globalTid, start, isSchedIn";
}

ThreadActivity activityAfter(const SwitchRecord& record) {
  if (record.in) return ThreadActivity::Running;
  switch (record.state) {
    case nsys_enum::kThreadStateTerminated:
      return ThreadActivity::Terminated;
    case nsys_enum::kThreadStateRunning:
      return ThreadActivity::Preempted;
    case nsys_enum::kThreadStateInterruptible:
      return ThreadActivity::Sleeping;
    case nsys_enum::kThreadStateUninterruptible:
      return ThreadActivity::BlockedIo;
    default:
      return record.block == nsys_enum::kThreadBlockPreempted ? ThreadActivity::Preempted : ThreadActivity::OffCpu;
  }
}

// Adds the stretch from PREVIOUS to NOW, joined to the last span when the activity is the same.
void addSpan(ThreadStates& thread, const SwitchRecord& previous, TimeNs now) {
  if (now <= previous.start) return;
  ThreadActivity activity = activityAfter(previous);
  uint8_t block = previous.in ? 0 : previous.block;
  if (!thread.spans.empty()) {
    ThreadStateSpan& last = thread.spans.back();
    if (last.activity == activity && last.threadBlock == block && last.time.end == previous.start) {
      last.time.end = now;
      return;
    }
  }
  thread.spans.push_back({{previous.start, now}, activity, block});
}

}  // namespace

TimeInterval ThreadStates::observed() const {
  if (spans.empty()) return {};
  return {spans.front().time.start, spans.back().time.end};
}

int64_t ThreadStates::timeIn(ThreadActivity activity, TimeInterval window) const {
  if (window.empty()) window = observed();
  int64_t total = 0;
  for (const ThreadStateSpan& span : spans) {
    if (span.activity != activity) continue;
    TimeNs from = std::max(span.time.start, window.start);
    TimeNs to = std::min(span.time.end, window.end);
    if (to > from) total += to - from;
  }
  return total;
}

int64_t ThreadStates::timeOffCpu(TimeInterval window) const {
  int64_t total = 0;
  for (ThreadActivity activity : kThreadActivities) {
    if (activity != ThreadActivity::Running && activity != ThreadActivity::Terminated)
      total += timeIn(activity, window);
  }
  return total;
}

ThreadStateRead readThreadStates(const Database& db, std::optional<uint32_t> pid, std::optional<uint32_t> tid) {
  ThreadStateRead read;
  if (!db.hasTable(table::kSchedEvents)) {
    read.missingTable = true;
    return read;
  }
  auto row = db.prepare(schedSql(db, pid, tid));
  SwitchRecord previous;
  while (row.step()) {
    int64_t globalTid = row.int64(0);
    SwitchRecord record{row.int64(1), row.int64(2) != 0, row.isNull(3) ? 0 : row.int64(3),
                        static_cast<uint8_t>(row.isNull(4) ? 0 : row.int64(4))};
    if (read.threads.empty() || read.threads.back().globalTid != globalTid) {
      read.threads.push_back({globalTid, {}});
    } else {
      addSpan(read.threads.back(), previous, record.start);
    }
    previous = record;
  }
  return read;
}

const char* activityLabel(ThreadActivity activity) {
  switch (activity) {
    case ThreadActivity::Running:
      return "Running";
    case ThreadActivity::OffCpu:
      return "Off CPU";
    case ThreadActivity::Preempted:
      return "Preempted";
    case ThreadActivity::Sleeping:
      return "Sleeping";
    case ThreadActivity::BlockedIo:
      return "Blocked (I/O)";
    case ThreadActivity::Terminated:
      return "Terminated";
  }
  return "Running";
}

}  // namespace gpuscope
