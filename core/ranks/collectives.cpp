#include "core/ranks/collectives.h"

#include <algorithm>
#include <limits>
#include <map>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/identity/collective_names.h"
#include "core/model/global_id.h"
#include "core/model/rank_table.h"
#include "core/model/time_math.h"
#include "core/schema/trace_schema.h"

namespace gpuscope {
namespace {

TimeNs median(std::vector<TimeNs> values) {
  if (values.empty()) return 0;
  auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

size_t fewestCollectives(const std::vector<RankCollectives>& ranks) {
  if (ranks.empty()) return 0;
  size_t fewest = ranks.front().start.size();
  for (const auto& rank : ranks) fewest = std::min(fewest, rank.start.size());
  return fewest;
}

}  // namespace

std::vector<RankCollectives> readRankCollectives(const Database& db) {
  if (!db.hasTable(table::kKernel) || !db.hasTable(table::kStringIds)) return {};
  std::vector<int64_t> names = collectiveNameIds(db);
  if (names.empty()) return {};
  std::string list;
  for (int64_t id : names) list += (list.empty() ? "" : ",") + std::to_string(id);
  std::vector<RankRow> rankRows = readRankRows(db);
  std::map<std::pair<int64_t, int64_t>, RankCollectives> byOwner;  // (rank, or -1) and (process, or 0)
  auto kernels = db.prepare("SELECT start, \"end\", globalPid, shortName, deviceId FROM " +
                            std::string(table::kKernel) + " WHERE shortName IN (" + list + ") ORDER BY \"end\", start");
  while (kernels.step()) {
    if (!kernels.isInteger(0) || !kernels.isInteger(1))
      throw TraceError(db.path() + " has a collective kernel whose time is not an integer (a " +
                       kernels.typeName(kernels.isInteger(0) ? 1 : 0) + " value).");
    TimeNs start = kernels.int64(0);
    TimeNs end = kernels.int64(1);
    if (end < start) throw TraceError(db.path() + " has a collective kernel that ends before it starts.");
    int64_t globalPid = kernels.int64(2);
    const RankRow* row = rankOfGlobalId(rankRows, globalPid);
    std::pair<int64_t, int64_t> owner = row ? std::pair<int64_t, int64_t>{row->rank, 0}
                                            : std::pair<int64_t, int64_t>{-1, global_id::processOf(globalPid)};
    RankCollectives& rank = byOwner[owner];
    if (rank.label.empty()) {
      rank.rank = row ? std::optional<int64_t>(row->rank) : std::nullopt;
      rank.pid = global_id::pid(globalPid);
      rank.process = global_id::processOf(globalPid);
      // Without ranks in the file, the process and its GPU say which rank it was.
      rank.label = row ? "rank " + std::to_string(row->rank)
                       : "process " + std::to_string(rank.pid) + " (GPU " + std::to_string(kernels.int64(4)) + ")";
    }
    rank.start.push_back(start);
    rank.end.push_back(end);
    rank.name.push_back(kernels.int64(3));
  }
  std::vector<RankCollectives> ranks;
  for (auto& [owner, rank] : byOwner) ranks.push_back(std::move(rank));
  return ranks;
}

CollectiveSpread collectiveSpread(const std::vector<RankCollectives>& ranks) {
  CollectiveSpread spread;
  if (ranks.size() < 2) return spread;
  spread.matched = fewestCollectives(ranks);
  std::vector<TimeNs> spreads;
  for (size_t k = 0; k < spread.matched; ++k) {
    TimeNs earliest = ranks.front().end[k];
    TimeNs latest = earliest;
    bool sameName = true;
    for (const auto& rank : ranks) {
      earliest = std::min(earliest, rank.end[k]);
      latest = std::max(latest, rank.end[k]);
      sameName = sameName && rank.name[k] == ranks.front().name[k];
    }
    spreads.push_back(spanNs(earliest, latest));
    spread.nameMismatches += sameName ? 0 : 1;
    spread.maxEndSpreadNs = std::max(spread.maxEndSpreadNs, spreads.back());
  }
  spread.medianEndSpreadNs = median(spreads);
  return spread;
}

std::vector<TimeNs> collectiveAlignment(const std::vector<RankCollectives>& ranks) {
  std::vector<TimeNs> shifts(ranks.size(), 0);
  size_t matched = fewestCollectives(ranks);
  for (size_t r = 1; r < ranks.size() && matched > 0; ++r) {
    std::vector<TimeNs> differences;
    for (size_t k = 0; k < matched; ++k) differences.push_back(ranks.front().end[k] - ranks[r].end[k]);
    shifts[r] = median(differences);
  }
  return shifts;
}

std::optional<Straggler> findStraggler(const std::vector<RankCollectives>& ranks) {
  size_t matched = ranks.size() < 2 ? 0 : fewestCollectives(ranks);
  if (matched == 0) return std::nullopt;
  Straggler straggler;
  straggler.matched = matched;
  straggler.timesLastByRank.assign(ranks.size(), 0);
  std::vector<size_t> lastOf(matched);
  for (size_t k = 0; k < matched; ++k) {
    size_t last = 0;
    for (size_t r = 1; r < ranks.size(); ++r)
      if (ranks[r].start[k] > ranks[last].start[k]) last = r;
    lastOf[k] = last;
    ++straggler.timesLastByRank[last];
  }
  auto most = std::max_element(straggler.timesLastByRank.begin(), straggler.timesLastByRank.end());
  if (std::count(straggler.timesLastByRank.begin(), straggler.timesLastByRank.end(), *most) > 1) return std::nullopt;
  straggler.rankIndex = static_cast<size_t>(most - straggler.timesLastByRank.begin());
  straggler.timesLast = *most;
  std::vector<TimeNs> lags;
  for (size_t k = 0; k < matched; ++k) {
    if (lastOf[k] != straggler.rankIndex) continue;
    TimeNs latest = ranks[straggler.rankIndex].start[k];
    TimeNs nextLatest = std::numeric_limits<TimeNs>::min();
    for (size_t r = 0; r < ranks.size(); ++r) {
      if (r == straggler.rankIndex) continue;
      straggler.othersWaitedNs = saturatingAdd(straggler.othersWaitedNs, spanNs(ranks[r].start[k], latest));
      nextLatest = std::max(nextLatest, ranks[r].start[k]);
    }
    lags.push_back(spanNs(nextLatest, latest));
  }
  straggler.medianLagNs = median(lags);
  return straggler;
}

}  // namespace gpuscope
