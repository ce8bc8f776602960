#include "core/samples/sample_rows.h"

#include <string_view>
#include <unordered_map>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/model/global_id.h"
#include "core/schema/nsys_enums.h"

namespace gpuscope {
namespace {

// The tables as nsys 2025.3's exports declare them (column names, types, NOT NULL and keys).
constexpr std::string_view kCreateSql[] = {
    "CREATE TABLE IF NOT EXISTS COMPOSITE_EVENTS (id INTEGER NOT NULL PRIMARY KEY, start INTEGER NOT NULL, "
    "cpu INTEGER, threadState INTEGER, globalTid INTEGER, cpuCycles INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS SAMPLING_CALLCHAINS (id INTEGER NOT NULL, symbol INTEGER NOT NULL, "
    "module INTEGER NOT NULL, kernelMode INTEGER, thumbCode INTEGER, unresolved INTEGER, specialEntry INTEGER, "
    "originalIP INTEGER, unwindMethod INTEGER, stackDepth INTEGER NOT NULL, PRIMARY KEY (id, stackDepth))",
    "CREATE TABLE IF NOT EXISTS SCHED_EVENTS (start INTEGER NOT NULL, cpu INTEGER NOT NULL, "
    "isSchedIn INTEGER NOT NULL, globalTid INTEGER, threadState INTEGER, threadBlock INTEGER)",
    "CREATE INDEX IF NOT EXISTS GPUSCOPE_COMPOSITE_EVENTS_START ON COMPOSITE_EVENTS (start)",
    "CREATE INDEX IF NOT EXISTS GPUSCOPE_SCHED_EVENTS_TID ON SCHED_EVENTS (globalTid, start)",
};
constexpr std::string_view kCreateOsrtCallchainsSql =
    "CREATE TABLE IF NOT EXISTS OSRT_CALLCHAINS (id INTEGER NOT NULL, symbol INTEGER NOT NULL, module INTEGER NOT "
    "NULL, kernelMode INTEGER, thumbCode INTEGER, unresolved INTEGER, specialEntry INTEGER, originalIP INTEGER, "
    "unwindMethod INTEGER, stackDepth INTEGER NOT NULL, PRIMARY KEY (id, stackDepth))";

template <size_t N>
void writeEnum(Database& db, std::string_view table, const nsys_enum::EnumRow (&rows)[N]) {
  db.exec("CREATE TABLE IF NOT EXISTS " + std::string(table) +
          " (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT)");
  auto insert = db.prepare("INSERT OR IGNORE INTO " + std::string(table) + " (id, name, label) VALUES (?, ?, ?)");
  for (const nsys_enum::EnumRow& row : rows) {
    insert.reset();
    insert.bind(1, int64_t{row.id});
    insert.bind(2, row.name);
    insert.bind(3, row.label);
    insert.step();
  }
}

// Adds texts to the file's StringIds after its largest id, each text once.
class StringAdder {
 public:
  explicit StringAdder(Database& db) : insert_(db.prepare("INSERT INTO StringIds (id, value) VALUES (?, ?)")) {
    auto last = db.prepare("SELECT COALESCE(MAX(id), 0) FROM StringIds");
    last.step();
    next_ = last.int64(0) + 1;
  }
  int64_t idOf(const std::string& text) {
    auto [it, added] = ids_.try_emplace(text, next_);
    if (!added) return it->second;
    insert_.reset();
    insert_.bind(1, next_);
    insert_.bind(2, std::string_view(text));
    insert_.step();
    return next_++;
  }

