#include "core/ranks/trace_merge.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/model/time_math.h"
#include "core/open/open_trace.h"
#include "core/ranks/merge_columns.h"
#include "core/ranks/merge_ids.h"
#include "core/ranks/same_run_check.h"
#include "core/ranks/string_remap.h"
#include "core/ranks/table_copy.h"
#include "core/schema/trace_schema.h"
#include "core/write/trace_writer.h"

namespace gpuscope {
namespace {

constexpr std::string_view kInputSchema = "merge_input";

// One input, open: its SQLite trace (imported where it was not one), checked as the loader checks it.
struct MergeInput {
  std::string path;
  OpenedTrace opened;
  Database db;
  RankIdentity identity;
  InputIdSpan span;
};

bool sameFile(const std::string& a, const std::string& b) {
  std::error_code ec;
  return std::filesystem::equivalent(a, b, ec) && !ec;
}

// Two names of one file would merge a rank with itself; writing over an input would destroy it first.
void refuseRepeatedFiles(const std::vector<std::string>& inputs, const std::string& output) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (sameFile(inputs[i], output))
      throw TraceError("The output " + output + " is also an input; write the merge to a new file.");
    for (size_t j = 0; j < i; ++j) {
      if (sameFile(inputs[i], inputs[j]))
        throw TraceError(inputs[j] + " and " + inputs[i] + " are the same file; give each rank's file once.");
    }
  }
}

// A sentence about PATH that does not name it (a value check's) gets its name in front.
[[noreturn]] void rethrowNaming(const std::string& path, const TraceError& error) {
  std::string message = error.what();
  if (message.find(path) != std::string::npos) throw error;
  throw TraceError(path + ": " + message);
}

MergeInput openInput(const std::string& path) {
  try {
    OpenedTrace opened = openTrace(path);
    Database db = opened.connectChecked();
    std::set<int64_t> ranks;
    for (const RankRow& row : readRankRows(db)) ranks.insert(row.rank);
    if (ranks.size() > 1)
      throw TraceError(path + " already holds " + std::to_string(ranks.size()) +
                       " ranks (a merge, or a recording of a whole job); merge one file per rank instead.");
    RankIdentity identity = readRankIdentity(db);
    InputIdSpan span = readIdSpan(db);
    return {path, std::move(opened), std::move(db), std::move(identity), span};
  } catch (const TraceError& error) {
    rethrowNaming(path, error);
  }
}

// Ranks as the files state them when every file states one (and no two the same); otherwise the
// command-line order 0..N-1, said in a note.
std::vector<int64_t> assignRanks(const std::vector<MergeInput>& inputs, std::vector<std::string>& notes) {
  std::vector<int64_t> ranks;
  std::map<int64_t, std::string> claimed;
  const MergeInput* unstated = nullptr;
  for (const MergeInput& input : inputs) {
    if (!input.identity.rank) {
      unstated = unstated ? unstated : &input;
      continue;
    }
    auto [it, fresh] = claimed.emplace(*input.identity.rank, input.path);
    if (!fresh)
      throw TraceError(it->second + " and " + input.path + " both say they are rank " +
                       std::to_string(*input.identity.rank) + ".");
  }
  for (size_t i = 0; i < inputs.size(); ++i)
    ranks.push_back(unstated ? static_cast<int64_t>(i) : *inputs[i].identity.rank);
  if (unstated && inputs.size() > 1)
    notes.push_back(unstated->path + " says no rank, so the inputs are numbered 0 to " +
                    std::to_string(inputs.size() - 1) + " in command-line order.");
  return ranks;
}

// Creates OUTPUT with every table, ENUM_ row, metadata row and index a recording has.
void createMergedFile(const std::string& output, const MergeClockPlan& clock, const MergeOptions& options,
                      size_t inputs) {
  TraceWriter writer(output);
  if (clock.earliestStartUtcNs) writer.setSessionStart(*clock.earliestStartUtcNs);
  writer.addMeta("merge_clock", options.clock == MergeClock::Absolute ? "absolute" : "relative");
  writer.addMeta("merged_inputs", std::to_string(inputs));
  writer.finish();
}

