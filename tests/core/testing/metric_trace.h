#pragma once
// Synthetic traces with GPU metrics, written through TraceWriter in nsys's layout: kernels on device 0 and one
// sample of each named metric every PERIOD, its value given by a function of the sample's time.
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/model/global_id.h"
#include "core/schema/table_names.h"
#include "core/write/trace_writer.h"

namespace gpuscope::testing {

struct SyntheticKernel {
  TimeNs start = 0;
  TimeNs end = 0;
  std::string_view name = "kernel";
};

struct SyntheticMetric {
  std::string_view name;                        // a gpu_metric:: name
  std::function<int64_t(TimeNs)> valueAt = {};  // the value of the sample whose interval starts at t
};

// nsys's typeId of device 0: vm 1, the 1 << 32 nsys sets, the device in the low byte.
inline constexpr int64_t kDeviceZeroType = (int64_t{1} << 48) | (int64_t{1} << 32);

inline void writeMetricSamples(TraceWriter& writer, const std::vector<SyntheticMetric>& metrics, TimeNs first,
                               TimeNs last, TimeNs period) {
  int names = writer.tableRows(table::kTargetGpuMetrics, {"typeId", "sourceId", "typeName", "metricId", "metricName"});
  for (size_t m = 0; m < metrics.size(); ++m)
    writer.addRow(names,
                  {kDeviceZeroType, kDeviceZeroType, std::string_view(""), static_cast<int64_t>(m), metrics[m].name});
  int samples = writer.tableRows(table::kGpuMetrics, {"rawTimestamp", "timestamp", "typeId", "metricId", "value"});
  for (TimeNs t = first; t <= last; t += period)
    for (size_t m = 0; m < metrics.size(); ++m)
      writer.addRow(samples, {t, t, kDeviceZeroType, static_cast<int64_t>(m), metrics[m].valueAt(t)});
}

// A file at PATH with KERNELS on device 0 (process 10, launched by thread 10/11) and METRICS sampled every
// PERIOD over [0, END): timestamps 0, PERIOD, ..., END - PERIOD, each its interval's start, as nsys writes them.
inline void writeMetricTrace(const std::string& path, const std::vector<SyntheticKernel>& kernels,
                             const std::vector<SyntheticMetric>& metrics, TimeNs end, TimeNs period) {
  TraceWriter writer(path);
  int64_t pid = global_id::make(0, 0, 10, 0);
  writer.addProcess({pid, 10, "app"});
  uint32_t correlation = 1;
  for (const SyntheticKernel& kernel : kernels) {
    KernelRow row;
    row.start = kernel.start;
    row.end = kernel.end;
    row.streamId = 7;
    row.contextId = 1;
    row.correlationId = correlation++;
    row.globalPid = pid;
    row.demangledName = kernel.name;
    row.shortName = kernel.name;
    writer.addKernel(row);
  }
  writeMetricSamples(writer, metrics, 0, end - period, period);
  writer.finish();
}

}  // namespace gpuscope::testing
