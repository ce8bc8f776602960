#pragma once
// extractRank: one rank of a file that holds several (a merge, or one recording of a launcher's workers) copied
// into a trace file of its own, so that everything that reads one run (diff, stats, the viewer) reads that rank.
#include <cstdint>
#include <string>
#include <vector>

namespace gpuscope {

class Database;

// The ranks DB's GPUSCOPE_RANKS names, ascending, each once; empty without that table.
std::vector<int64_t> ranksOf(const Database& db);

// Writes to OUTPUT a copy of DB without the rows of other ranks' processes (every table with a globalPid or
// globalTid column) and with only RANK's GPUSCOPE_RANKS rows. Throws TraceError with one sentence when DB does
// not name its ranks or has no rank RANK.
void extractRank(const Database& db, int64_t rank, const std::string& output);

}  // namespace gpuscope
