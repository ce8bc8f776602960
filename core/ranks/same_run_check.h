#pragma once
// Whether the files given to a merge look like the ranks of one run. Files of two different runs still merge
// (nothing in them says otherwise), but their timelines and their straggler say nothing true, so the merge
// refuses them unless told to go on (`merge --force`).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/model/trace_types.h"
#include "core/ranks/collectives.h"

namespace gpuscope {

class Database;

struct MergedRunFacts {
  std::string path;
  std::optional<int64_t> sessionStartUtcNs;  // where the file says
  TimeNs lengthNs = 0;                       // from its first event's start to its last event's end
};

// Collectives that end further apart than this (the median over the matched ones) are not one run's.
inline constexpr TimeNs kSameRunCollectiveSpreadNs = 1'000'000'000;

// From the first start to the last end over the file's event tables; 0 for a file without events.
TimeNs eventSpanNs(const Database& db);

// One sentence saying why INPUTS are probably not one run: their session starts differ by more than the
// longer of the two runs, or their matched collectives (as placed in the merge, SPREAD) end more than
// kSameRunCollectiveSpreadNs apart. Empty when nothing says so.
std::optional<std::string> differentRunsReason(const std::vector<MergedRunFacts>& inputs,
                                               const CollectiveSpread& spread);

}  // namespace gpuscope
