#include "core/samples/sample_reader.h"

#include <algorithm>
#include <unordered_map>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/model/global_id.h"
#include "core/model/string_table.h"
#include "core/schema/table_names.h"

namespace gpuscope {
namespace {

// Gives each distinct text one id in CpuSamples::names: a file may hold one text under several StringIds.
class NameInterner {
 public:
  NameInterner(const StringTable& table, const std::vector<std::string>& texts, std::vector<std::string>& names)
      : table_(table), texts_(texts), names_(names) {}

  uint32_t idOf(int64_t fileId) {
    auto cached = byFileId_.find(fileId);
    if (cached != byFileId_.end()) return cached->second;
    StringId ours = table_.fromFileId(fileId);
    std::string text = ours == StringTable::kMissing ? "[missing string " + std::to_string(fileId) + "]" : texts_[ours];
    auto [it, added] = byText_.try_emplace(text, static_cast<uint32_t>(names_.size()));
    if (added) names_.push_back(std::move(text));
    byFileId_.emplace(fileId, it->second);
    return it->second;
  }

 private:
  const StringTable& table_;
  const std::vector<std::string>& texts_;
  std::vector<std::string>& names_;
  std::unordered_map<int64_t, uint32_t> byFileId_;
  std::unordered_map<std::string, uint32_t> byText_;
};

// A column of table::kSamplingCallchains, or 0 where this export's version lacks it.
std::string callchainColumn(const std::vector<std::string>& columns, const std::string& name) {
  bool present = std::find(columns.begin(), columns.end(), name) != columns.end();
  return present ? "c." + name : "0";
}

std::string samplesSql(const Database& db, bool withStacks, const SampleFilter& filter) {
  std::string sql = "SELECT e.id, e.start, e.globalTid, e.threadState";
  if (withStacks) {
    auto columns = db.columnsOf(table::kSamplingCallchains);
    sql += ", c.symbol, c.module, " + callchainColumn(columns, "kernelMode") + ", " +
           callchainColumn(columns, "unresolved") + ", " + callchainColumn(columns, "specialEntry") + " FROM " +
           std::string(table::kCompositeEvents) + " e LEFT JOIN " + std::string(table::kSamplingCallchains) +
           " c ON c.id = e.id";
  } else {
    sql += " FROM " + std::string(table::kCompositeEvents) + " e";
  }
  sql += " WHERE e.globalTid IS NOT NULL";
  if (filter.pid) sql += " AND " + global_id::sqlPid("e.globalTid") + " = " + std::to_string(*filter.pid);
  if (filter.tid) sql += " AND " + global_id::sqlTid("e.globalTid") + " = " + std::to_string(*filter.tid);
  if (!filter.windows.empty()) {
    // The hull of the windows narrows the scan; SampleMatcher keeps only what lies in one of them.
    TimeNs from = filter.windows.front().start, to = filter.windows.front().end;
    for (const TimeInterval& w : filter.windows) {
      from = std::min(from, w.start);
      to = std::max(to, w.end);
    }
    sql += " AND e.start >= " + std::to_string(from) + " AND e.start < " + std::to_string(to);
  }
  return sql + (withStacks ? " ORDER BY e.id, c.stackDepth" : " ORDER BY e.id");
}

uint8_t frameFlags(const Statement& row) {
  uint8_t flags = 0;
  // Columns 6, 7 and 8 of samplesSql: kernelMode, unresolved, specialEntry.
  if (!row.isNull(6) && row.int64(6) != 0) flags |= SampleFrame::kKernelMode;
  if (!row.isNull(7) && row.int64(7) != 0) flags |= SampleFrame::kUnresolved;
  if (!row.isNull(8) && row.int64(8) != 0) flags |= SampleFrame::kSpecial;
  return flags;
}

// A sample whose time or thread is not an integer is refused, not read as 0.
void requireIntegers(const Statement& row) {
  if (!row.isInteger(0) || !row.isInteger(1) || !row.isInteger(2)) {
    throw TraceError(std::string(table::kCompositeEvents) +
                     " has a sample whose id, start or globalTid is not an integer (" + std::string(row.typeName(1)) +
                     " start, " + std::string(row.typeName(2)) + " globalTid).");
  }
}

// One row per frame (or per sample without stacks), in sample order: a new id starts a sample.
void readRows(const Database& db, bool withStacks, const SampleFilter& filter, CpuSamples& samples) {
  StringTable table;
  if (withStacks) table.loadStringIds(db);
  std::vector<std::string> texts = table.release();
  NameInterner interner(table, texts, samples.names);
  auto row = db.prepare(samplesSql(db, withStacks, filter));
  SampleMatcher matcher(filter);
  bool first = true;
  bool keeping = false;
  int64_t currentId = 0;
  while (row.step()) {
    if (first || row.int64(0) != currentId) {
      requireIntegers(row);
      first = false;
      currentId = row.int64(0);
      keeping = matcher.keepsTime(row.int64(1));
      if (keeping) {
        samples.firstFrame.push_back(static_cast<uint32_t>(samples.frames.size()));
        samples.start.push_back(row.int64(1));
        samples.globalTid.push_back(row.int64(2));
        samples.threadState.push_back(row.isNull(3) ? 0 : static_cast<uint8_t>(row.int64(3)));
      }
    }
    if (!keeping || !withStacks || row.isNull(4)) continue;
    if (!row.isInteger(4) || !row.isInteger(5))
      throw TraceError(std::string(table::kSamplingCallchains) +
                       " has a frame whose symbol or module is not a string id.");
    samples.frames.push_back({interner.idOf(row.int64(4)), interner.idOf(row.int64(5)), frameFlags(row)});
  }
}

}  // namespace

SampleRead readCpuSamples(const Database& db, const SampleFilter& filter) {
  SampleRead read;
  CpuSamples& samples = read.samples;
  bool withEvents = db.hasTable(table::kCompositeEvents);
  bool withStacks = db.hasTable(table::kSamplingCallchains);
  if (!withEvents) read.missingTables.emplace_back(table::kCompositeEvents);
  if (!withStacks) read.missingTables.emplace_back(table::kSamplingCallchains);
  if (withEvents) readRows(db, withStacks, filter, samples);
  samples.firstFrame.push_back(static_cast<uint32_t>(samples.frames.size()));
  return read;
}

}  // namespace gpuscope
