#include "core/analysis/findings/finding_rules.h"

namespace gpuscope {

std::vector<std::unique_ptr<AnalysisRule>> makeFindingRules() {
  std::vector<std::unique_ptr<AnalysisRule>> rules;
  rules.push_back(makeGpuWaitsOnHostRule());
  rules.push_back(makeFp32GemmRule());
  rules.push_back(makeLaunchBoundRule());
  rules.push_back(makeBlockingCopiesRule());
  rules.push_back(makeMemoryAccessRule());
  rules.push_back(makeStragglerRule());
  rules.push_back(makeGpuMostlyEmptyRule());
  rules.push_back(makeDeviceMemoryPeakRule());
  return rules;
}

}  // namespace gpuscope
