#pragma once
// The verdict as JSON, for `gpuscope analyze --format json`: its class, its sentence and every number
// that decided it (times in ns, shares of the window's wall time as fractions).
#include <nlohmann/json.hpp>

#include "core/analysis/verdict/rank_verdicts.h"
#include "core/analysis/verdict/verdict.h"
#include "core/analysis/verdict/window_figures.h"

namespace gpuscope {

// {"class", "sentence", "evidence": {...}}.
nlohmann::ordered_json verdictJson(const Verdict& verdict);
// {"range", "instances", "class", "sentence", "evidence"}.
nlohmann::ordered_json rangeVerdictJson(const RangeVerdict& verdict);
// {"label", "rank" (null where the file names none), "host", "class", "sentence", "evidence", "judged_window"}.
nlohmann::ordered_json rankVerdictJson(const RankVerdict& verdict);
// {"window_start_ns", ..., "verdict_gpu_busy_ns", "hta_compute_us", "hta_span_us", "stats_kernel_ns", ...,
// "sentence"}: the three figures of one window and what each measures.
nlohmann::ordered_json windowFiguresJson(const WindowFigures& figures);

}  // namespace gpuscope
