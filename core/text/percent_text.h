#pragma once
// A share as the verdict and the findings write it: "43.1%" (one decimal).
#include <cstdio>
#include <string>

namespace gpuscope {

inline std::string percentText(double share) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", 100.0 * share);
  return text;
}

}  // namespace gpuscope