 private:
  Statement insert_;
  std::unordered_map<std::string, int64_t> ids_;
  int64_t next_ = 1;
};

void writeSamples(Database& db, const SampleRows& rows, StringAdder& strings) {
  auto event = db.prepare(
      "INSERT INTO COMPOSITE_EVENTS (id, start, cpu, threadState, globalTid, cpuCycles) VALUES (?, ?, ?, ?, ?, 0)");
  auto frame = db.prepare(
      "INSERT INTO SAMPLING_CALLCHAINS (id, symbol, module, kernelMode, thumbCode, unresolved, specialEntry, "
      "originalIP, unwindMethod, stackDepth) VALUES (?, ?, ?, 0, 0, ?, 0, ?, ?, ?)");
  auto firstId = db.prepare("SELECT COALESCE(MAX(id), 0) FROM COMPOSITE_EVENTS");
  firstId.step();
  int64_t id = firstId.int64(0);
  for (const NamedSample& sample : rows.samples) {
    ++id;
    event.reset();
    event.bind(1, id);
    event.bind(2, int64_t{sample.start});
    event.bind(3, int64_t{sample.cpu});
    // A sample of cpu-clock is taken while the thread runs.
    event.bind(4, int64_t{nsys_enum::kThreadStateRunning});
    event.bind(5, global_id::make(0, rows.vmId, sample.pid, sample.tid));
    event.step();
    const std::vector<NamedFrame>& stack = rows.stacks.at(sample.stack);
    for (size_t depth = 0; depth < stack.size(); ++depth) {
      const NamedFrame& named = stack[depth];
      frame.reset();
      frame.bind(1, id);
      frame.bind(2, strings.idOf(named.symbol));
      frame.bind(3, strings.idOf(named.module));
      frame.bind(4, int64_t{named.unresolved ? 1 : 0});
      frame.bind(5, static_cast<int64_t>(named.ip));
      frame.bind(6, int64_t{named.python ? nsys_enum::kUnwindUnknown : nsys_enum::kUnwindFramePointer});
      frame.bind(7, static_cast<int64_t>(depth));
      frame.step();
    }
  }
}

// The recorder's backtraces come from libgcc's unwinder, which follows the .eh_frame tables.
void writeOsrtBacktraces(Database& db, const SampleRows& rows, StringAdder& strings) {
  db.exec(std::string(kCreateOsrtCallchainsSql));
  auto frame = db.prepare(
      "INSERT INTO OSRT_CALLCHAINS (id, symbol, module, kernelMode, thumbCode, unresolved, specialEntry, "
      "originalIP, unwindMethod, stackDepth) VALUES (?, ?, ?, 0, 0, ?, 0, ?, ?, ?)");
  for (size_t chain = 0; chain < rows.osrtBacktraces.size(); ++chain) {
    const std::vector<NamedFrame>& frames = rows.osrtBacktraces[chain];
    for (size_t depth = 0; depth < frames.size(); ++depth) {
      frame.reset();
      frame.bind(1, static_cast<int64_t>(chain + 1));
      frame.bind(2, strings.idOf(frames[depth].symbol));
      frame.bind(3, strings.idOf(frames[depth].module));
      frame.bind(4, int64_t{frames[depth].unresolved ? 1 : 0});
      frame.bind(5, static_cast<int64_t>(frames[depth].ip));
      frame.bind(6, int64_t{nsys_enum::kUnwindDwarfEh});
      frame.bind(7, static_cast<int64_t>(depth));
      frame.step();
    }
  }
}

void writeSwitches(Database& db, const SampleRows& rows) {
  auto insert = db.prepare(
      "INSERT INTO SCHED_EVENTS (start, cpu, isSchedIn, globalTid, threadState, threadBlock) VALUES (?, ?, ?, ?, ?, "
      "?)");
  for (const SchedSwitch& change : rows.switches) {
    insert.reset();
    insert.bind(1, int64_t{change.time});
    insert.bind(2, int64_t{change.cpu});
    insert.bind(3, int64_t{change.in ? 1 : 0});
    insert.bind(4, global_id::make(0, rows.vmId, change.pid, change.tid));
    // Switched in: running. Switched out while runnable: preempted, still Running in the kernel's terms;
    // otherwise it blocked, which perf's switch records do not tell apart from sleeping (Interruptible).
    bool runnable = change.in || change.preempted;
    insert.bind(5, int64_t{runnable ? nsys_enum::kThreadStateRunning : nsys_enum::kThreadStateInterruptible});
    int block = change.in ? nsys_enum::kThreadBlockNonBlocked
                          : (change.preempted ? nsys_enum::kThreadBlockPreempted : nsys_enum::kThreadBlockUnknown);
    insert.bind(6, int64_t{block});
    insert.step();
  }
}

}  // namespace

void writeSampleTables(const std::string& path, const SampleRows& rows) {
  Database db = Database::openWritable(path);
  if (!db.hasTable("StringIds")) throw TraceError(path + " is not a trace file: it has no StringIds table.");
  db.exec("BEGIN");
  try {
    writeEnum(db, "ENUM_STACK_UNWIND_METHOD", nsys_enum::kStackUnwindMethodRows);
    StringAdder strings(db);
    if (rows.sampled) {
      for (std::string_view sql : kCreateSql) db.exec(std::string(sql));
      writeEnum(db, "ENUM_SAMPLING_THREAD_STATE", nsys_enum::kSamplingThreadStateRows);
      writeEnum(db, "ENUM_SCHEDULING_THREAD_BLOCK", nsys_enum::kSchedulingThreadBlockRows);
      writeSamples(db, rows, strings);
      writeSwitches(db, rows);
    }
    if (!rows.osrtBacktraces.empty()) writeOsrtBacktraces(db, rows, strings);
    db.exec("COMMIT");
  } catch (...) {
    db.exec("ROLLBACK");
    throw;
  }
}

}  // namespace gpuscope
