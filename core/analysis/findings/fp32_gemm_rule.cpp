// fp32_gemm: GEMMs that run in FP32 on the FFMA pipes while the GPU has tensor cores, told by kernel
// name and, where the trace has kernel metrics, by the tensor-pipe counters.
#include <cstdio>
#include <map>
#include <set>

#include "core/analysis/findings/finding_rules.h"
#include "core/analysis/findings/gemm_math_path.h"
#include "core/analysis/findings/kernel_counters.h"
#include "core/analysis/findings/kernel_times.h"
#include "core/analysis/nsys/rule_rows.h"
#include "core/metrics/gpu_metric_names.h"
#include "core/metrics/sampled_means.h"
#include "core/roofline/roofline.h"
#include "core/text/percent_text.h"
#include "core/text/units.h"

namespace gpuscope {
namespace {

// Per kernel name with metrics: true when its counters show FP32 math and no tensor-core ops.
std::map<std::string, bool> fp32ByCounters(const Database& db) {
  std::map<std::string, bool> byName;
  for (const RooflinePoint& point : rooflinePoints(loadRooflineKernels(db), RooflineGrouping::Name)) {
    const auto& tensor = point.flopsOf(Precision::Tensor);
    const auto& fp32 = point.flopsOf(Precision::Fp32);
    if (!tensor || !fp32) continue;
    bool fp32Only = *tensor <= 0 && *fp32 > 0;
    auto [it, added] = byName.emplace(point.label, fp32Only);
    if (!added) it->second = it->second && fp32Only;
  }
  return byName;
}

// Tensor Active below this over a GEMM's samples: its tensor cores stayed idle.
constexpr double kTensorIdlePercent = 1.0;

// Per GEMM-named kernel, its sampled Tensor Active where enough samples fell inside its instances.
std::map<std::string, double> tensorActiveByName(const Database& db, const AnalysisWindow& window,
                                                 const KernelTimes& times) {
  std::set<std::string> gemms;
  for (const KernelNameTime& kernel : times.names)
    if (gemmMathPath(kernel.name) != GemmMathPath::NotGemm) gemms.insert(kernel.name);
  std::map<std::string, double> byName;
  GpuMetrics metrics;
  try {
    metrics = readGpuMetrics(db);
  } catch (const std::exception&) {
    return byName;  // a damaged GPU_METRICS table: judged by names and kernel metrics alone
  }
  for (const auto& [name, stats] : sampledByKernelName(db, window, metrics, gpu_metric::kTensorActive, gemms))
    if (stats.count >= kLeastSamplesForMeans) byName[name] = stats.mean();
  return byName;
}

// "counters: Tensor Active 0.0% over 240 samples (GPU metrics)".
std::string tensorEvidence(double tensorActive) {
  char text[96];
  std::snprintf(text, sizeof text, "counters: Tensor Active %.1f%% (GPU metrics)", tensorActive);
  return text;
}

class Fp32GemmRule : public AnalysisRule {
 public:
  std::string_view id() const override { return "fp32_gemm"; }
  std::string_view title() const override { return "FP32 GEMMs without tensor cores"; }
  std::string_view description() const override {
    return "Matrix multiplies (GEMMs, and convolutions done as GEMMs) that run in FP32 on the FFMA pipes "
           "leave the tensor cores idle; on Ampere and later GPUs TF32 tensor cores run them several times "
           "faster, and bf16 or fp16 faster still. Told by kernel name (sgemm, simt, ffma against hmma, tf32, "
           "bf16, s16816, tensorop, wgmma) and, where the trace has kernel metrics, by the tensor-pipe "
           "counters, or, where it has GPU metrics, by Tensor Active sampled over the GEMMs (near 0 confirms, "
           "busy tensor cores clear a name). Reported when they take at least the share option (%) of the GPU's kernel "
           "time.";
  }
  std::vector<RuleOption> options() const override {
    auto all = AnalysisRule::options();
    all.push_back({"share", "5", "Share of kernel time (%) FP32 GEMMs must reach to be reported"});
    return all;
  }
  Finding run(const Database& db, const RuleOptions& options) const override {
    Finding finding = emptyFinding(*this, Severity::Warning);
    finding.evidence.columns = {
        {"Share of Kernel Time (%)", 1}, {"Total Time (ns)", 0}, {"Instances", 0}, {"Evidence", 0}, {"Kernel", 0}};
    finding.suggestion =
        "In PyTorch allow TF32 for FP32 matmuls and convolutions (torch.backends.cuda.matmul.allow_tf32 = True "
        "and torch.backends.cudnn.allow_tf32 = True, or torch.set_float32_matmul_precision(\"high\")), or run "
        "the model under bf16 autocast (with torch.autocast(\"cuda\", dtype=torch.bfloat16): ...). With cuBLAS, "
        "cublasSetMathMode(handle, CUBLAS_TF32_TENSOR_OP_MATH) or cublasGemmEx with CUBLAS_COMPUTE_32F_FAST_TF32.";
    AnalysisWindow window = analysisWindow(db, options);
    KernelTimes times = kernelTimesByName(db, window);
    auto counters = fp32ByCounters(db);
    auto tensorActive = tensorActiveByName(db, window, times);
    std::set<std::string> flagged;
    TimeNs fp32Ns = 0;
    for (const KernelNameTime& kernel : times.names) {
      auto counted = counters.find(kernel.name);
      std::string why;
      if (counted != counters.end()) {
        if (counted->second && gemmMathPath(kernel.name) != GemmMathPath::NotGemm)
          why = "counters: FP32 FLOPs, no tensor ops";
      } else if (auto sampled = tensorActive.find(kernel.name); sampled != tensorActive.end()) {
        bool idle = sampled->second < kTensorIdlePercent;
        bool byName = gemmMathPath(kernel.name) == GemmMathPath::Fp32Simt;
        if (idle) why = (byName ? "name: FP32 (FFMA) GEMM; " : "") + tensorEvidence(sampled->second);
      } else if (gemmMathPath(kernel.name) == GemmMathPath::Fp32Simt) {
        why = "name: FP32 (FFMA) GEMM";
      }
      if (why.empty()) continue;
      flagged.insert(kernel.name);
      fp32Ns += kernel.totalNs;
      finding.evidence.rows.push_back(
          {100.0 * times.shareOf(kernel.totalNs), kernel.totalNs, kernel.instances, why, kernel.name});
    }
    double share = times.shareOf(fp32Ns);
    if (flagged.empty() || 100.0 * share < options.real("share")) {
      finding.evidence.rows.clear();
      return finding;
    }
    if (finding.evidence.rows.size() > rowCount(options)) finding.evidence.rows.resize(rowCount(options));
    finding.severity = share >= 0.3 ? Severity::Critical : Severity::Warning;
    finding.explanation = std::to_string(flagged.size()) + " FP32 GEMM kernel" + (flagged.size() == 1 ? "" : "s") +
                          " took " + formatDuration(fp32Ns) + ", " + percentText(share) +
                          " of the kernel time, without tensor cores. " + finding.explanation;
    finding.ranges = longestKernelRanges(db, window, flagged, rowCount(options));
    return finding;
  }
};

}  // namespace

std::unique_ptr<AnalysisRule> makeFp32GemmRule() { return std::make_unique<Fp32GemmRule>(); }

}  // namespace gpuscope
