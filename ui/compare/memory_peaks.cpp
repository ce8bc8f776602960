#include "ui/compare/memory_peaks.h"

#include <set>

#include "core/metrics/memory_usage.h"

namespace gpuscope::ui {
namespace {

struct RunPeak {
  int64_t bytes = 0;
  double shareOfTotal = -1;  // percent; -1 where the GPU's total memory is unknown
};

RunPeak runPeak(const Trace& trace) {
  const MemoryUsage& usage = memoryUsage(trace);
  std::set<int> devices;
  for (const ProcessMemory& process : usage.processes) devices.insert(process.deviceId);
  RunPeak best;
  for (int device : devices) {
    int64_t peak = usage.devicePeak(device).bytes;
    if (peak <= best.bytes) continue;
    best.bytes = peak;
    best.shareOfTotal = -1;
    for (const DeviceInfo& info : trace.devices())
      if (static_cast<int>(info.id) == device && info.totalMemory > 0)
        best.shareOfTotal = 100.0 * static_cast<double>(peak) / static_cast<double>(info.totalMemory);
  }
  return best;
}

}  // namespace

std::vector<SummaryMetric> memoryPeakMetrics(const Trace& a, const Trace& b) {
  if (memoryUsage(a).empty() && memoryUsage(b).empty()) return {};
  RunPeak pa = runPeak(a), pb = runPeak(b);
  std::vector<SummaryMetric> out;
  out.push_back({"GPU memory peak", "bytes", static_cast<double>(pa.bytes), static_cast<double>(pb.bytes), 0});
  if (pa.shareOfTotal >= 0 && pb.shareOfTotal >= 0)
    out.push_back({"Peak of GPU memory", "%", pa.shareOfTotal, pb.shareOfTotal, 1});
  return out;
}

}  // namespace gpuscope::ui
