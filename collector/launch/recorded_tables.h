#pragma once
// The rows a recording adds beside the daemon's events: the profiled kernels' counters and the processes'
// ranks. Written through the recording's one TraceWriter before it finishes the file, so the file is written
// once and a reader never sees it without them.
#include <cstdint>
#include <string>
#include <vector>

#include "core/model/rank_table.h"
#include "core/roofline/kernel_metrics.h"

namespace gpuscope {

class TraceWriter;

// GPUSCOPE_KERNEL_METRICS, one row per profiled launch; says so on stderr when there is none.
void writeMetricRows(TraceWriter& writer, const std::vector<KernelMetrics>& rows);

// GPUSCOPE_RANKS, one row per process whose environment named its rank (RANK, OMPI_COMM_WORLD_RANK, ...), with
// the recording's session start and PATH: the table `gpuscope merge` writes, so every reader of ranks sees them.
void writeRecordedRanks(TraceWriter& writer, std::vector<RankRow> rows, int64_t sessionStartUtcNs,
                        const std::string& path);

}  // namespace gpuscope
