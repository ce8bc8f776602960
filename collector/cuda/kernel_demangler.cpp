#include "collector/cuda/kernel_demangler.h"

#include <cxxabi.h>

#include <cstdlib>

#ifdef GPUSCOPE_HAVE_CUFILT
#include <nv_decode.h>
#endif

namespace gpuscope::cuda {

std::string demangleKernelName(const char* symbol) {
  if (!symbol) return {};
  int status = 0;
#ifdef GPUSCOPE_HAVE_CUFILT
  char* text = __cu_demangle(symbol, nullptr, nullptr, &status);
#else
  char* text = abi::__cxa_demangle(symbol, nullptr, nullptr, &status);
#endif
  std::string name = status == 0 && text ? text : symbol;
  std::free(text);
  return name;
}

}  // namespace gpuscope::cuda
