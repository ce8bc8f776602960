#pragma once
// The nsys exports with CPU sampling (tests/fixtures/nsys-sampling), decompressed once per test run.
#include <string>

#include "tests/core/testing/gz_fixture.h"

namespace gpuscope::testing {

// NAME: "loader2_samp" or "lb_samp".
// Built up by appending: GCC 12 at -O1 misreads the bounds of a chain of temporary strings here
// (-Warray-bounds in char_traits::copy), which -Werror would make an error.
inline std::string samplingFixture(const std::string& name) {
  std::string gz = GPUSCOPE_FIXTURES;
  gz += "/nsys-sampling/";
  gz += name;
  gz += ".sqlite.gz";
  std::string copy = "sampling_";
  copy += name;
  copy += ".sqlite";
  return gunzippedFixture(gz, copy);
}

}  // namespace gpuscope::testing
