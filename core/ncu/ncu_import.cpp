#include "core/ncu/ncu_import.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <unordered_map>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/identity/kernel_identity.h"
#include "core/model/global_id.h"
#include "core/model/trace_file.h"
#include "core/ncu/ncu_kernel_metrics.h"
#include "core/ncu/ncu_report.h"
#include "core/open/open_trace.h"
#include "core/roofline/kernel_metrics_table.h"
#include "core/schema/trace_schema.h"

namespace gpuscope {
namespace {

uint64_t launchKey(int64_t globalPid, uint32_t correlationId) {
  return uint64_t{global_id::pid(globalPid)} << 32 | correlationId;
}

std::string sqlQuoted(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    quoted += c;
    if (c == '\'') quoted += '\'';
  }
  return quoted + "'";
}

bool samePath(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (std::filesystem::exists(b, ec) && std::filesystem::equivalent(a, b, ec)) return true;
  return std::filesystem::weakly_canonical(a, ec) == std::filesystem::weakly_canonical(b, ec);
}

}  // namespace

std::vector<TraceKernelLaunch> readTraceKernelLaunches(const Database& db) {
  requireTable(db, table::kKernel);
  bool hasMangled = hasColumn(db, table::kKernel, "mangledName");
  bool hasPid = hasColumn(db, table::kKernel, "globalPid");
  auto stmt = db.prepare(
      std::string("SELECT ") + (hasPid ? "k.globalPid" : "0") +
      ", k.correlationId, k.start, k.streamId, d.value, s.value, " + (hasMangled ? "m.value" : "NULL") +
      " FROM CUPTI_ACTIVITY_KIND_KERNEL AS k LEFT JOIN StringIds AS d ON d.id = k.demangledName "
      "LEFT JOIN StringIds AS s ON s.id = k.shortName " +
      (hasMangled ? "LEFT JOIN StringIds AS m ON m.id = k.mangledName " : "") + "WHERE k.correlationId IS NOT NULL");
  std::vector<TraceKernelLaunch> launches;
  while (stmt.step()) {
    TraceKernelLaunch launch;
    launch.globalPid = stmt.isNull(0) ? 0 : stmt.int64(0);
    launch.correlationId = static_cast<uint32_t>(stmt.int64(1));
    launch.launchTime = stmt.int64(2);
    launch.streamId = stmt.int64(3);
    launch.demangledName = std::string(stmt.text(4));
    launch.shortName = std::string(stmt.text(5));
    launch.mangledName = std::string(stmt.text(6));
    launch.canonicalName = kernelIdentity(launch.demangledName);
    launches.push_back(std::move(launch));
  }
  // The launching call's start, from the runtime/driver API table.
  if (db.hasTable(table::kRuntime)) {
    std::unordered_map<uint64_t, size_t> byKey;
    for (size_t i = 0; i < launches.size(); ++i)
      byKey.emplace(launchKey(launches[i].globalPid, launches[i].correlationId), i);
    auto api = db.prepare(
        "SELECT globalTid, correlationId, start FROM CUPTI_ACTIVITY_KIND_RUNTIME "
        "WHERE correlationId IS NOT NULL AND globalTid IS NOT NULL");
    while (api.step()) {
      auto it = byKey.find(launchKey(api.int64(0), static_cast<uint32_t>(api.int64(1))));
      if (it != byKey.end()) launches[it->second].launchTime = api.int64(2);
    }
  }
  std::stable_sort(launches.begin(), launches.end(), [](const auto& a, const auto& b) {
    return a.launchTime != b.launchTime ? a.launchTime < b.launchTime : a.correlationId < b.correlationId;
  });
  return launches;
}

NcuMatch matchNcuKernels(const NcuReport& report, const std::vector<TraceKernelLaunch>& trace,
                         const std::string& source) {
  NcuMatch match;
  match.ncuKernels = report.kernels.size();
  std::set<uint32_t> tracePids;
  for (const auto& launch : trace) tracePids.insert(global_id::pid(launch.globalPid));
  match.matchedByProcess = !report.kernels.empty();
  for (const auto& kernel : report.kernels)
    match.matchedByProcess = match.matchedByProcess && tracePids.count(static_cast<uint32_t>(kernel.pid)) > 0;

  // Launches by (process scope, name form, name), each list in launch order.
  using Key = std::tuple<uint32_t, int, std::string_view>;
  std::map<Key, std::vector<size_t>> byName;
  for (size_t i = 0; i < trace.size(); ++i) {
    uint32_t scope = match.matchedByProcess ? global_id::pid(trace[i].globalPid) : 0;
    byName[{scope, 0, trace[i].demangledName}].push_back(i);
    byName[{scope, 1, trace[i].shortName}].push_back(i);
    if (!trace[i].mangledName.empty()) byName[{scope, 2, trace[i].mangledName}].push_back(i);
    // Last: the same kernel as another tool spells it (core/identity).
    byName[{scope, 3, trace[i].canonicalName}].push_back(i);
  }
  std::map<std::pair<uint32_t, std::string>, size_t> launchesSeen;
  std::set<std::string> unknown;
  for (const auto& kernel : report.kernels) {
    uint32_t scope = match.matchedByProcess ? static_cast<uint32_t>(kernel.pid) : 0;
    const std::vector<size_t>* candidates = nullptr;
    for (int form = 0; form < 3 && !candidates; ++form) {
      auto it = byName.find({scope, form, kernel.name});
      if (it != byName.end()) candidates = &it->second;
    }
    if (!candidates) {
      const std::string canonical = kernelIdentity(kernel.name);
      auto it = byName.find({scope, 3, canonical});
      if (it != byName.end()) candidates = &it->second;
    }
    if (!candidates) {
      if (unknown.insert(kernel.name).second) match.unknownNames.push_back(kernel.name);
      continue;
    }
    size_t nth = launchesSeen[{scope, kernel.name}]++;
    if (nth >= candidates->size()) {
      ++match.beyondTrace;
      continue;
    }
    const auto& launch = trace[(*candidates)[nth]];
    auto row = kernelMetricsFromNcu(kernel);
    row.globalPid = launch.globalPid;
    row.correlationId = launch.correlationId;
    row.source = source;
    if (!kernel.stream.empty() && kernel.stream != std::to_string(launch.streamId)) ++match.streamMismatches;
    match.rows.push_back(std::move(row));
  }
  return match;
}

