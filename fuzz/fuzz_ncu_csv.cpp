// libFuzzer target: an `ncu --csv` report of any bytes is read from a file as `gpuscope import-ncu` reads
// it, and each kernel's metrics are derived. Only TraceError may come out.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.h"
#include "core/ncu/ncu_kernel_metrics.h"
#include "core/ncu/ncu_report.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = gpuscope::fuzz::inputPath(".csv");
  try {
    auto report = gpuscope::readNcuCsvFile(gpuscope::fuzz::writeInput(path, data, size));
    for (const auto& kernel : report.kernels) gpuscope::kernelMetricsFromNcu(kernel);
  } catch (const gpuscope::TraceError&) {
  }
  return 0;
}
