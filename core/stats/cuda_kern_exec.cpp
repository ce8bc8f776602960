// cuda_kern_exec_sum and cuda_kern_exec_trace: each kernel with the API call that launched it, split into
// API time (the call), queue time (call end to kernel start, when positive) and kernel time; total time runs
// from the call's start to whichever of call and kernel ends last.
#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <tuple>

#include "core/model/global_id.h"
#include "core/schema/trace_schema.h"
#include "core/stats/api_calls.h"
#include "core/stats/stats_reports.h"
#include "core/stats/summary_table.h"

namespace gpuscope {
namespace {

struct Launch {
  const ApiCall* call;
  std::string_view apiName;
  int64_t kernelStart, kernelEnd, deviceId;
  std::string kernelName;
  std::string grid, block;  // "%4d %4d %4d", empty when the file lacks the columns

  int64_t apiDuration() const { return saturatingSub(call->end, call->start); }
  std::optional<int64_t> queueDuration() const {
    return kernelStart >= call->end ? std::optional<int64_t>(saturatingSub(kernelStart, call->end)) : std::nullopt;
  }
  int64_t kernelDuration() const { return saturatingSub(kernelEnd, kernelStart); }
  int64_t totalDuration() const { return saturatingSub(std::max(call->end, kernelEnd), call->start); }
};

std::string dimensions(const Statement& stmt, int first) {
  if (stmt.isNull(first) || stmt.isNull(first + 1) || stmt.isNull(first + 2)) return {};
  char text[96];
  std::snprintf(text, sizeof text, "%4lld %4lld %4lld", static_cast<long long>(stmt.int64(first)),
                static_cast<long long>(stmt.int64(first + 1)), static_cast<long long>(stmt.int64(first + 2)));
  return text;
}

// Kernels that have a launching API call, in no particular order.
std::vector<Launch> loadLaunches(const Database& db, const ApiCallIndex& calls) {
  auto k = [&](std::string_view column) { return columnOr(db, table::kKernel, column); };
  auto stmt =
      db.prepare("SELECT k.start, k.end, k.deviceId, k.globalPid, k.correlationId, s.value, " + k("gridX") + ", " +
                 k("gridY") + ", " + k("gridZ") + ", " + k("blockX") + ", " + k("blockY") + ", " + k("blockZ") +
                 " FROM CUPTI_ACTIVITY_KIND_KERNEL AS k LEFT JOIN StringIds AS s ON s.id = k.demangledName");
  std::vector<Launch> launches;
  while (stmt.step()) {
    if (stmt.isNull(3) || stmt.isNull(4)) continue;
    const ApiCall* call = calls.find(global_id::processOf(stmt.int64(3)), stmt.int64(4));
    if (!call) continue;
    launches.push_back({call, calls.name(*call), stmt.int64(0), stmt.int64(1), stmt.int64(2), std::string(stmt.text(5)),
                        dimensions(stmt, 6), dimensions(stmt, 9)});
  }
  return launches;
}

struct ExecSamples {
  std::vector<int64_t> total, api, queue, kernel;
};

}  // namespace

ReportTable cudaKernExecSum(const Database& db) {
  requireReportTable(db, table::kKernel);
  ApiCallIndex calls(db);
  // Key: pid, tid, device, API name, kernel name.
  std::map<std::tuple<int64_t, int64_t, int64_t, std::string, std::string>, ExecSamples> groups;
  for (const auto& launch : loadLaunches(db, calls)) {
    auto& samples = groups[{global_id::pid(launch.call->globalTid), global_id::tid(launch.call->globalTid),
                            launch.deviceId, std::string(launch.apiName), launch.kernelName}];
    samples.total.push_back(launch.totalDuration());
    samples.api.push_back(launch.apiDuration());
    if (auto queue = launch.queueDuration()) samples.queue.push_back(*queue);
    samples.kernel.push_back(launch.kernelDuration());
  }
  ReportTable table{"cuda_kern_exec_sum", "CUDA Kernel Launch & Exec Time Summary", {}, {}};
  table.columns = {{"PID", 0}, {"TID", 0}, {"DevId", 0}, {"Count", 0}, {"QCount", 0}};
  for (const char* prefix : {"T", "A", "Q", "K"}) appendStatisticColumns(table.columns, prefix, "ns");
  table.columns.push_back({"API Name", 0});
  table.columns.push_back({"Kernel Name", 0});

  std::vector<std::pair<double, std::vector<ReportCell>>> rows;  // by rounded average total time
  for (const auto& [key, samples] : groups) {
    const auto& [pid, tid, device, apiName, kernelName] = key;
    std::vector<ReportCell> row = {pid, tid, device, static_cast<int64_t>(samples.total.size()),
                                   static_cast<int64_t>(samples.queue.size())};
    auto total = summarize(samples.total);
    for (const auto* part : {&samples.total, &samples.api, &samples.queue, &samples.kernel}) {
      appendStatisticCells(row, summarize(*part));
      // nsys's stdev() is 0 below two samples, none included: QStdDev reads 0.0 when no launch queued.
      if (part->empty()) row.back() = ReportCell(0.0);
    }
    row.emplace_back(apiName);
    row.emplace_back(kernelName);
    rows.emplace_back(sqlRound(total.mean, 1), std::move(row));
  }
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (auto& row : rows) table.rows.push_back(std::move(row.second));
  return table;
}

ReportTable cudaKernExecTrace(const Database& db) {
  requireReportTable(db, table::kKernel);
  ApiCallIndex calls(db);
  auto launches = loadLaunches(db, calls);
  std::sort(launches.begin(), launches.end(), [](const Launch& a, const Launch& b) {
    return std::tie(a.call->start, a.kernelStart) < std::tie(b.call->start, b.kernelStart);
  });
  ReportTable table{"cuda_kern_exec_trace", "CUDA Kernel Launch & Exec Time Trace", {}, {}};
  for (const char* title :
       {"API Start (ns)", "API Dur (ns)", "Queue Start (ns)", "Queue Dur (ns)", "Kernel Start (ns)", "Kernel Dur (ns)",
        "Total Dur (ns)", "PID", "TID", "DevId", "API Function", "GridXYZ", "BlockXYZ", "Kernel Name"})
    table.columns.push_back({title, 0});
  for (const auto& launch : launches) {
    auto queue = launch.queueDuration();
    table.rows.push_back({launch.call->start, launch.apiDuration(), optionalCell(queue.has_value(), launch.call->end),
                          optionalCell(queue.has_value(), queue.value_or(0)), launch.kernelStart,
                          launch.kernelDuration(), launch.totalDuration(),
                          int64_t{global_id::pid(launch.call->globalTid)},
                          int64_t{global_id::tid(launch.call->globalTid)}, launch.deviceId, std::string(launch.apiName),
                          launch.grid, launch.block, launch.kernelName});
  }
  return table;
}

}  // namespace gpuscope
