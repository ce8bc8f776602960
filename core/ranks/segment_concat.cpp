#include "core/ranks/segment_concat.h"

#include <filesystem>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/ranks/merge_columns.h"
#include "core/ranks/string_remap.h"
#include "core/ranks/table_copy.h"
#include "core/schema/table_names.h"
#include "core/schema/trace_schema.h"

namespace gpuscope {
namespace {

constexpr std::string_view kSegmentSchema = "segment";

void createFile(const std::string& path, const SegmentConcatFile& file) {
  TraceWriter writer(path, file.writer);
  writer.setSessionStart(file.sessionStartUtcNs);
  for (const auto& [name, value] : file.meta) writer.addMeta(name, value);
  writer.finish();
}

// Copies SEGMENT's tables into OUT; its Metadata tables only when NEWEST.
void copySegment(Database& out, StringRemap& strings, const TraceSegment& segment, bool newest,
                 SegmentConcatSummary& summary) {
  Database input = Database::openReadOnly(segment.path, Threading::SingleThread);
  out.attachReadOnly(segment.path, kSegmentSchema);
  out.exec("BEGIN");
  strings.mapInput(kSegmentSchema);
  TableCopyRules rules{segment.shiftNs, {}, localIdOffsets(out)};
  for (std::string_view table : mergedTables()) {
    if (!input.hasTable(table)) continue;
    const TableSpec& spec = tableSpec(table);
    if (spec.group == TableGroup::Metadata && !newest) continue;
    if (!missingNeededColumns(input, spec).empty()) {
      summary.notKept.push_back(segment.path + "'s " + std::string(table) + " lacks a needed column: not copied.");
      continue;
    }
    if (!out.hasTable(table))
      for (const std::string& sql : createTableStatements(spec)) out.exec(sql);
    TableCopyResult copied = copyTable(out, input, kSegmentSchema, table, rules);
    summary.rowsCopied += copied.copied;
    if (table == table::kKernel) summary.kernels += copied.copied;
    if (copied.dropped > 0)
      summary.notKept.push_back(std::to_string(copied.dropped) + " rows of " + std::string(table) + " in " +
                                segment.path + " name strings it lacks: left out.");
  }
  out.exec("COMMIT");
  out.detach(kSegmentSchema);
}

}  // namespace

SegmentConcatSummary concatenateSegments(const std::vector<TraceSegment>& segments, const std::string& output,
                                         const SegmentConcatFile& file) {
  if (segments.empty()) throw TraceError("no recorded segment to write into " + output);
  SegmentConcatSummary summary;
  std::string partial = output + ".writing";
  try {
    createFile(partial, file);
    Database out = Database::openWritable(partial);
    out.exec("PRAGMA synchronous=OFF; PRAGMA cache_size=-16384;");
    StringRemap strings(out);
    for (size_t i = 0; i < segments.size(); ++i)
      copySegment(out, strings, segments[i], i + 1 == segments.size(), summary);
    for (std::string_view table : mergedTables()) {
      if (!out.hasTable(table)) continue;
      for (const std::string& sql : createLaterIndexStatements(tableSpec(table))) out.exec(sql);
    }
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(partial, ec);
    throw;
  }
  std::error_code renamed;
  std::filesystem::rename(partial, output, renamed);
  if (renamed) throw TraceError("cannot write " + output + " (" + renamed.message() + ")");
  return summary;
}

}  // namespace gpuscope
