#include "core/analysis/verdict/startup_summary.h"

#include "core/schema/trace_schema.h"
#include "core/text/percent_text.h"
#include "core/text/units.h"

namespace gpuscope {
namespace {

std::vector<std::pair<std::string, TimeNs>> longestCalls(const Database& db, int64_t globalTid, TimeInterval span) {
  std::vector<std::pair<std::string, TimeNs>> calls;
  if (!db.hasTable(table::kRuntime) || !db.hasTable(table::kStringIds)) return calls;
  auto statement = db.prepare(
      "SELECT s.value, sum(min(r.end, ?3) - max(r.start, ?2)) AS inside FROM " + std::string(table::kRuntime) +
      " r JOIN StringIds s ON s.id = r.nameId WHERE r.globalTid = ?1 AND r.start < ?3 AND r.end > ?2 "
      "GROUP BY r.nameId ORDER BY inside DESC, s.value LIMIT ?4");
  statement.bind(1, globalTid);
  statement.bind(2, span.start);
  statement.bind(3, span.end);
  statement.bind(4, static_cast<int64_t>(kStartupCallNames));
  while (statement.step()) calls.emplace_back(std::string(statement.text(0)), statement.int64(1));
  return calls;
}

}  // namespace

StartupSummary summarizeStartup(const Database& db, const RunActivity& run, TimeInterval span) {
  StartupSummary summary;
  summary.span = span;
  if (span.length() <= 0) return summary;
  summary.gpuBusyNs = run.gpuBusy.lengthWithin(span.start, span.end);
  if (const HostThread* host = run.drivingThread()) {
    summary.hostCudaNs =
        host->apiCalls.lengthWithin(span.start, span.end) + host->syncCalls.lengthWithin(span.start, span.end);
    summary.hostOutsideNs = span.length() - summary.hostCudaNs;
    summary.longestCalls = longestCalls(db, host->globalTid, span);
  }
  return summary;
}

std::string startupSentence(const StartupSummary& startup, const std::string& hostThread) {
  TimeNs length = startup.span.length();
  if (length <= 0) return {};
  std::string text = "Start-up set apart: " + formatDuration(length) + " before the judged window";
  if (!hostThread.empty()) {
    text += ", the host thread " + hostThread + " in CUDA calls " + formatDuration(startup.hostCudaNs);
    std::string names;
    for (const auto& [name, time] : startup.longestCalls)
      names += (names.empty() ? "" : ", ") + name + " " + formatDuration(time);
    if (!names.empty()) text += " (longest: " + names + ")";
    text += " and outside them " + formatDuration(startup.hostOutsideNs);
  }
  double busy = static_cast<double>(startup.gpuBusyNs) / static_cast<double>(length);
  return text + "; the GPU was busy " + percentText(busy) + " of it.";
}

}  // namespace gpuscope
