#pragma once
// Findings in order of what they cost: each finding's time at stake inside the window the verdict judged
// is the length of the union of its places (the stretches, calls and kernels it points at, or the stake
// places it names apart, finding.h) clipped to that window, so overlapping places count once and places in start-up
// count not at all. A rule whose row limit cut its places short is asked again with rows=-1 for the measurement; its
// evidence stays as it was. A finding of severity info only describes (HTA's breakdowns, nsys's cuda_api_sync): it puts
// nothing at stake. The order: the most time at stake first, as the README promises, and the more severe only
// between findings of equal time: a warning over 866 us comes before a critical finding over 749 us.
#include <vector>

#include "core/analysis/rule_registry.h"
#include "core/model/interval_set.h"

namespace gpuscope {

// Sets atStakeNs of every found finding; FINDINGS[i] answers REQUESTS[i].
void measureStakes(const Database& db, const std::vector<RuleRequest>& requests, std::vector<Finding>& findings,
                   TimeInterval window);

// Stable: the most time at stake first, then the more severe, then the order they came in.
void orderByStake(std::vector<Finding>& findings);

// The union of FINDING's stake places (its ranges where it names none) clipped to WINDOW.
TimeNs stakeWithin(const Finding& finding, TimeInterval window);

}  // namespace gpuscope
