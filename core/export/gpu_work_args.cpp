#include "core/export/gpu_work_args.h"

#include <string>
#include <vector>

#include "core/db/sqlite_database.h"
#include "core/schema/trace_schema.h"

namespace gpuscope {
namespace {

// Null where any of COLUMNS is missing from TABLE.
std::unique_ptr<Statement> prepareIfPresent(const Database& db, std::string_view table,
                                            const std::vector<std::string>& columns) {
  std::string list;
  for (const auto& column : columns) {
    if (!hasColumn(db, table, column)) return nullptr;
    list += (list.empty() ? "" : ", ") + column;
  }
  return std::make_unique<Statement>(
      db.prepare("SELECT " + list + " FROM " + std::string(table) + " WHERE rowid = ?1"));
}

}  // namespace

GpuWorkArgs::GpuWorkArgs(const Database& db) {
  kernel_ = prepareIfPresent(db, table::kKernel,
                             {"gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ", "registersPerThread",
                              "staticSharedMemory", "dynamicSharedMemory"});
  memcpy_ = prepareIfPresent(db, table::kMemcpy, {"bytes"});
  memset_ = prepareIfPresent(db, table::kMemset, {"bytes"});
}

GpuWorkArgs::~GpuWorkArgs() = default;

std::optional<KernelArgs> GpuWorkArgs::kernel(uint32_t row) {
  if (!kernel_) return std::nullopt;
  kernel_->reset();
  kernel_->bind(1, int64_t{row});
  if (!kernel_->step()) return std::nullopt;
  KernelArgs args;
  for (int i = 0; i < 3; ++i) {
    args.grid[i] = kernel_->int64(i);
    args.block[i] = kernel_->int64(3 + i);
  }
  args.registersPerThread = kernel_->int64(6);
  args.sharedMemory = kernel_->int64(7) + kernel_->int64(8);
  return args;
}

std::optional<int64_t> GpuWorkArgs::bytes(bool memset, uint32_t row) {
  auto& statement = memset ? memset_ : memcpy_;
  if (!statement) return std::nullopt;
  statement->reset();
  statement->bind(1, int64_t{row});
  if (!statement->step()) return std::nullopt;
  return statement->int64(0);
}

}  // namespace gpuscope
