#include "core/ranks/rank_identity.h"

#include <charconv>
#include <initializer_list>
#include <map>
#include <vector>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/ranks/rank_variables.h"
#include "core/schema/trace_schema.h"

namespace gpuscope {
namespace {

// TEXT as a whole number, or nothing: "3" is 3; "3.5", "x" and "" are not numbers.
std::optional<int64_t> wholeNumber(std::string_view text) {
  int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

bool hasColumns(const Database& db, std::string_view table, std::initializer_list<std::string_view> columns) {
  if (!db.hasTable(table)) return false;
  for (std::string_view column : columns)
    if (!hasColumn(db, table, column)) return false;
  return true;
}

// The name -> value rows of a table shaped like GPUSCOPE_META (first row of each name wins).
std::map<std::string, std::string, std::less<>> nameValues(const Database& db, std::string_view table) {
  std::map<std::string, std::string, std::less<>> values;
  if (!hasColumns(db, table, {"name", "value"})) return values;
  auto rows = db.prepare("SELECT name, value FROM " + quoteIdentifier(table) + " ORDER BY rowid");
  while (rows.step()) values.emplace(std::string(rows.text(0)), std::string(rows.text(1)));
  return values;
}

// VALUE of NAME as a whole number; a value that is not one is refused: a rank the merge cannot trust.
std::optional<int64_t> metaNumber(const Database& db, const std::map<std::string, std::string, std::less<>>& meta,
                                  std::string_view table, std::string_view name) {
  auto found = meta.find(name);
  if (found == meta.end()) return std::nullopt;
  auto number = wholeNumber(found->second);
  if (!number)
    throw TraceError(db.path() + "'s " + std::string(table) + " " + std::string(name) + " is not a whole number ('" +
                     found->second + "').");
  return number;
}

std::optional<int64_t> readSessionStart(const Database& db) {
  if (!hasColumns(db, table::kSessionStart, {"utcEpochNs"})) return std::nullopt;
  auto row = db.prepare("SELECT utcEpochNs FROM " + std::string(table::kSessionStart) + " ORDER BY rowid LIMIT 1");
  if (!row.step() || row.isNull(0)) return std::nullopt;
  if (!row.isInteger(0))
    throw TraceError(db.path() + "'s session start (TARGET_INFO_SESSION_START_TIME.utcEpochNs) is not an integer (a " +
                     row.typeName(0) + " value).");
  return row.int64(0);
}

// GPUSCOPE_RANKS rows of one rank: a file that says which rank it is (a recording's processes of that rank,
// a launcher's child and its workers, have a row each). Files holding several ranks are the merge's
// business, not one identity.
bool readRanksRow(const Database& db, RankIdentity& identity) {
  if (!hasColumns(db, table::kRanks, {"rank", "localRank", "worldSize", "hostName"})) return false;
  auto rows =
      db.prepare("SELECT rank, localRank, worldSize, hostName FROM " + std::string(table::kRanks) + " ORDER BY rowid");
  if (!rows.step()) return false;
  RankIdentity read;
  auto number = [&](int column) -> std::optional<int64_t> {
    if (rows.isNull(column)) return std::nullopt;
    if (!rows.isInteger(column))
      throw TraceError(db.path() + "'s GPUSCOPE_RANKS has a rank that is not an integer (a " + rows.typeName(column) +
                       " value).");
    return rows.int64(column);
  };
  read.rank = number(0);
  read.localRank = number(1);
  read.worldSize = number(2);
  read.hostName = std::string(rows.text(3));
  if (!read.rank) return false;
  while (rows.step())
    if (number(0) != read.rank) return false;
  identity.rank = read.rank;
  identity.localRank = read.localRank;
  identity.worldSize = read.worldSize;
  identity.hostName = read.hostName;
  identity.rankSource = std::string(table::kRanks);
  return true;
}

void readGpuscopeMeta(const Database& db, RankIdentity& identity) {
  auto meta = nameValues(db, table::kGpuscopeMeta);
  identity.rank = metaNumber(db, meta, table::kGpuscopeMeta, rank_meta::kRank);
  identity.localRank = metaNumber(db, meta, table::kGpuscopeMeta, rank_meta::kLocalRank);
  identity.worldSize = metaNumber(db, meta, table::kGpuscopeMeta, rank_meta::kWorldSize);
  auto host = meta.find(rank_meta::kHostName);
  if (host != meta.end()) identity.hostName = host->second;
  if (identity.rank) identity.rankSource = "GPUSCOPE_META " + std::string(rank_meta::kRank);
}

// The launched process's environment as nsys captured it: META_DATA_CAPTURE rows
// "PROCESS_0:ENVIRONMENT_VARIABLE" = 'RANK="1"'. Values that are not whole numbers are not ranks.
std::map<std::string, int64_t, std::less<>> capturedNumbers(const Database& db) {
  std::map<std::string, int64_t, std::less<>> numbers;
  if (!hasColumns(db, "META_DATA_CAPTURE", {"name", "value"})) return numbers;
  auto rows = db.prepare("SELECT value FROM META_DATA_CAPTURE WHERE name LIKE 'PROCESS_%:ENVIRONMENT_VARIABLE'");
  while (rows.step()) {
    std::string_view text = rows.text(0);
    size_t equals = text.find('=');
    if (equals == std::string_view::npos) continue;
    std::string_view value = text.substr(equals + 1);
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    if (auto number = wholeNumber(value)) numbers.emplace(std::string(text.substr(0, equals)), *number);
  }
  return numbers;
}

// The first of NAMES (launchers' spellings of one fact, core/ranks/rank_variables.h) that NUMBERS has.
template <size_t N>
std::optional<int64_t> firstOf(const std::map<std::string, int64_t, std::less<>>& numbers,
                               const char* const (&names)[N], std::string* found = nullptr) {
  for (std::string_view name : names) {
    auto hit = numbers.find(name);
    if (hit == numbers.end()) continue;
    if (found) *found = std::string(name);
    return hit->second;
  }
  return std::nullopt;
}

void readNsysCapture(const Database& db, RankIdentity& identity) {
  auto numbers = capturedNumbers(db);
  std::string variable;
  identity.rank = firstOf(numbers, rank_variables::kRank, &variable);
  auto localRank = firstOf(numbers, rank_variables::kLocalRank);
  auto worldSize = firstOf(numbers, rank_variables::kWorldSize);
  if (localRank) identity.localRank = localRank;
  if (worldSize) identity.worldSize = worldSize;
  if (identity.rank) identity.rankSource = "nsys capture environment " + variable;
  if (!identity.hostName.empty() || !hasColumns(db, "TARGET_INFO_SYSTEM_ENV", {"name", "value"})) return;
  auto host = db.prepare("SELECT value FROM TARGET_INFO_SYSTEM_ENV WHERE name = 'Hostname' LIMIT 1");
  if (host.step()) identity.hostName = std::string(host.text(0));
}

void readExportOptions(const Database& db, RankIdentity& identity) {
  auto options = nameValues(db, table::kMetaDataExport);
  auto normalize = options.find("EXPORT_PARAM_TIME_NORMALIZE");
  identity.timesAreEpoch = normalize != options.end() && normalize->second == "true";
  identity.exportTimeShiftNs = metaNumber(db, options, table::kMetaDataExport, "EXPORT_PARAM_TIME_SHIFT").value_or(0);
}

}  // namespace

RankIdentity readRankIdentity(const Database& db) {
  RankIdentity identity;
  if (!readRanksRow(db, identity)) {
    readGpuscopeMeta(db, identity);
    if (!identity.rank) readNsysCapture(db, identity);
  }
  identity.sessionStartUtcNs = readSessionStart(db);
  readExportOptions(db, identity);
  return identity;
}

}  // namespace gpuscope
