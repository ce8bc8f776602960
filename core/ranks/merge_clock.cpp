#include "core/ranks/merge_clock.h"

#include <algorithm>

#include "core/error.h"

namespace gpuscope {

MergeClockPlan planMergeClock(const std::vector<RankIdentity>& inputs, const std::vector<std::string>& names,
                              MergeClock clock) {
  MergeClockPlan plan;
  for (const RankIdentity& input : inputs) {
    if (!input.sessionStartUtcNs) continue;
    plan.earliestStartUtcNs =
        std::min(plan.earliestStartUtcNs.value_or(*input.sessionStartUtcNs), *input.sessionStartUtcNs);
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const RankIdentity& input = inputs[i];
    if (input.timesAreEpoch && !input.sessionStartUtcNs)
      throw TraceError(names[i] +
                       " was exported with --ts-normalize but has no session start, so its times "
                       "cannot be put on the merged clock.");
    // Its own session clock: time 0 at its start.
    int64_t shift = -input.exportTimeShiftNs - (input.timesAreEpoch ? *input.sessionStartUtcNs : 0);
    if (clock == MergeClock::Absolute) {
      if (input.sessionStartUtcNs) {
        shift += *input.sessionStartUtcNs - *plan.earliestStartUtcNs;
      } else {
        plan.notes.push_back(names[i] + " has no session start, so its times were not shifted.");
      }
    }
    plan.shiftNs.push_back(shift);
  }
  return plan;
}

}  // namespace gpuscope
