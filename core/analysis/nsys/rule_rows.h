#pragma once
// What nsys's rules share: the rows option as an SQL LIMIT, a Finding started from the rule's
// texts, and the range a GPU row points at.
#include <memory>
#include <string>

#include "core/analysis/analysis_rule.h"

namespace gpuscope {

// " LIMIT n" for rows=n (n >= 0), "" for rows=-1 (all); throws TraceError for other negatives.
std::string rowLimit(const RuleOptions& options);
// The rows option as a count, or SIZE_MAX for all.
size_t rowCount(const RuleOptions& options);

Finding emptyFinding(const AnalysisRule& rule, Severity severity);
FindingRange gpuRange(TimeNs start, TimeNs duration, int64_t pid, int64_t deviceId, int64_t contextId,
                      int64_t streamId);

std::unique_ptr<AnalysisRule> makeMemcpyAsyncRule();
std::unique_ptr<AnalysisRule> makeMemcpySyncRule();
std::unique_ptr<AnalysisRule> makeMemsetSyncRule();
std::unique_ptr<AnalysisRule> makeApiSyncRule();
std::unique_ptr<AnalysisRule> makeGpuGapsRule();
std::unique_ptr<AnalysisRule> makeGpuTimeUtilRule();
std::unique_ptr<AnalysisRule> makeDx12MemOpsRule();

}  // namespace gpuscope
