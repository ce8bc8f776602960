#include "core/ranks/same_run_check.h"

#include <algorithm>
#include <limits>

#include "core/db/sqlite_database.h"
#include "core/schema/trace_schema.h"
#include "core/text/units.h"

namespace gpuscope {
namespace {

TimeNs absoluteDifference(int64_t a, int64_t b) {
  return a > b ? static_cast<TimeNs>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b))
               : static_cast<TimeNs>(static_cast<uint64_t>(b) - static_cast<uint64_t>(a));
}

}  // namespace

TimeNs eventSpanNs(const Database& db) {
  TimeNs first = std::numeric_limits<TimeNs>::max(), last = std::numeric_limits<TimeNs>::min();
  for (std::string_view table : eventTables()) {
    if (!db.hasTable(table) || !hasColumn(db, table, "end")) continue;
    auto span = db.prepare("SELECT min(start), max(\"end\") FROM " + quoteIdentifier(table) +
                           " WHERE typeof(start) = 'integer' AND typeof(\"end\") = 'integer'");
    if (!span.step() || span.isNull(0)) continue;
    first = std::min(first, span.int64(0));
    last = std::max(last, span.int64(1));
  }
  return last >= first ? last - first : 0;
}

std::optional<std::string> differentRunsReason(const std::vector<MergedRunFacts>& inputs,
                                               const CollectiveSpread& spread) {
  for (size_t i = 1; i < inputs.size(); ++i) {
    const MergedRunFacts& a = inputs.front();
    const MergedRunFacts& b = inputs[i];
    if (!a.sessionStartUtcNs || !b.sessionStartUtcNs) continue;
    TimeNs apart = absoluteDifference(*a.sessionStartUtcNs, *b.sessionStartUtcNs);
    TimeNs longest = std::max(a.lengthNs, b.lengthNs);
    if (apart > longest)
      return a.path + " and " + b.path + " started " + formatDuration(apart) +
             " apart, longer than either run lasted (" + formatDuration(longest) + "): they are probably not one run.";
  }
  if (spread.matched > 0 && spread.medianEndSpreadNs > kSameRunCollectiveSpreadNs)
    return "The inputs' matching collectives end a median of " + formatDuration(spread.medianEndSpreadNs) +
           " apart (more than " + formatDuration(kSameRunCollectiveSpreadNs) + "): they are probably not one run.";
  return std::nullopt;
}

}  // namespace gpuscope
