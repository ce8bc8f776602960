#pragma once
// The GPU work of a trace (kernels, memcpys, memsets) grouped by GPU context, for the rules that
// look at when the GPU was busy: gpu_gaps and gpu_time_util. As nsys's rules do, only operations
// with a start time above 0 count.
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "core/analysis/analysis_window.h"
#include "core/db/sqlite_database.h"
#include "core/model/time_interval.h"

namespace gpuscope {

struct ContextKey {
  uint32_t pid = 0;
  uint32_t deviceId = 0;
  uint32_t contextId = 0;
  auto operator<=>(const ContextKey&) const = default;
};

// Per context, its operations sorted by start (then end).
std::map<ContextKey, std::vector<TimeInterval>> gpuOpsByContext(const Database& db, const AnalysisWindow& window);

// Nanoseconds of [from, to) covered by at least one of OPS (sorted by start): overlapping work counts once.
TimeNs busyTime(const std::vector<TimeInterval>& ops, TimeNs from, TimeNs to);

}  // namespace gpuscope
