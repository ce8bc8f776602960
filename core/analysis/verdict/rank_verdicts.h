#pragma once
// Per-rank verdicts: in a file that holds several ranks of one job (a merge of rank files, or one recording of
// a launcher's workers), each rank judged on its own GPU work and its own host threads, so that a rank that
// waits in its collectives reads "communication" beside the one that computes.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/finding.h"
#include "core/analysis/verdict/verdict.h"
#include "core/db/sqlite_database.h"

namespace gpuscope {

struct RankVerdict {
  std::string label;  // "rank 1", "rank 1 (host-a)", or "process 4242" in a file that does not name ranks
  std::optional<int64_t> rank;
  std::string hostName;
  std::vector<int64_t> processes;  // global_id::processOf values of the rank's processes, sorted
  Verdict verdict;                 // its steady state, as runVerdict judges a run
  // What the rules found on its processes inside the window its verdict judged, the most at stake first;
  // analyzeTraceFile (analysis_report.h) fills them.
  std::vector<Finding> findings;
};

// The ranks of DB and their verdicts, by rank: GPUSCOPE_RANKS' rows where the file has them (a rank's processes
// are those its hw range holds), else each process that ran collective kernels, when two or more did. Empty
// for a file of one rank.
std::vector<RankVerdict> rankVerdicts(const Database& db, const VerdictInputs& inputs);

// "rank 0 (host-a): Communication bound; rank 1 (host-a): CPU bound": each rank's class as its sentence names
// it, for a headline.
std::string rankHeadline(const std::vector<RankVerdict>& ranks);

}  // namespace gpuscope
