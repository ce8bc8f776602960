#pragma once
// What every CUPTI caller of the injection needs: a parameter struct made as CUPTI expects it, and a result
// as one readable phrase.
#include <cupti.h>

#include <cstddef>
#include <string>

namespace gpuscope::cuda {

// CUPTI's parameter structs: zeroed, with the size of the version we were built with.
template <typename Params>
Params makeParams(size_t structSize) {
  Params params{};
  params.structSize = structSize;
  return params;
}

// CUPTI's text for RESULT, or "CUPTI error N" where it has none.
inline std::string resultText(CUptiResult result) {
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  return text ? text : "CUPTI error " + std::to_string(static_cast<int>(result));
}

}  // namespace gpuscope::cuda
