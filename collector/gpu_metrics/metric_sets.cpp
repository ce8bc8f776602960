#include "collector/gpu_metrics/metric_sets.h"

#include "core/metrics/gpu_metric_names.h"

namespace gpuscope::gpu_metrics {
namespace {

using namespace gpuscope::gpu_metric;

// nsys name -> PM sampling metric. Read off CUPTI's PM sampling metric list for the chip "GH100"
// (cuptiProfilerHostGetBaseMetrics) and checked against the values nsys stores in
// ../shared/fixtures/nsys-gpu-metrics (an H200 at 1 kHz) and against a spinning kernel on all SMs.
// The GPU metric units: ".avg" is the mean over the unit's instances (SMs, TPCs), ".sum" their total;
// "pct_of_peak_sustained_elapsed" is percent of what the unit can do in the elapsed cycles of the sample.
constexpr MetricCounter kGh100[] = {
    // Clocks: cycles elapsed per second is the clock in Hz, which nsys stores (840001250 for "840 MHz").
    {kGpcClock, 0, "gpc__cycles_elapsed.avg.per_second"},
    {kSysClock, 1, "sys__cycles_elapsed.avg.per_second"},
    // GR (the graphics/compute engine) busy: one unit, so sum = avg; nsys shows 1% on an idle GPU, so does this.
    {kGrActive, 2, "gr__cycles_active.sum.pct_of_peak_sustained_elapsed"},
    // SMs with at least one warp in flight, averaged over the SMs: 100% only when every SM is busy.
    {kSmsActive, 3, "sm__cycles_active.avg.pct_of_peak_sustained_elapsed"},
    // Warp instructions issued against the SMs' issue peak (one per sub-partition per cycle); the realtime
    // counter is the one PM sampling can read.
    {kSmIssue, 4, "sm__inst_executed_realtime.avg.pct_of_peak_sustained_elapsed"},
    // Cycles the tensor pipe was busy, any precision (HMMA, IMMA, DMMA).
    {kTensorActive, 5, "sm__pipe_tensor_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed"},
    // Not recorded: nsys's Compute Warps in Flight and Unallocated Warps in Active SMs (ids 12-17). Read as
    // tpc__warps_active_shader_cs_realtime and tpc__warps_inactive_sm_active_realtime they matched nsys on a
    // kernel spinning on every SM, but on the H200's bf16 cuBLAS GEMM (nvjet, launched with cuLaunchKernelEx)
    // Compute Warps in Flight read 0% where nsys read 14.4%, and Unallocated Warps 96.4% where nsys read 82.0%:
    // a wrong figure is worse than none, so they stay out until the right counters are found.
    // DRAM bytes read and written against the DRAM's peak bandwidth.
    {kDramRead, 18, "dram__bytes_read.sum.pct_of_peak_sustained_elapsed"},
    {kDramWrite, 19, "dram__bytes_write.sum.pct_of_peak_sustained_elapsed"},
    // PCIe seen from the GPU: RX is what it reads from the host (host-to-device copies: nsys's RX rises during
    // them in gm_transpose), TX what it writes to the host (device-to-host copies, 94% there).
    {kPcieRx, 20, "pcie__read_bytes.sum.pct_of_peak_sustained_elapsed"},
    {kPcieTx, 21, "pcie__write_bytes.sum.pct_of_peak_sustained_elapsed"},
};

// The few rows the per-kernel means and the verdict read, for a cheaper decode at high frequencies.
constexpr MetricCounter kUtilization[] = {
    kGh100[0], kGh100[1], kGh100[2], kGh100[3], kGh100[4], kGh100[5], kGh100[6], kGh100[7],
};

constexpr MetricSet kSets[] = {
    {"gh100",
     "the GH100 set nsys records on an H100/H200: 10 of its 22 metrics (not the graphics warps, nor the compute "
     "and unallocated warps, which did not match nsys's)",
     kGh100},
    {"utilization", "clocks, GR/SMs Active, SM Issue, Tensor Active, DRAM read/write bandwidth", kUtilization},
};

}  // namespace

std::span<const MetricSet> metricSets() { return kSets; }

const MetricSet* findMetricSet(std::string_view name) {
  int index = metricSetIndex(name);
  return index < 0 ? nullptr : &kSets[index];
}

int metricSetIndex(std::string_view name) {
  for (size_t i = 0; i < std::size(kSets); ++i)
    if (kSets[i].name == name) return static_cast<int>(i);
  return -1;
}

std::string gpuMetricsOptionsProblem(int64_t frequencyHz, std::string_view set) {
  if (frequencyHz < kMinFrequencyHz || frequencyHz > kMaxFrequencyHz)
    return "--gpu-metrics-frequency takes " + std::to_string(kMinFrequencyHz) + " to " +
           std::to_string(kMaxFrequencyHz) + " samples per second, not " + std::to_string(frequencyHz);
  if (!findMetricSet(set))
    return "unknown --gpu-metrics-set '" + std::string(set) + "': the sets are " + metricSetsHelp();
  return {};
}

std::string metricSetsHelp() {
  std::string text;
  for (const MetricSet& set : kSets) {
    if (!text.empty()) text += ", ";
    text += std::string(set.name) + " (" + std::string(set.description) + ")";
  }
  return text;
}

}  // namespace gpuscope::gpu_metrics
