#pragma once
// RowPipeline: carries trace rows from the daemon's decoding thread to a writer thread in batches,
// so reading rings and SQLite inserts run on two cores. Memory stays bounded: at most kMaxQueued
// batches wait; beyond that add() blocks until the writer catches up.
//
// Text a row refers to must stay valid until flush(): NVTX text travels with the row; kernel, API
// and domain names point into the assembler's tables, which flush() before letting go of them.
#include <cstddef>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "collector/daemon/memory_usage_rows.h"
#include "collector/gpu_metrics/metric_rows.h"
#include "core/write/bounded_worker.h"
#include "core/write/trace_rows.h"

namespace gpuscope {

class TraceWriter;

enum class NvtxRowKind { PushPop, StartEnd, Mark };

class RowPipeline {
 public:
  // THREADED false writes every row at once on the calling thread.
  RowPipeline(TraceWriter& writer, bool threaded);
  // Writes what is queued and stops the writer thread.
  ~RowPipeline();
  RowPipeline(const RowPipeline&) = delete;
  RowPipeline& operator=(const RowPipeline&) = delete;

  void add(const KernelRow& row);
  void add(const CudaApiRow& row);
  void add(const MemcpyRow& row);
  void add(const MemsetRow& row);
  void add(const SyncRow& row);
  void add(const OsRuntimeRow& row);
  void add(const NvtxDomainRow& row);
  // GPU_METRICS and CUDA_GPU_MEMORY_USAGE_EVENTS, through the writer's schema-keyed rows.
  void add(const gpu_metrics::GpuMetricRow& row);
  void add(MemoryUsageRow row);
  // ROW.text is ignored; TEXT is carried with the row.
  void addNvtx(NvtxRowKind kind, const NvtxRow& row, std::string text);

  // Returns once every row added so far is in the writer. Rethrows a write error (disk full).
  void flush();
  // Has the writer commit every row added so far (TraceWriter::commit) without waiting for it, so
  // a recorder killed later leaves them in the file. Rethrows a write error.
  void checkpoint();

 private:
  struct Nvtx {
    NvtxRowKind kind;
    NvtxRow row;
    std::string text;
  };
  struct Commit {};
  using Entry = std::variant<KernelRow, CudaApiRow, MemcpyRow, MemsetRow, SyncRow, OsRuntimeRow, NvtxDomainRow, Nvtx,
                             Commit, gpu_metrics::GpuMetricRow, MemoryUsageRow>;
  using Batch = std::vector<Entry>;
  static constexpr size_t kBatchRows = 4096;
  static constexpr size_t kMaxQueued = 8;

  template <typename Row>
  void push(Row&& row);
  void handOver();
  void write(Entry& entry);
  void writeMemoryUsage(const MemoryUsageRow& row);

  TraceWriter& writer_;
  bool threaded_;
  Batch current_;
  std::unique_ptr<BoundedWorker<Batch>> worker_;  // null when not threaded
  // TraceWriter::tableRows handles, made on the writing thread at the first such row; -1 before.
  int gpuMetricRows_ = -1;
  int memoryUsageRows_ = -1;
};

}  // namespace gpuscope
