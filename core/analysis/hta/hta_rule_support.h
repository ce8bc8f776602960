#pragma once
// What HTA's rules share: their options, a Finding started from the rule's texts, and numbers as
// HTA's pandas tables hold them (microseconds as floats, ratios rounded as numpy rounds, NaN as an
// empty cell).
#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis/analysis_rule.h"

namespace gpuscope {

// An HTA rule: the window options every rule takes (start, end, nvtx; not nsys's rows), then its own.
class HtaRule : public AnalysisRule {
 public:
  std::vector<RuleOption> options() const override;

 protected:
  virtual std::vector<RuleOption> ownOptions() const { return {}; }
};

Finding htaFinding(const AnalysisRule& rule);

// A column of HTA's CSV: reals printed as pandas prints them ("1974919.0", "0.57").
ReportColumn htaColumn(const std::string& title);

// VALUE rounded to DECIMALS places as pandas' round does (numpy: scale, round half to even, unscale).
double roundLikePandas(double value, int decimals);

// A real cell, empty for NaN (pandas writes NaN as an empty CSV field).
ReportCell htaRealCell(double value);

// A boolean option given as true/false, yes/no or 1/0; throws TraceError otherwise.
bool htaFlag(const RuleOptions& options, std::string_view name);

// The range of a GPU operation or gap on its stream, for the viewer.
FindingRange htaGpuRange(TimeNs start, TimeNs end, int64_t globalPid, uint32_t deviceId, uint32_t contextId,
                         uint32_t streamId);

}  // namespace gpuscope
