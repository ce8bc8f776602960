#include "core/model/trace_file.h"

#include <array>

#include "core/error.h"
#include "core/model/trace_values.h"
#include "core/schema/trace_schema.h"

namespace gpuscope {
namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

std::string hintFor(std::string_view table) {
  const TableSpec* spec = findTableSpec(table);
  if (spec && spec->group == TableGroup::Nvtx) return "was NVTX tracing on?";
  if (table == table::kOsrt) return "was OS runtime tracing on?";
  if (spec && (spec->group == TableGroup::GpuWork || spec->group == TableGroup::HostCalls))
    return "was CUDA tracing on?";
  return "the file may come from an older or different tool.";
}

}  // namespace

Database openTraceFile(const std::string& path) {
  Database db = Database::openReadOnly(path);
  bool anyEvents = false;
  const std::vector<std::string_view> events = eventTables();
  for (std::string_view name : events) anyEvents = anyEvents || db.hasTable(name);
  if (!db.hasTable(table::kStringIds) || !anyEvents)
    throw TraceError(path + " is an SQLite file but not a trace: it has no StringIds table or no event tables.");
  std::vector<std::string_view> checked = {table::kStringIds};
  checked.insert(checked.end(), events.begin(), events.end());
  for (auto name : checked) {
    if (!db.hasTable(name)) continue;
    auto missing = missingNeededColumns(db, tableSpec(name));
    if (!missing.empty())
      throw TraceError("The " + std::string(name) + " table of " + path + " lacks the column" +
                       (missing.size() > 1 ? "s " : " ") + joined(missing) + " that gpuscope needs.");
  }
  return db;
}

void checkIntegrity(const Database& db) {
  auto stmt = db.prepare("PRAGMA quick_check(1)");
  if (!stmt.step()) return;
  std::string result(stmt.text(0));
  if (result != "ok") throw TraceError(db.path() + " is damaged (SQLite's integrity check says: " + result + ").");
}

std::string integrityProblem(const std::string& path, const std::atomic<bool>* cancel) {
  try {
    Database db = Database::openReadOnly(path, Threading::SingleThread);
    db.interruptWhen(cancel);
    checkIntegrity(db);
  } catch (const TraceError& error) {
    if (cancel && cancel->load()) return {};
    return error.what();
  }
  return {};
}

Database openCheckedTraceFile(const std::string& path) {
  Database db = openTraceFile(path);
  checkIntegrity(db);
  checkTraceValues(db);
  return db;
}

void requireTable(const Database& db, std::string_view table) {
  if (!db.hasTable(table)) throw TraceError("This file has no " + std::string(table) + " table: " + hintFor(table));
}

}  // namespace gpuscope
