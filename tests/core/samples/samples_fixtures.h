#pragma once
// The nsys exports with CPU sampling (tests/fixtures/nsys-sampling), decompressed once per test run.
#include <string>

#include "tests/core/testing/gz_fixture.h"

namespace gpuscope::testing {

// NAME: "loader2_samp" or "lb_samp".
inline std::string samplingFixture(const std::string& name) {
  return gunzippedFixture(std::string(GPUSCOPE_FIXTURES) + "/nsys-sampling/" + name + ".sqlite.gz",
                          "sampling_" + name + ".sqlite");
}

}  // namespace gpuscope::testing
