#pragma once
// Durations written by people ("1.5ms", "250 us", "2s", "800ns", "120"): parsed to nanoseconds.
#include <optional>
#include <string_view>

#include "core/model/trace_types.h"

namespace gpuscope {

// Units: ns, us (or µs), ms, s; a bare number is nanoseconds. Returns nullopt for anything else.
std::optional<TimeNs> parseDuration(std::string_view text);

}  // namespace gpuscope
