#pragma once
// RankIdentity: what one trace file says about the rank that wrote it (rank, local rank, world size, host)
// and how its times relate to the wall clock, read from whichever tables its producer writes.
#include <cstdint>
#include <optional>
#include <string>

namespace gpuscope {

class Database;

struct RankIdentity {
  std::optional<int64_t> rank;
  std::optional<int64_t> localRank;
  std::optional<int64_t> worldSize;
  std::string hostName;                      // empty where the file does not say
  std::optional<int64_t> sessionStartUtcNs;  // the wall-clock time of the file's time 0, ns since the Unix epoch
  std::string rankSource;                    // where the rank was read, for the merge's report; empty: nowhere
  // nsys export --ts-normalize: the file's times are ns since the Unix epoch already, not since its start.
  bool timesAreEpoch = false;
  // nsys export --ts-shift: added to every time of the file on export.
  int64_t exportTimeShiftNs = 0;
};

// The identity DB's file states. Sources, first found wins: a GPUSCOPE_RANKS row (a file that says which
// rank it is), GPUSCOPE_META's rank_meta names (gpuscope recordings, Kineto imports), and for nsys exports
// the launcher's variables in META_DATA_CAPTURE (RANK, OMPI_COMM_WORLD_RANK, PMI_RANK, SLURM_PROCID and
// their local-rank and size twins) and TARGET_INFO_SYSTEM_ENV's Hostname. The session start is
// TARGET_INFO_SESSION_START_TIME.utcEpochNs; the export options are META_DATA_EXPORT's
// EXPORT_PARAM_TIME_NORMALIZE and EXPORT_PARAM_TIME_SHIFT. Throws TraceError with one sentence for a value
// that is present but not a whole number (a session start that is text, say).
RankIdentity readRankIdentity(const Database& db);

}  // namespace gpuscope