// Tables of INPUT the merge neither copies nor writes anew, with their row counts.
void countTablesLeft(const Database& input, std::map<std::string, int64_t>& left) {
  auto tables = input.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name");
  const auto& merged = mergedTables();
  while (tables.step()) {
    std::string name(tables.text(0));
    if (rebuiltByMerge(name) || std::find(merged.begin(), merged.end(), name) != merged.end()) continue;
    auto count = input.prepare("SELECT count(*) FROM " + quoteIdentifier(name));
    if (count.step() && count.int64(0) > 0) left[name] += count.int64(0);
  }
}

// Copies every merged table INPUT has into OUT, attached as kInputSchema.
MergedInput copyInput(Database& out, StringRemap& strings, MergeInput& input, const RankRow& rank,
                      std::vector<std::string>& notKept, std::map<std::string, int>& columnsLeft) {
  MergedInput merged{rank, 0, 0};
  out.attachReadOnly(input.opened.databasePath, kInputSchema);
  out.exec("BEGIN");
  strings.mapInput(kInputSchema);
  TableCopyRules rules{rank.timeShiftNs, {rank.hwFirst, rank.correlationIdOffset}, localIdOffsets(out)};
  for (std::string_view table : mergedTables()) {
    if (!input.db.hasTable(table)) continue;
    auto missing = missingNeededColumns(input.db, tableSpec(table));
    if (!missing.empty()) {
      notKept.push_back(input.path + "'s " + std::string(table) + " lacks " + missing.front() +
                        ", so it was not copied.");
      continue;
    }
    if (!out.hasTable(table))
      for (const std::string& sql : createTableStatements(tableSpec(table))) out.exec(sql);
    TableCopyResult copied = copyTable(out, input.db, kInputSchema, table, rules);
    merged.rowsCopied += copied.copied;
    if (table == table::kKernel) merged.kernels = copied.copied;
    if (copied.dropped > 0)
      notKept.push_back(input.path + ": " + std::to_string(copied.dropped) + " rows of " + std::string(table) +
                        " name strings its StringIds lacks, so they were left out.");
    for (const std::string& column : copied.columnsLeft) ++columnsLeft[column];
    for (const std::string& column : copied.columnsZeroed)
      notKept.push_back(input.path + " has no " + column + ": written as 0.");
  }
  out.exec("COMMIT");
  out.detach(kInputSchema);
  return merged;
}

// Writes the merged file at PATH (a temporary name) from INPUTS with their RANKS.
void writeMerge(const std::string& path, std::vector<MergeInput>& inputs, MergeSummary& summary) {
  Database out = Database::openWritable(path);
  out.exec("PRAGMA synchronous=OFF; PRAGMA cache_size=-65536;");
  StringRemap strings(out);
  std::map<std::string, int64_t> left;
  std::map<std::string, int> columnsLeft;
  for (size_t i = 0; i < inputs.size(); ++i) {
    try {
      TimeNs lengthNs = summary.inputs[i].lengthNs;
      summary.inputs[i] = copyInput(out, strings, inputs[i], summary.inputs[i].rank, summary.notKept, columnsLeft);
      summary.inputs[i].lengthNs = lengthNs;
    } catch (const TraceError& error) {
      rethrowNaming(inputs[i].path, error);
    }
    countTablesLeft(inputs[i].db, left);
  }
  std::vector<RankRow> rows;
  for (const MergedInput& input : summary.inputs) rows.push_back(input.rank);
  writeRankRows(out, rows);
  for (std::string_view table : mergedTables()) {
    if (!out.hasTable(table)) continue;
    for (const std::string& sql : createLaterIndexStatements(tableSpec(table))) out.exec(sql);
  }
  for (const auto& [column, files] : columnsLeft)
    summary.notKept.push_back("Column " + column + " (in " + std::to_string(files) +
                              " of the inputs) has no place in " + "the merged file.");
  for (const auto& [table, count] : left)
    summary.notKept.push_back(table + " (" + std::to_string(count) + " rows) is not copied by merge.");
}

}  // namespace

