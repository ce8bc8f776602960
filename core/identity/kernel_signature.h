#pragma once
// One spelling of a demangled kernel signature, so that names written by different demanglers match:
// Nsight Compute and Nsight Systems write "f(float *, const float *)", the C++ ABI demangler gcc's
// runtime offers (used by the collector) writes "f(float*, float const*)".
#include <string>
#include <string_view>

namespace gpuscope {

// Whitespace dropped and, within each parameter or template argument (text between '(' ')' '<' '>'
// and ','), the words sorted and followed by the symbols ('*', '&', ...) in their order: so
// "const float *" and "float const*" both become "const float*". Two different types can meet (a
// const pointer and a pointer to const), which launch order and the name around them keep apart.
std::string canonicalKernelSignature(std::string_view demangled);

}  // namespace gpuscope
