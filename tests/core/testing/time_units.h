#pragma once
// Durations for the tests that build traces by hand, in the trace's nanoseconds.
#include "core/model/trace_types.h"

namespace gpuscope::testing {

inline constexpr TimeNs kUs = 1000;
inline constexpr TimeNs kMs = 1000 * kUs;

}  // namespace gpuscope::testing
