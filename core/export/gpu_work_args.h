#pragma once
// The args Kineto writes on GPU events that the loaded trace does not keep in memory: a kernel's grid,
// block, registers and shared memory, a copy's or memset's bytes. Read per event from the trace file by
// rowid, through statements prepared once; columns a file lacks are left out.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>

namespace gpuscope {

class Database;
class Statement;

struct KernelArgs {
  std::array<int64_t, 3> grid{}, block{};
  int64_t registersPerThread = 0;
  int64_t sharedMemory = 0;  // static + dynamic, bytes per block
};

class GpuWorkArgs {
 public:
  explicit GpuWorkArgs(const Database& db);
  ~GpuWorkArgs();
  GpuWorkArgs(const GpuWorkArgs&) = delete;
  GpuWorkArgs& operator=(const GpuWorkArgs&) = delete;

  std::optional<KernelArgs> kernel(uint32_t row);
  std::optional<int64_t> bytes(bool memset, uint32_t row);

 private:
  std::unique_ptr<Statement> kernel_, memcpy_, memset_;
};

}  // namespace gpuscope
