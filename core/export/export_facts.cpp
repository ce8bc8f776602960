#include "core/export/export_facts.h"

#include <charconv>

#include "core/db/sqlite_database.h"
#include "core/schema/nsys_enums.h"
#include "core/schema/trace_schema.h"

namespace gpuscope {
namespace {

std::optional<int64_t> sessionStart(const Database& db) {
  if (!hasColumn(db, table::kSessionStart, "utcEpochNs")) return std::nullopt;
  auto statement = db.prepare("SELECT utcEpochNs FROM " + std::string(table::kSessionStart) + " LIMIT 1");
  if (!statement.step() || !statement.isInteger(0)) return std::nullopt;
  return statement.int64(0);
}

int64_t rank(const Database& db) {
  if (!db.hasTable(table::kGpuscopeMeta)) return 0;
  auto statement =
      db.prepare("SELECT value FROM " + std::string(table::kGpuscopeMeta) + " WHERE name = 'distributed_rank'");
  if (!statement.step()) return 0;
  auto text = statement.text(0);
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && ptr == text.data() + text.size() ? value : 0;
}

std::map<int64_t, std::string> nvtxDomains(const Database& db) {
  std::map<int64_t, std::string> domains;
  if (!hasColumn(db, table::kNvtx, "domainId")) return domains;
  auto statement = db.prepare("SELECT domainId, text FROM " + std::string(table::kNvtx) +
                              " WHERE eventType = " + std::to_string(nsys_enum::kNvtxDomainCreate));
  while (statement.step())
    if (statement.isInteger(0)) domains[statement.int64(0)] = std::string(statement.text(1));
  return domains;
}

std::optional<std::vector<uint32_t>> driverCallRows(const Database& db) {
  if (!hasColumn(db, table::kRuntime, "eventClass")) return std::nullopt;
  std::vector<uint32_t> rows;
  auto statement = db.prepare("SELECT rowid FROM " + std::string(table::kRuntime) + " WHERE eventClass = " +
                              std::to_string(nsys_enum::kEventClassCudaDriver) + " ORDER BY rowid");
  while (statement.step()) rows.push_back(static_cast<uint32_t>(statement.int64(0)));
  return rows;
}

}  // namespace

ExportFacts readExportFacts(const Database& db) {
  ExportFacts facts;
  facts.sessionStartUtcNs = sessionStart(db);
  facts.rank = rank(db);
  facts.nvtxDomains = nvtxDomains(db);
  facts.driverCallRows = driverCallRows(db);
  return facts;
}

}  // namespace gpuscope
