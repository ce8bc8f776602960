#include "collector/daemon/row_pipeline.h"

#include <exception>

#include "core/schema/table_names.h"
#include "core/write/trace_writer.h"

namespace gpuscope {

RowPipeline::RowPipeline(TraceWriter& writer, bool threaded) : writer_(writer), threaded_(threaded) {
  current_.reserve(kBatchRows);
  if (threaded_) {
    worker_ = std::make_unique<BoundedWorker<Batch>>(kMaxQueued, [this](Batch& batch) {
      for (Entry& entry : batch) write(entry);
    });
  }
}

RowPipeline::~RowPipeline() {
  if (!threaded_) return;
  try {
    flush();
  } catch (const std::exception&) {
    // The error was reported by the flush that the owner made; a destructor must not throw.
  }
  worker_->stop();
}

template <typename Row>
void RowPipeline::push(Row&& row) {
  if (!threaded_) {
    Entry entry(std::forward<Row>(row));
    write(entry);
    return;
  }
  current_.emplace_back(std::forward<Row>(row));
  if (current_.size() >= kBatchRows) handOver();
}

void RowPipeline::add(const KernelRow& row) { push(row); }
void RowPipeline::add(const CudaApiRow& row) { push(row); }
void RowPipeline::add(const MemcpyRow& row) { push(row); }
void RowPipeline::add(const MemsetRow& row) { push(row); }
void RowPipeline::add(const SyncRow& row) { push(row); }
void RowPipeline::add(const OsRuntimeRow& row) { push(row); }
void RowPipeline::add(const NvtxDomainRow& row) { push(row); }
void RowPipeline::add(const gpu_metrics::GpuMetricRow& row) { push(row); }
void RowPipeline::add(MemoryUsageRow row) { push(std::move(row)); }
void RowPipeline::addNvtx(NvtxRowKind kind, const NvtxRow& row, std::string text) {
  push(Nvtx{kind, row, std::move(text)});
}

void RowPipeline::handOver() {
  if (current_.empty()) return;
  worker_->push(std::move(current_));
  current_ = Batch();
  current_.reserve(kBatchRows);
}

void RowPipeline::flush() {
  if (!threaded_) return;
  handOver();
  worker_->drain();
}

void RowPipeline::checkpoint() {
  push(Commit{});
  handOver();
}

void RowPipeline::write(Entry& entry) {
  std::visit(
      [this](auto& row) {
        using Row = std::decay_t<decltype(row)>;
        if constexpr (std::is_same_v<Row, KernelRow>) {
          writer_.addKernel(row);
        } else if constexpr (std::is_same_v<Row, CudaApiRow>) {
          writer_.addCudaApi(row);
        } else if constexpr (std::is_same_v<Row, MemcpyRow>) {
          writer_.addMemcpy(row);
        } else if constexpr (std::is_same_v<Row, MemsetRow>) {
          writer_.addMemset(row);
        } else if constexpr (std::is_same_v<Row, SyncRow>) {
          writer_.addSync(row);
        } else if constexpr (std::is_same_v<Row, OsRuntimeRow>) {
          writer_.addOsRuntime(row);
        } else if constexpr (std::is_same_v<Row, NvtxDomainRow>) {
          writer_.addNvtxDomainCreate(row);
        } else if constexpr (std::is_same_v<Row, Commit>) {
          writer_.commit();
        } else if constexpr (std::is_same_v<Row, gpu_metrics::GpuMetricRow>) {
          if (gpuMetricRows_ < 0)
            gpuMetricRows_ =
                writer_.tableRows(table::kGpuMetrics, {"rawTimestamp", "timestamp", "typeId", "metricId", "value"});
          writer_.addRow(gpuMetricRows_, {row.timestamp, row.timestamp, row.typeId, row.metricId, row.value});
        } else if constexpr (std::is_same_v<Row, MemoryUsageRow>) {
          writeMemoryUsage(row);
        } else {
          row.row.text = row.text;
          switch (row.kind) {
            case NvtxRowKind::PushPop:
              writer_.addNvtxPushPopRange(row.row);
              break;
            case NvtxRowKind::StartEnd:
              writer_.addNvtxStartEndRange(row.row);
              break;
            case NvtxRowKind::Mark:
              writer_.addNvtxMark(row.row);
              break;
          }
        }
      },
      entry);
}

void RowPipeline::writeMemoryUsage(const MemoryUsageRow& row) {
  if (memoryUsageRows_ < 0) {
    memoryUsageRows_ =
        writer_.tableRows(table::kGpuMemoryUsage,
                          {"start", "globalPid", "deviceId", "contextId", "address", "pc", "bytes", "memKind",
                           "memoryOperationType", "name", "correlationId", "streamId", "localMemoryPoolAddress",
                           "localMemoryPoolReleaseThreshold", "localMemoryPoolSize", "localMemoryPoolUtilizedSize",
                           "importedMemoryPoolAddress", "importedMemoryPoolProcessId"});
  }
  writer_.addRow(
      memoryUsageRows_,
      {row.start, row.globalPid, row.deviceId, row.contextId, row.address, row.pc, row.bytes, row.memKind,
       row.memoryOperationType, row.name.empty() ? TraceWriter::Cell() : TraceWriter::Cell(std::string_view(row.name)),
       row.correlationId, optionalCell(row.streamId), optionalCell(row.localPoolAddress),
       optionalCell(row.localPoolReleaseThreshold), optionalCell(row.localPoolSize),
       optionalCell(row.localPoolUtilizedSize), optionalCell(row.importedPoolAddress),
       optionalCell(row.importedPoolProcessId)});
}

}  // namespace gpuscope
