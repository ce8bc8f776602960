#pragma once
// The collective kernels of a trace by name: which StringIds ids name a kernel HTA calls communication (NCCL's
// kernels), read once so that kernels can be told apart by id.
#include <cstdint>
#include <vector>

namespace gpuscope {

class Database;

// Sorted ids of DB's StringIds whose text htaKernelType() calls communication; empty without StringIds.
std::vector<int64_t> collectiveNameIds(const Database& db);

}  // namespace gpuscope
