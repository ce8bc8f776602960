#include "core/stats/nvtx_ranges.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>
#include <unordered_map>

#include "core/model/global_id.h"
#include "core/schema/trace_schema.h"
#include "core/stats/stats_common.h"

namespace gpuscope {
namespace {

// Domain names by (process, domain id), from the domain-create events.
std::map<std::pair<int64_t, int64_t>, std::string> loadDomainNames(const Database& db) {
  std::map<std::pair<int64_t, int64_t>, std::string> names;
  auto stmt = db.prepare(
      "SELECT e.globalTid, e.domainId, coalesce(e.text, s.value) FROM NVTX_EVENTS AS e "
      "LEFT JOIN StringIds AS s ON s.id = e.textId WHERE e.eventType = " +
      std::to_string(nsys_enum::kNvtxDomainCreate) + " AND e.domainId IS NOT NULL");
  while (stmt.step()) names[{global_id::processOf(stmt.int64(0)), stmt.int64(1)}] = std::string(stmt.text(2));
  return names;
}

}  // namespace

std::string_view nvtxStyle(const NvtxRange& range) { return range.pushPop ? "PushPop" : "StartEnd"; }

std::vector<NvtxRange> loadNvtxRanges(const Database& db) {
  requireReportTable(db, table::kStringIds);
  requireReportTable(db, table::kNvtx);
  auto domains = loadDomainNames(db);
  auto stmt = db.prepare(
      "SELECT e.start, e.end, e.eventType, e.globalTid, " + columnOr(db, table::kNvtx, "endGlobalTid") +
      ", e.domainId, coalesce(e.text, s.value) FROM NVTX_EVENTS AS e "
      "LEFT JOIN StringIds AS s ON s.id = e.textId WHERE e.end IS NOT NULL AND e.eventType IN (" +
      std::to_string(nsys_enum::kNvtxPushPopRange) + ", " + std::to_string(nsys_enum::kNvtxStartEndRange) + ")");
  std::vector<NvtxRange> ranges;
  while (stmt.step()) {
    NvtxRange range;
    range.start = stmt.int64(0);
    range.end = stmt.int64(1);
    range.pushPop = stmt.int64(2) == nsys_enum::kNvtxPushPopRange;
    range.globalTid = stmt.int64(3);
    range.oneThread = range.pushPop || stmt.isNull(4) || stmt.int64(4) == range.globalTid;
    std::string domain;
    if (!stmt.isNull(5)) {
      auto it = domains.find({global_id::processOf(range.globalTid), stmt.int64(5)});
      if (it != domains.end()) domain = it->second;
    }
    range.name = domain + ":" + std::string(stmt.text(6));
    ranges.push_back(std::move(range));
  }
  return ranges;
}

std::vector<std::vector<uint32_t>> enclosingRanges(const std::vector<NvtxRange>& ranges,
                                                   const std::vector<ThreadSpan>& spans) {
  // Sweep each thread in start order, keeping the ranges open at the current span's start.
  std::unordered_map<int64_t, std::vector<uint32_t>> rangesOf, spansOf;
  for (uint32_t i = 0; i < ranges.size(); ++i)
    if (ranges[i].oneThread) rangesOf[ranges[i].globalTid].push_back(i);
  for (uint32_t i = 0; i < spans.size(); ++i) spansOf[spans[i].globalTid].push_back(i);

  std::vector<std::vector<uint32_t>> enclosing(spans.size());
  for (auto& [thread, spanIds] : spansOf) {
    auto& rangeIds = rangesOf[thread];
    std::sort(rangeIds.begin(), rangeIds.end(), [&](uint32_t a, uint32_t b) {
      return std::tie(ranges[a].start, ranges[b].end) < std::tie(ranges[b].start, ranges[a].end);
    });
    std::sort(spanIds.begin(), spanIds.end(), [&](uint32_t a, uint32_t b) { return spans[a].start < spans[b].start; });
    std::vector<uint32_t> open;
    size_t next = 0;
    for (uint32_t spanId : spanIds) {
      const auto& span = spans[spanId];
      while (next < rangeIds.size() && ranges[rangeIds[next]].start <= span.start) open.push_back(rangeIds[next++]);
      std::erase_if(open, [&](uint32_t r) { return ranges[r].end < span.start; });
      for (uint32_t r : open)
        if (span.end <= ranges[r].end) enclosing[spanId].push_back(r);
    }
  }
  return enclosing;
}

}  // namespace gpuscope
