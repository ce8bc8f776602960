// libFuzzer target: a trace file of any bytes is loaded (info, diff and the viewer's path) and, when it
// loads, summarized as text and JSON and its kernels listed. Only TraceError may come out.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/details/kernel_list.h"
#include "core/error.h"
#include "core/model/trace.h"
#include "core/model/trace_loader.h"
#include "core/model/trace_summary.h"
#include "core/query/utilization.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = gpuscope::fuzz::inputPath(".sqlite");
  try {
    auto trace = gpuscope::loadTrace(gpuscope::fuzz::writeInput(path, data, size));
    gpuscope::formatSummaryText(*trace);
    gpuscope::formatSummaryJson(*trace);
    gpuscope::summarizeKernels(*trace, gpuscope::kernelInstances(*trace));
    for (const auto& device : trace->devices()) {
      auto utilization = gpuscope::DeviceUtilization::forDevice(*trace, device.id);
      utilization.busyTime(trace->startTime(), trace->endTime());
      std::vector<float> pixels;
      double nsPerPixel = static_cast<double>(trace->endTime()) / 64.0 - static_cast<double>(trace->startTime()) / 64.0;
      utilization.fractions(trace->startTime(), nsPerPixel, 64, pixels);
    }
  } catch (const gpuscope::TraceError&) {
  }
  return 0;
}