namespace {

// How the collectives of the merged file at PATH line up.
CollectiveSpread mergedCollectives(const std::string& path) {
  return collectiveSpread(readRankCollectives(Database::openReadOnly(path, Threading::SingleThread)));
}

// Throws when the inputs look like different runs, unless OPTIONS.force, which makes it a warning. Aligning
// by collectives lines them up by construction, so only the session starts speak then; a relative clock
// sets the session starts aside on purpose, so only the collectives speak then.
void refuseDifferentRuns(MergeSummary& summary, const MergeOptions& options) {
  std::vector<MergedRunFacts> facts;
  for (const MergedInput& input : summary.inputs) {
    bool absolute = options.clock == MergeClock::Absolute;
    facts.push_back({input.rank.sourcePath, absolute ? input.rank.sessionStartUtcNs : std::nullopt, input.lengthNs});
  }
  std::optional<std::string> reason =
      differentRunsReason(facts, options.alignCollectives ? CollectiveSpread{} : summary.collectives);
  if (!reason) return;
  if (!options.force) throw TraceError(*reason + " Merge them anyway with --force.");
  summary.warnings.push_back(*reason);
}

// One merge of PATHS into OUTPUT, each input's times moved by the clock's shift plus EXTRA_SHIFT_NS[i].
MergeSummary mergeOnce(const std::vector<std::string>& paths, const std::string& output, const MergeOptions& options,
                       const std::vector<int64_t>& extraShiftNs) {
  if (paths.empty()) throw TraceError("Name at least one trace file to merge.");
  refuseRepeatedFiles(paths, output);
  std::vector<MergeInput> inputs;
  std::vector<RankIdentity> identities;
  std::vector<InputIdSpan> spans;
  for (const std::string& path : paths) {
    inputs.push_back(openInput(path));
    identities.push_back(inputs.back().identity);
    spans.push_back(inputs.back().span);
  }
  MergeSummary summary;
  MergeClockPlan clock = planMergeClock(identities, paths, options.clock);
  for (size_t i = 0; i < extraShiftNs.size() && i < clock.shiftNs.size(); ++i)
    clock.shiftNs[i] = saturatingAdd(clock.shiftNs[i], extraShiftNs[i]);
  summary.earliestStartUtcNs = clock.earliestStartUtcNs;
  summary.notes = clock.notes;
  std::vector<int64_t> ranks = assignRanks(inputs, summary.notes);
  std::vector<InputIdOffsets> offsets = assignIdOffsets(spans);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const RankIdentity& id = inputs[i].identity;
    RankRow row{ranks[i],
                id.localRank,
                id.worldSize,
                id.hostName,
                id.sessionStartUtcNs,
                offsets[i].hwAdd,
                offsets[i].hwAdd + spans[i].hwMax,
                offsets[i].correlationAdd,
                clock.shiftNs[i],
                id.rank && ranks[i] == *id.rank ? id.rankSource : "command-line order",
                paths[i],
                std::nullopt};
    summary.inputs.push_back({row, 0, 0, eventSpanNs(inputs[i].db)});
  }
  std::string partial = output + ".merging";
  try {
    createMergedFile(partial, clock, options, inputs.size());
    writeMerge(partial, inputs, summary);
    summary.collectives = mergedCollectives(partial);
    refuseDifferentRuns(summary, options);
    std::error_code renamed;
    std::filesystem::rename(partial, output, renamed);
    if (renamed) throw TraceError("The merge could not be written to " + output + " (" + renamed.message() + ").");
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(partial, ec);
    std::filesystem::remove(partial + "-journal", ec);
    throw;
  }
  return summary;
}

// Per input: the shift that lines its rank's collectives up with the first rank's in the merged file.
std::vector<int64_t> alignmentShifts(const std::string& merged, const MergeSummary& summary) {
  std::vector<RankCollectives> ranks = readRankCollectives(Database::openReadOnly(merged, Threading::SingleThread));
  std::vector<TimeNs> byRank = collectiveAlignment(ranks);
  std::vector<int64_t> shifts(summary.inputs.size(), 0);
  for (size_t i = 0; i < summary.inputs.size(); ++i)
    for (size_t r = 0; r < ranks.size(); ++r)
      if (ranks[r].rank == summary.inputs[i].rank.rank) shifts[i] = byRank[r];
  return shifts;
}

}  // namespace

MergeSummary mergeTraces(const std::vector<std::string>& paths, const std::string& output,
                         const MergeOptions& options) {
  MergeSummary summary = mergeOnce(paths, output, options, {});
  if (!options.alignCollectives || summary.collectives.matched == 0) return summary;
  std::vector<int64_t> shifts = alignmentShifts(output, summary);
  if (std::all_of(shifts.begin(), shifts.end(), [](int64_t shift) { return shift == 0; })) return summary;
  CollectiveSpread before = summary.collectives;
  summary = mergeOnce(paths, output, options, shifts);
  summary.collectivesBeforeAlignment = before;
  return summary;
}

}  // namespace gpuscope
