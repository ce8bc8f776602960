#include "core/analysis/nsys/nsys_rules.h"

#include "core/analysis/nsys/rule_rows.h"

namespace gpuscope {

std::vector<std::unique_ptr<AnalysisRule>> makeNsysRules() {
  std::vector<std::unique_ptr<AnalysisRule>> rules;
  rules.push_back(makeMemcpyAsyncRule());
  rules.push_back(makeMemcpySyncRule());
  rules.push_back(makeMemsetSyncRule());
  rules.push_back(makeApiSyncRule());
  rules.push_back(makeGpuGapsRule());
  rules.push_back(makeGpuTimeUtilRule());
  rules.push_back(makeDx12MemOpsRule());
  return rules;
}

}  // namespace gpuscope
