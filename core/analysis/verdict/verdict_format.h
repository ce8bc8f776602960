#pragma once
// The verdict as JSON, for `gpuscope analyze --format json`: its class, its sentence and every number
// that decided it (times in ns, shares of the window's wall time as fractions).
#include <nlohmann/json.hpp>

#include "core/analysis/verdict/verdict.h"

namespace gpuscope {

// {"class", "sentence", "evidence": {...}}.
nlohmann::ordered_json verdictJson(const Verdict& verdict);
// {"range", "instances", "class", "sentence", "evidence"}.
nlohmann::ordered_json rangeVerdictJson(const RangeVerdict& verdict);

}  // namespace gpuscope
