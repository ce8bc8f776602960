#pragma once
// mergeTraces: several rank files (nsys exports, gpuscope recordings, PyTorch profiler traces, in any mix)
// written into one trace file on one clock, each input's processes, threads, correlation ids and strings
// kept apart, and GPUSCOPE_RANKS saying which rows came from which rank.
//
// Why SQL copies (INSERT ... SELECT from the attached input) and not TraceWriter's row structs: the copy
// keeps every column of every table the readers use, including the ones the writer's structs do not
// carry (NVTX payloads and JSON text, kernel launch details of newer nsys versions), and SQLite moves the
// rows record by record without a round trip through C++. TraceWriter still creates the file, so its
// schema, ENUM_ rows, metadata and indexes are the ones every recording has.
#include <cstdint>
#include <string>
#include <vector>

#include "core/model/rank_table.h"
#include "core/ranks/collectives.h"
#include "core/ranks/merge_clock.h"

namespace gpuscope {

struct MergeOptions {
  MergeClock clock = MergeClock::Absolute;
  // Then move each rank so that its collectives end with the first rank's (collectiveAlignment): for hosts
  // whose clocks disagree by more than the collectives' own spread.
  bool alignCollectives = false;
  // Merge inputs that look like different runs (same_run_check.h) instead of refusing them, with a warning.
  bool force = false;
};

struct MergedInput {
  RankRow rank;            // as GPUSCOPE_RANKS stores it
  int64_t kernels = 0;     // kernel rows copied
  int64_t rowsCopied = 0;  // rows copied over every table
  TimeNs lengthNs = 0;     // the input's span of events (same_run_check.h)
};

struct MergeSummary {
  std::vector<MergedInput> inputs;            // in command-line order
  std::optional<int64_t> earliestStartUtcNs;  // the merged file's session start
  // What could not be kept, one sentence each: tables the merge does not copy (with their row counts),
  // columns the merged tables have no place for, rows naming strings their file lacks.
  std::vector<std::string> notKept;
  std::vector<std::string> notes;  // how inputs were placed and numbered, one sentence each
  // Why the inputs look like different runs, where --force merged them anyway.
  std::vector<std::string> warnings;
  // How the ranks' matching collectives line up in the merged file, and before the alignment by collectives
  // where that was asked for and moved a rank.
  CollectiveSpread collectives;
  std::optional<CollectiveSpread> collectivesBeforeAlignment;
};

// Merges the trace files INPUTS into OUTPUT (replaced; written beside it first and renamed at the end, so
// a failed merge leaves no half-written file). Every input is opened through openTrace and checked as
// the loader checks it. Throws TraceError with one sentence for an input that is not a trace, holds a
// value the merge cannot place (a time that is text), is named twice, is OUTPUT itself, or already holds
// several ranks, for two inputs that claim the same rank, and (unless OPTIONS.force) for inputs that look
// like different runs (differentRunsReason).
MergeSummary mergeTraces(const std::vector<std::string>& inputs, const std::string& output,
                         const MergeOptions& options = {});

}  // namespace gpuscope
