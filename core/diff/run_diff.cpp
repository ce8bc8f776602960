#include "core/diff/run_diff.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "core/db/sqlite_database.h"
#include "core/details/kernel_list.h"
#include "core/diff/run_alignment.h"
#include "core/identity/kernel_identity.h"
#include "core/query/utilization.h"
#include "core/schema/trace_schema.h"
#include "core/stats/nvtx_ranges.h"
#include "core/stats/summary_stats.h"

namespace gpuscope {
namespace {

std::optional<double> percentChange(double a, double b) {
  if (a == 0) return std::nullopt;
  return 100.0 * (b - a) / a;
}

TimeNs magnitude(TimeNs delta) { return delta == std::numeric_limits<TimeNs>::min() ? delta : std::abs(delta); }

// The text of an nsys-style NVTX name "<domain>:<text>": what follows the first colon.
std::string nvtxText(const std::string& name) {
  auto colon = name.find(':');
  return colon == std::string::npos ? name : name.substr(colon + 1);
}

}  // namespace

std::optional<double> DiffRow::deltaTotalPercent() const {
  return percentChange(static_cast<double>(a.total), static_cast<double>(b.total));
}

std::optional<double> SummaryMetric::deltaPercent() const { return percentChange(a, b); }

double RunTotals::gpuBusyShare() const {
  return span > 0 ? std::clamp(static_cast<double>(gpuBusy) / static_cast<double>(span), 0.0, 1.0) : 0.0;
}

std::string_view presenceLabel(DiffPresence presence) {
  switch (presence) {
    case DiffPresence::Both:
      return "both";
    case DiffPresence::OnlyA:
      return "only A";
    case DiffPresence::OnlyB:
      return "only B";
  }
  return "both";
}

std::vector<DiffRow> matchByName(const std::vector<NamedSide>& a, const std::vector<NamedSide>& b) {
  std::map<std::string, DiffRow> rows;
  auto allMangled = [](const std::vector<NamedSide>& sides) {
    return std::all_of(sides.begin(), sides.end(), [](const NamedSide& s) { return !s.mangled.empty(); });
  };
  bool byMangled = !a.empty() && !b.empty() && allMangled(a) && allMangled(b);
  auto keyOf = [byMangled](const NamedSide& side) -> const std::string& {
    if (byMangled) return side.mangled;
    return side.key.empty() ? side.name : side.key;
  };
  auto add = [&rows, &keyOf](const std::vector<NamedSide>& sides, bool isA) {
    for (const auto& named : sides) {
      auto [it, inserted] = rows.try_emplace(keyOf(named));
      DiffRow& row = it->second;
      if (inserted) {
        row.name = named.name;
        row.timelineName = named.timelineName;
        row.presence = isA ? DiffPresence::OnlyA : DiffPresence::OnlyB;
      } else if (row.presence == (isA ? DiffPresence::OnlyB : DiffPresence::OnlyA)) {
        row.presence = DiffPresence::Both;
      }
      DiffSide& side = isA ? row.a : row.b;
      side.count += named.side.count;
      side.total = saturatingAdd(side.total, named.side.total);
    }
  };
  add(a, true);
  add(b, false);
  std::vector<DiffRow> result;
  result.reserve(rows.size());
  for (auto& [name, row] : rows) result.push_back(std::move(row));
  // std::map gave name order; a stable sort keeps it for rows that tie on the change and on their size.
  std::stable_sort(result.begin(), result.end(), [](const DiffRow& x, const DiffRow& y) {
    TimeNs dx = magnitude(saturatingSub(x.b.total, x.a.total));
    TimeNs dy = magnitude(saturatingSub(y.b.total, y.a.total));
    if (dx != dy) return dx > dy;
    return std::max(x.a.total, x.b.total) > std::max(y.a.total, y.b.total);
  });
  return result;
}

std::vector<NamedSide> kernelSides(const Trace& trace, std::optional<TimeInterval> window) {
  std::vector<EventRef> instances = kernelInstances(trace);
  if (window) std::erase_if(instances, [&](const EventRef& ref) { return !window->contains(trace.start(ref)); });
  std::vector<NamedSide> sides;
  for (const auto& group : summarizeKernels(trace, instances)) {
    const std::string& name = trace.string(group.name);
    sides.push_back({name, name, {static_cast<int64_t>(group.count), group.total}, {}, {}});
  }
  return sides;
}

std::vector<NamedSide> demangledKernelSides(const Trace& trace, std::optional<TimeInterval> window) {
  const Database& db = trace.database();
  if (!db.hasTable(table::kKernel) || !db.hasTable(table::kStringIds) ||
      !hasColumn(db, table::kKernel, "demangledName") || !hasColumn(db, table::kKernel, "shortName"))
    return kernelSides(trace, window);
  // Durations are summed as reals: a hostile file's huge values must not stop the query with an overflow.
  bool hasMangled = hasColumn(db, table::kKernel, "mangledName");
  auto stmt = db.prepare(
      std::string("SELECT d.value, s.value, count(*), total(k.end - k.start), ") + (hasMangled ? "m.value" : "NULL") +
      " FROM CUPTI_ACTIVITY_KIND_KERNEL AS k "
      "LEFT JOIN StringIds AS d ON d.id = k.demangledName LEFT JOIN StringIds AS s ON s.id = k.shortName " +
      (hasMangled ? "LEFT JOIN StringIds AS m ON m.id = k.mangledName " : "") +
      "WHERE k.start IS NOT NULL AND k.end IS NOT NULL" + (window ? " AND k.start >= ?1 AND k.start < ?2" : "") +
      " GROUP BY k.demangledName, k.shortName" + (hasMangled ? ", k.mangledName" : ""));
  if (window) {
    stmt.bind(1, static_cast<int64_t>(window->start));
    stmt.bind(2, static_cast<int64_t>(window->end));
  }
  std::vector<NamedSide> sides;
  while (stmt.step()) {
    std::string shortName(stmt.text(1));
    std::string name = stmt.isNull(0) ? shortName : std::string(stmt.text(0));
    double total = std::clamp(stmt.real(3), static_cast<double>(std::numeric_limits<TimeNs>::min()),
                              static_cast<double>(std::numeric_limits<TimeNs>::max() / 2));
    std::string key = kernelIdentity(name);
    std::string mangled = stmt.isNull(4) ? std::string() : std::string(stmt.text(4));
    sides.push_back({std::move(name),
                     std::move(shortName),
                     {stmt.int64(2), static_cast<TimeNs>(std::llround(total))},
                     std::move(key),
                     std::move(mangled)});
  }
  return sides;
}

std::vector<NamedSide> diffSides(const Trace& trace, DiffBy by, std::optional<TimeInterval> window) {
  switch (by) {
    case DiffBy::Kernel:
      return kernelSides(trace, window);
    case DiffBy::DemangledKernel:
      return demangledKernelSides(trace, window);
    case DiffBy::Nvtx:
      return nvtxSides(trace, window);
  }
  return {};
}

std::vector<NamedSide> nvtxSides(const Trace& trace, std::optional<TimeInterval> window) {
  const Database& db = trace.database();
  if (!db.hasTable(table::kNvtx) || !db.hasTable(table::kStringIds)) return {};
  std::unordered_map<std::string, DiffSide> byName;
  for (const auto& range : loadNvtxRanges(db)) {
    if (window && !window->contains(range.start)) continue;
    DiffSide& side = byName[range.name];
    ++side.count;
    side.total = saturatingAdd(side.total, saturatingSub(range.end, range.start));
  }
  std::vector<NamedSide> sides;
  sides.reserve(byName.size());
  for (auto& [name, side] : byName) sides.push_back({name, nvtxText(name), side, {}, {}});
  return sides;
}

RunTotals runTotals(const Trace& trace, std::optional<TimeInterval> window) {
  RunTotals totals;
  totals.span = window ? window->length() : saturatingSub(trace.endTime(), trace.startTime());
  // Inside WINDOW: an event counts when it starts there and adds the part of it that lies there.
  auto counted = [&](TimeNs start) { return !window || window->contains(start); };
  auto within = [&](TimeNs start, TimeNs end) {
    if (!window) return saturatingSub(end, start);
    return std::max<TimeNs>(0, saturatingSub(std::min(end, window->end), std::max(start, window->start)));
  };
  std::vector<const Lane*> gpuLanes;
  for (const auto& track : trace.tracks()) {
    if (track.kind != TrackKind::GpuKernels && track.kind != TrackKind::GpuMemory && track.kind != TrackKind::CudaApi)
      continue;
    for (const auto& lane : track.lanes) {
      if (track.isGpu()) gpuLanes.push_back(&lane);
      for (size_t i = 0; i < lane.size(); ++i) {
        TimeNs duration = within(lane.start[i], lane.end(i));
        int64_t count = counted(lane.start[i]) ? 1 : 0;
        if (track.kind == TrackKind::CudaApi) {
          totals.cudaApiTime = saturatingAdd(totals.cudaApiTime, duration);
          totals.cudaApiCount += count;
          continue;
        }
        totals.gpuTime = saturatingAdd(totals.gpuTime, duration);
        if (track.kind == TrackKind::GpuKernels) {
          totals.kernelTime = saturatingAdd(totals.kernelTime, duration);
          totals.kernelCount += count;
        } else if (lane.style.size() > i && lane.style[i] != kMemsetStyle) {
          totals.memcpyTime = saturatingAdd(totals.memcpyTime, duration);
          totals.memcpyCount += count;
        }
      }
    }
  }
  DeviceUtilization busy = DeviceUtilization::fromLanes(gpuLanes);
  totals.gpuBusy = window ? busy.busyTime(window->start, window->end) : busy.totalBusy();
  const Database& db = trace.database();
  if (db.hasTable(table::kMemcpy) && hasColumn(db, table::kMemcpy, "bytes")) {
    auto stmt =
        db.prepare(std::string("SELECT coalesce(sum(bytes), 0) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE bytes > 0") +
                   (window ? " AND start >= ?1 AND start < ?2" : ""));
    if (window) {
      stmt.bind(1, static_cast<int64_t>(window->start));
      stmt.bind(2, static_cast<int64_t>(window->end));
    }
    if (stmt.step()) totals.memcpyBytes = stmt.isNull(0) ? 0 : stmt.int64(0);
  }
  return totals;
}

std::vector<SummaryMetric> compareTotals(const RunTotals& a, const RunTotals& b) {
  auto metric = [](std::string name, std::string unit, auto x, auto y, int decimals = 0) {
    return SummaryMetric{std::move(name), std::move(unit), static_cast<double>(x), static_cast<double>(y), decimals};
  };
  return {
      metric("Wall span", "ns", a.span, b.span),
      metric("GPU time (kernels + memory)", "ns", a.gpuTime, b.gpuTime),
      metric("GPU busy", "ns", a.gpuBusy, b.gpuBusy),
      metric("GPU busy share", "%", 100.0 * a.gpuBusyShare(), 100.0 * b.gpuBusyShare(), 1),
      metric("Kernel time", "ns", a.kernelTime, b.kernelTime),
      metric("Kernels", "", a.kernelCount, b.kernelCount),
      metric("Memcpy time", "ns", a.memcpyTime, b.memcpyTime),
      metric("Memcpys", "", a.memcpyCount, b.memcpyCount),
      metric("Memcpy bytes", "bytes", a.memcpyBytes, b.memcpyBytes),
      metric("CUDA API time", "ns", a.cudaApiTime, b.cudaApiTime),
      metric("CUDA API calls", "", a.cudaApiCount, b.cudaApiCount),
  };
}

std::vector<EventRef> rowInstances(const Trace& trace, const DiffRow& row, DiffBy by) {
  if (by == DiffBy::Nvtx) return namedInstances(trace, AlignmentAnchor::Kind::NvtxRange, row.name);
  auto instances = namedInstances(trace, AlignmentAnchor::Kind::Kernel, row.timelineName);
  const Database& db = trace.database();
  if (by == DiffBy::Kernel || row.name == row.timelineName || !db.hasTable(table::kKernel) ||
      !db.hasTable(table::kStringIds) || !hasColumn(db, table::kKernel, "demangledName"))
    return instances;
  // Keep the instances whose source row names the same kernel (the row's name may be the other run's spelling).
  auto stmt = db.prepare(
      "SELECT k.rowid, d.value FROM CUPTI_ACTIVITY_KIND_KERNEL AS k JOIN StringIds AS d ON d.id = k.demangledName");
  const std::string identity = kernelIdentity(row.name);
  std::unordered_map<std::string, bool> same;  // demangled name -> same kernel as the row's
  std::unordered_set<int64_t> rows;
  while (stmt.step()) {
    std::string name(stmt.text(1));
    auto it = same.find(name);
    if (it == same.end()) it = same.emplace(name, name == row.name || kernelIdentity(name) == identity).first;
    if (it->second) rows.insert(stmt.int64(0));
  }
  std::erase_if(instances, [&](const EventRef& ref) { return !rows.contains(trace.lane(ref).row[ref.index]); });
  return instances;
}

RunDiff diffRuns(const Trace& a, const Trace& b, DiffBy by) {
  RunDiff diff;
  diff.by = by;
  diff.rows = matchByName(diffSides(a, by), diffSides(b, by));
  diff.summary = compareTotals(runTotals(a), runTotals(b));
  return diff;
}

}  // namespace gpuscope
