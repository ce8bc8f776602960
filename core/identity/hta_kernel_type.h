#pragma once
// HTA's kernel types: Holistic Trace Analysis sorts GPU work by name alone into communication (NCCL
// kernels), memory (copies and sets) and computation, with "other" for names that look like
// communication or memory work without starting as HTA expects (a kernel named "...Memcpy..." or
// "...Sync..."). Its temporal breakdown counts only computation as compute time.
#include <string_view>

namespace gpuscope {

enum class HtaKernelType { Communication, Memory, Computation, Other };

// "COMMUNICATION", "MEMORY", "COMPUTATION", "OTHER", as HTA prints them.
const char* htaKernelTypeName(HtaKernelType type);

// The type of a GPU operation named NAME (a kernel's demangled name, "Memcpy HtoD (...)", "Memset (...)"):
// communication when it starts with "nccl" and has "Kernel" after that; memory when it starts with
// "Memcpy", "Memset" or "dma"; otherwise computation, unless "Memcpy" or "Sync" occurs in it.
HtaKernelType htaKernelType(std::string_view name);

}  // namespace gpuscope