namespace {

// Refuses a report with neither FLOP nor byte counters (e.g. `--section SpeedOfLight_RooflineChart`, whose
// derived rates cannot be turned back into counts): importing it would put kernels on the roofline at zero.
void requireUsableCounters(const NcuReport& report, const std::string& path) {
  for (const auto& kernel : report.kernels) {
    auto metrics = kernelMetricsFromNcu(kernel);
    for (const auto& flops : metrics.flops)
      if (flops) return;
    for (const auto& bytes : metrics.bytes)
      if (bytes) return;
  }
  throw TraceError(path + " has no FLOP or byte counters gpuscope can use: profile with ncu --metrics " +
                   "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,dram__bytes.sum (and the fadd, fmul, " +
                   "lts__t_bytes.sum, l1tex__t_bytes.sum counters), not the roofline section's rates.");
}

// Matches REPORT (read from CSV_PATH) to the kernels of DB, the trace at TRACE_PATH; throws when none matches.
NcuMatch matchToTrace(const NcuReport& report, const Database& db, const std::string& csvPath,
                      const std::string& tracePath) {
  auto match = matchNcuKernels(report, readTraceKernelLaunches(db),
                               "ncu --csv " + std::filesystem::path(csvPath).filename().string());
  if (match.rows.empty())
    throw TraceError("None of the " + std::to_string(report.kernels.size()) + " kernels of " + csvPath + " is in " +
                     tracePath + ": were both recorded from the same program?");
  return match;
}

}  // namespace

NcuMatch previewNcuImport(const std::string& tracePath, const std::string& ncuCsvPath) {
  auto report = readNcuCsvFile(ncuCsvPath);
  requireUsableCounters(report, ncuCsvPath);
  OpenedTrace opened = openTrace(tracePath);
  return matchToTrace(report, opened.connect(), ncuCsvPath, tracePath);
}

NcuMatch importNcuMetrics(const NcuImportOptions& options) {
  if (options.inPlace == !options.outputPath.empty())
    throw TraceError("Say where the metrics go: -o OUT for a copy of the trace, or --in-place to change it.");
  if (!options.inPlace && samePath(options.tracePath, options.outputPath))
    throw TraceError("The output is the input trace itself: use --in-place to write into it.");
  auto report = readNcuCsvFile(options.ncuCsvPath);
  requireUsableCounters(report, options.ncuCsvPath);
  NcuMatch match;
  // A copy is built under a temporary name and renamed when complete: a failure leaves no half-written OUT.
  const std::string partial = options.outputPath + ".partial";
  struct RemovePartial {
    const std::string* path;
    ~RemovePartial() {
      std::error_code ec;
      if (path) std::filesystem::remove(*path, ec);
    }
  } cleanup{options.inPlace ? nullptr : &partial};
  {
    OpenedTrace opened = openTrace(options.tracePath);
    if (options.inPlace && opened.format->import)
      throw TraceError(options.tracePath + " is a " + std::string(opened.format->name) +
                       ": metrics are added in place only to an SQLite trace; write a copy with -o instead.");
    auto db = opened.connect();
    match = matchToTrace(report, db, options.ncuCsvPath, options.tracePath);
    if (!options.inPlace) {
      std::error_code ec;
      std::filesystem::remove(partial, ec);
      try {
        db.exec("VACUUM INTO " + sqlQuoted(partial));
      } catch (const TraceError&) {
        throw TraceError("Cannot write " + options.outputPath + ": check that its folder exists and is writable.");
      }
    }
  }
  writeKernelMetrics(options.inPlace ? options.tracePath : partial, match.rows);
  if (!options.inPlace) {
    std::error_code ec;
    std::filesystem::rename(partial, options.outputPath, ec);
    if (ec) throw TraceError("Cannot write " + options.outputPath + ": " + ec.message() + ".");
  }
  return match;
}

std::vector<std::string> ncuImportNotes(const NcuMatch& match) {
  std::vector<std::string> notes;
  for (const auto& name : match.unknownNames)
    notes.push_back("the trace has no kernel named \"" + name + "\"; its launches were skipped");
  if (match.beyondTrace)
    notes.push_back(std::to_string(match.beyondTrace) +
                    " launch(es) of the report come after the trace's last launch of the same kernel and were skipped");
  if (match.streamMismatches)
    notes.push_back(std::to_string(match.streamMismatches) +
                    " matched launch(es) ran on another stream id in the report than in the trace; check that both "
                    "runs launched kernels in the same order");
  return notes;
}

std::string ncuMatchedLaunches(const NcuMatch& match) {
  return std::to_string(match.rows.size()) + " of " + std::to_string(match.ncuKernels) + " profiled kernel launches";
}

bool isPartialMatch(const NcuMatch& match) { return match.rows.size() < match.ncuKernels; }

std::string ncuImportSummary(const NcuMatch& match, const std::string& target) {
  return "Attached the metrics of " + ncuMatchedLaunches(match) + " to " + target + " (table " +
         std::string(kKernelMetricsTable) + ").";
}

}  // namespace gpuscope
