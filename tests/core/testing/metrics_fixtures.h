#pragma once
// The nsys exports with GPU metrics and CUDA memory usage (tests/fixtures/nsys-gpu-metrics), decompressed once
// per test run.
#include <string>

#include "tests/core/testing/gz_fixture.h"

namespace gpuscope::testing {

// NAME: "gm_transpose" or "gm_loader2".
inline std::string gpuMetricsFixture(const std::string& name) {
  std::string gz = GPUSCOPE_FIXTURES;
  gz += "/nsys-gpu-metrics/";
  gz += name;
  gz += ".sqlite.gz";
  std::string copy = "metrics_";
  copy += name;
  copy += ".sqlite";
  return gunzippedFixture(gz, copy);
}

}  // namespace gpuscope::testing
