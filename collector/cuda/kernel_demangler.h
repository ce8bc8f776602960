#pragma once
// The one demangler of kernel names in the collector. nsys writes demangledName exactly as the
// CUDA toolkit's own demangler prints it (cu++filt: `__cu_demangle` from nv_decode.h, in the
// toolkit's static libcufilt.a): `tiny(float *, int)`, `<(int)4, ...>`, `<unnamed>`. Where the
// build found libcufilt.a that demangler is used; elsewhere GCC's abi::__cxa_demangle, whose
// spelling differs (`tiny(float*, int)`). The trace records which one wrote its names
// (GPUSCOPE_META kernel_name_demangler).
#include <string>

namespace gpuscope::cuda {

// The demangled name of SYMBOL, or SYMBOL itself when it is not a mangled name; "" for null.
std::string demangleKernelName(const char* symbol);

}  // namespace gpuscope::cuda
