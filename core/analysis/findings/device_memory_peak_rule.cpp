// device_memory_peak: a run whose device memory came within 10% of the GPU's total (from its allocations and
// frees, CUDA_GPU_MEMORY_USAGE_EVENTS): one larger batch or a fragmented cache away from out-of-memory.
#include "core/analysis/findings/finding_rules.h"
#include "core/analysis/nsys/rule_rows.h"
#include "core/analysis/verdict/memory_peak.h"
#include "core/text/percent_text.h"
#include "core/text/units.h"

namespace gpuscope {
namespace {

class DeviceMemoryPeakRule : public AnalysisRule {
 public:
  std::string_view id() const override { return "device_memory_peak"; }
  std::string_view title() const override { return "Device memory near its total"; }
  std::string_view description() const override {
    return "The device memory the run held at its peak, from its CUDA allocations and frees (CUDA memory usage "
           "events), against the GPU's total memory. Reported when the peak reaches the share option (%) of "
           "the total: a larger batch, a longer sequence or a fragmented allocator cache then fails with "
           "out-of-memory.";
  }
  std::vector<RuleOption> options() const override {
    auto all = AnalysisRule::options();
    all.push_back({"share", "90", "Peak share (%) of the device's total memory to report"});
    return all;
  }
  Finding run(const Database& db, const RuleOptions& options) const override {
    Finding finding = emptyFinding(*this, Severity::Warning);
    finding.evidence.columns = {
        {"Device", 0}, {"Peak (B)", 0}, {"Total (B)", 0}, {"Peak Share (%)", 1}, {"Peak Time (ns)", 0}};
    finding.suggestion =
        "Lower the peak: free or reuse buffers sooner, use activation checkpointing or a smaller micro-batch, "
        "and in PyTorch read torch.cuda.memory_summary() for what the caching allocator keeps reserved.";
    for (const MemoryPeak& peak : memoryPeaks(db)) {
      if (peak.totalBytes <= 0 || 100.0 * peak.share() < options.real("share")) continue;
      finding.evidence.rows.push_back(
          {int64_t{peak.deviceId}, peak.peakBytes, peak.totalBytes, 100.0 * peak.share(), peak.peakTime});
      if (finding.explanation.find("peaked") == std::string::npos)
        finding.explanation = peak.sentence() + " " + finding.explanation;
      finding.facts.push_back({"source", std::string("CUDA memory usage events")});
    }
    return finding;
  }
};

}  // namespace

std::unique_ptr<AnalysisRule> makeDeviceMemoryPeakRule() { return std::make_unique<DeviceMemoryPeakRule>(); }

}  // namespace gpuscope
