#pragma once
// RankRow and the GPUSCOPE_RANKS table: which rank each group of a file's rows came from, so that a
// reader can group processes, threads and GPU work by host and rank.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuscope {

class Database;

// One input of a merge, or one process of a recording, as GPUSCOPE_RANKS stores it (columns in
// core/schema/trace_schema.h).
struct RankRow {
  int64_t rank = 0;
  std::optional<int64_t> localRank;
  std::optional<int64_t> worldSize;
  std::string hostName;
  std::optional<int64_t> sessionStartUtcNs;
  uint32_t hwFirst = 0;  // the hw field (core/model/global_id.h) of this rank's globalPid/globalTid values ...
  uint32_t hwLast = 0;   // ... runs from hwFirst to hwLast
  int64_t correlationIdOffset = 0;  // added to the input's correlation ids
  int64_t timeShiftNs = 0;          // added to the input's times
  std::string rankSource;           // where the rank was read; "command-line order" where no file said
  std::string sourcePath;           // the input as the user named it
  // A recording's row names one process (its rank variables, read by the recorder); a merge's rows name
  // every process of their hw range (none).
  std::optional<int64_t> pid;
};

// Creates GPUSCOPE_RANKS in DB and writes ROWS.
void writeRankRows(Database& db, const std::vector<RankRow>& rows);
// The rows of DB's GPUSCOPE_RANKS, by rank; empty when the file has none. Throws TraceError with one
// sentence for a row whose numbers are not integers.
std::vector<RankRow> readRankRows(const Database& db);
// The row of GLOBALID's process (a globalPid or globalTid): the row naming its pid in its hw range, else the
// row whose hw range holds its hw field; nullptr when none does.
const RankRow* rankOfGlobalId(const std::vector<RankRow>& rows, int64_t globalId);

}  // namespace gpuscope
