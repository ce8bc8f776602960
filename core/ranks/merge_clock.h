#pragma once
// The one clock of a merge: how much each input's times move so that all inputs share one time axis.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/ranks/rank_identity.h"

namespace gpuscope {

enum class MergeClock {
  Absolute,  // by each input's absolute session start: time 0 is the earliest start, as nsys lines reports up
  Relative,  // every input's own start at time 0: for runs recorded at different times
};

struct MergeClockPlan {
  // The earliest session start among the inputs: the merged file's time 0 with Absolute; empty when no
  // input has one.
  std::optional<int64_t> earliestStartUtcNs;
  std::vector<int64_t> shiftNs;    // per input: added to each of its times
  std::vector<std::string> notes;  // inputs that could not be placed by their start, one sentence each
};

// The shift of each of INPUTS (NAMES: how to call them in sentences). An input's times first go back to
// its own session clock (time 0 at its start): undoing nsys export's --ts-shift, and for a --ts-normalize
// export (times already since the Unix epoch) subtracting its start, so such a file is never shifted twice.
// Absolute then adds (its start - the earliest start); an input with no session start stays where it is,
// with a note. Throws TraceError with one sentence for a --ts-normalize export with no session start.
MergeClockPlan planMergeClock(const std::vector<RankIdentity>& inputs, const std::vector<std::string>& names,
                              MergeClock clock);

}  // namespace gpuscope
