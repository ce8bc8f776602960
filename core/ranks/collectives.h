#pragma once
// Collectives across ranks: each rank's collective kernels (NCCL, HTA's communication type) in the order they
// end, matched k-th to k-th across ranks. A collective completes on every rank at once, so on a good common
// clock the k-th collective of every rank ends at the same instant: what is left between their ends is the
// merge clock's residual, and the median difference per rank is the shift that removes it. Which rank
// starts its collectives last, while the others wait in theirs, is the straggler.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/model/trace_types.h"

namespace gpuscope {

class Database;

// One rank's collective kernels, in the order they end (then start): a late rank's kernels start later but
// end with the others', so this order matches them.
struct RankCollectives {
  std::string label;            // "rank 1", or "process 4242 (GPU 1)" in a file without GPUSCOPE_RANKS
  std::optional<int64_t> rank;  // GPUSCOPE_RANKS' rank, where the file has that table
  uint32_t pid = 0;             // the process that ran them (the first, when a rank has several)
  int64_t process = 0;          // that process as global_id::processOf gives it
  std::vector<TimeNs> start;
  std::vector<TimeNs> end;
  std::vector<int64_t> name;  // StringIds ids (of one file, so comparable across its ranks)
};

// The collective kernels of DB by rank (GPUSCOPE_RANKS) or, in a file without that table, by process; ranks
// without collectives are left out. Throws TraceError with one sentence for a time that is not an integer
// or an end before its start.
std::vector<RankCollectives> readRankCollectives(const Database& db);

// How well the ranks' k-th collectives line up. Collectives are matched by their order on each rank, up to
// the fewest any rank ran.
struct CollectiveSpread {
  size_t matched = 0;            // collectives compared on every rank
  size_t nameMismatches = 0;     // of those, how many were not the same kernel on every rank
  TimeNs medianEndSpreadNs = 0;  // latest end minus earliest end, the median over the matched collectives
  TimeNs maxEndSpreadNs = 0;
};
CollectiveSpread collectiveSpread(const std::vector<RankCollectives>& ranks);

// Per rank: the time that, added to its times, lines its collectives' ends up with the first rank's (the
// median of the differences); 0 for the first rank and for ranks with no matched collective.
std::vector<TimeNs> collectiveAlignment(const std::vector<RankCollectives>& ranks);

// The rank whose collectives start last most often, and what the others spent waiting for it.
struct Straggler {
  size_t rankIndex = 0;  // into the ranks given
  size_t timesLast = 0;  // matched collectives it started last
  size_t matched = 0;
  TimeNs othersWaitedNs = 0;            // over those collectives: the sum over the other ranks of (its start - theirs)
  TimeNs medianLagNs = 0;               // over those collectives: its start minus the next-latest rank's, the median
  std::vector<size_t> timesLastByRank;  // for every rank
};
// Found when there are two ranks or more with a matched collective and one was last strictly more often than
// any other.
std::optional<Straggler> findStraggler(const std::vector<RankCollectives>& ranks);

}  // namespace gpuscope
