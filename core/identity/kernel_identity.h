#pragma once
// Kernel identity: the one rule that says two spellings name the same kernel. nsys (the CUDA toolkit's
// demangler, cu++filt), ncu, the PyTorch profiler (GCC's abi::__cxa_demangle) and older gpuscope files
// spell one kernel differently; each reader, the diff, the compare view and ncu import key kernels by
// kernelIdentity() so that those spellings meet.
#include <string>
#include <string_view>

namespace gpuscope {

// The canonical form of a demangled kernel name. Made equal across demanglers:
// - return types ("void f<...>" and "void g<...>(...)::[lambda]" inside template arguments) dropped;
// - parameter lists emptied: nsys and ncu abbreviate parameters that repeat template arguments
//   ("T1 *", "T1::Params") where GCC spells them out, so only the name and the template arguments
//   tell kernels apart (two overloads that differ only in parameter types meet: compare mangled
//   names for those, see sameKernel);
// - namespace qualifiers dropped ("at::native::", "(anonymous namespace)::", "<unnamed>::"), as ncu
//   leaves some of them out; qualifiers that carry template arguments or a function ("Op<float>::",
//   "f(...)::{lambda...}") stay, so kernels made from different lambdas stay apart;
// - casts on literals ("(int)4", "(bool)1", "(unsigned long)1") dropped, "true"/"false" as 1/0,
//   integer suffixes ("1ul", "1u") dropped;
// - lambdas "[lambda(float) (instance 1)]" and "{lambda(float)#1}" written one way;
// - spaces dropped and, within a template argument, words put in one order ("float const*" and
//   "const float *" meet).
std::string kernelIdentity(std::string_view demangled);

// Whether two kernels are the same: by mangled name where both have one, else by kernelIdentity.
bool sameKernel(std::string_view mangledA, std::string_view demangledA, std::string_view mangledB,
                std::string_view demangledB);

// The kernel's own name without return type, qualifiers, template arguments or parameters, as nsys's
// shortName column has it ("vectorized_elementwise_kernel"); a plain symbol is returned as it is.
std::string kernelShortName(std::string_view demangled);

}  // namespace gpuscope
