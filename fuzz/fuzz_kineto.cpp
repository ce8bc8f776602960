// libFuzzer target: a PyTorch profiler (Kineto) trace of any bytes, plain or gzip, is imported into a
// trace file and, when that works, loaded and summarized as `info` does. Only TraceError may come out.
#include <cstddef>
#include <cstdint>

#include "core/details/kernel_list.h"
#include "core/error.h"
#include "core/import/kineto/kineto_import.h"
#include "core/model/trace.h"
#include "core/model/trace_loader.h"
#include "core/model/trace_summary.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string jsonPath = gpuscope::fuzz::inputPath(".json");
  static const std::string sqlitePath = gpuscope::fuzz::inputPath(".kineto.sqlite");
  try {
    gpuscope::importKinetoTrace(gpuscope::fuzz::writeInput(jsonPath, data, size), sqlitePath);
    auto trace = gpuscope::loadTrace(sqlitePath);
    gpuscope::formatSummaryText(*trace);
    gpuscope::formatSummaryJson(*trace);
    gpuscope::summarizeKernels(*trace, gpuscope::kernelInstances(*trace));
  } catch (const gpuscope::TraceError&) {
  }
  return 0;
}
