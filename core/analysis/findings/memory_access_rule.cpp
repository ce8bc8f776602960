// memory_access: memory-bound kernels that move many more bytes through the caches than they fetch from
// DRAM, the mark of uncoalesced (strided or scattered) accesses, from kernel metrics.
#include <set>

#include "core/analysis/findings/finding_rules.h"
#include "core/analysis/findings/kernel_times.h"
#include "core/analysis/nsys/rule_rows.h"
#include "core/analysis/verdict/kernel_limits.h"
#include "core/text/percent_text.h"

namespace gpuscope {
namespace {

class MemoryAccessRule : public AnalysisRule {
 public:
  std::string_view id() const override { return "memory_access"; }
  std::string_view title() const override { return "Low-efficiency memory access"; }
  std::string_view description() const override {
    return "A kernel that reads and writes each byte it needs once moves about as many bytes through L1 and "
           "L2 as it fetches from DRAM. A memory-bound kernel (its metrics put it under a memory roof) that "
           "moves ratio option times more through L2 or L1 than through DRAM spends its bandwidth on 32-byte "
           "sectors it uses a few bytes of: neighbouring threads of a warp touch addresses far apart "
           "(uncoalesced, strided or scattered accesses). Needs kernel metrics (gpuscope record --metrics "
           "roofline, or gpuscope import-ncu).";
  }
  std::vector<RuleOption> options() const override {
    auto all = AnalysisRule::options();
    all.push_back({"ratio", "2", "L2 or L1 bytes per DRAM byte from which a memory-bound kernel is reported"});
    return all;
  }
  Finding run(const Database& db, const RuleOptions& options) const override {
    Finding finding = emptyFinding(*this, Severity::Warning);
    finding.evidence.columns = {{"Share of Kernel Time (%)", 1},
                                {"Instances", 0},
                                {"DRAM (MB)", 3},
                                {"L2 (MB)", 3},
                                {"L1 (MB)", 3},
                                {"L2/DRAM", 2},
                                {"L1/DRAM", 2},
                                {"Limiter", 0},
                                {"Kernel", 0}};
    finding.suggestion =
        "Make neighbouring threads of a warp touch neighbouring addresses: for a transpose, read a tile "
        "coalesced into shared memory (padded by one column against bank conflicts) and write it out row by "
        "row; prefer structures of arrays to arrays of structures; load aligned vectors (float4) where you can.";
    double ratio = options.real("ratio");
    AnalysisWindow window = analysisWindow(db, options);
    KernelTimes times = kernelTimesByName(db, window);
    std::set<std::string> flagged;
    TimeNs flaggedNs = 0;
    for (const KernelLimit& limit : kernelLimits(db)) {
      const RooflinePoint& point = limit.point;
      auto dram = point.bytesOf(MemoryLevel::Dram), l2 = point.bytesOf(MemoryLevel::L2),
           l1 = point.bytesOf(MemoryLevel::L1);
      if (!limit.memoryBound || !dram || *dram <= 0) continue;
      double l2Ratio = l2.value_or(0) / *dram, l1Ratio = l1.value_or(0) / *dram;
      if (l2Ratio < ratio && l1Ratio < ratio) continue;
      TimeNs total = 0;
      for (const KernelNameTime& kernel : times.names) {
        if (kernel.name == point.label) total = kernel.totalNs;
      }
      if (total == 0 || !flagged.insert(point.label).second) continue;
      flaggedNs += total;
      finding.evidence.rows.push_back({100.0 * times.shareOf(total), static_cast<int64_t>(point.instances), *dram / 1e6,
                                       l2.value_or(0) / 1e6, l1.value_or(0) / 1e6, l2Ratio, l1Ratio,
                                       limit.assessment.limiter, point.label});
    }
    if (flagged.empty()) return finding;
    if (finding.evidence.rows.size() > rowCount(options)) finding.evidence.rows.resize(rowCount(options));
    finding.explanation = std::to_string(flagged.size()) + " memory-bound kernel" + (flagged.size() == 1 ? "" : "s") +
                          " taking " + percentText(times.shareOf(flaggedNs)) + " of the kernel time moved " +
                          std::to_string(static_cast<int>(ratio)) + "x or more the DRAM bytes through the caches. " +
                          finding.explanation;
    finding.ranges = longestKernelRanges(db, window, flagged, rowCount(options));
    return finding;
  }
};

}  // namespace

std::unique_ptr<AnalysisRule> makeMemoryAccessRule() { return std::make_unique<MemoryAccessRule>(); }

}  // namespace gpuscope
