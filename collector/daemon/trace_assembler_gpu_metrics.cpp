// TraceAssembler's GPU metric samples (`record --gpu-metrics`) and device memory events
// (`record --cuda-memory-usage`): rows through the pipeline, the metric names and the sampling's outcome
// at the end.
#include <cstring>
#include <string>
#include <vector>

#include "collector/daemon/memory_usage_rows.h"
#include "collector/daemon/process_trace.h"
#include "collector/daemon/trace_assembler.h"
#include "collector/gpu_metrics/metric_rows.h"
#include "core/schema/table_names.h"
#include "core/write/trace_writer.h"

namespace gpuscope {

using transport::RecordView;

bool TraceAssembler::addGpuMetricSample(const RecordView& record) {
  transport::GpuMetricSampleBody body{};
  if (!readBody(record, body)) return false;
  auto sets = gpu_metrics::metricSets();
  if (body.setIndex >= sets.size()) return false;
  size_t bytes = sizeof(double) * body.valueCount;
  if (record.bodyBytes < sizeof body + bytes) return false;
  if (!inWindow(body.start)) return true;
  std::vector<double> values(body.valueCount);
  std::memcpy(values.data(), reinterpret_cast<const char*>(record.body) + sizeof body, bytes);
  std::vector<gpu_metrics::GpuMetricRow> rows;
  gpu_metrics::appendSampleRows(sets[body.setIndex], body.deviceId, traceTime(body.start), values, rows);
  for (const auto& row : rows) rows_->add(row);
  gpuMetricSets_.emplace(body.deviceId, body.setIndex);
  ++counts_.gpuMetricSamples;
  return true;
}

bool TraceAssembler::addMemoryUsage(ProcessTrace& process, const RecordView& record) {
  transport::MemoryUsageBody body{};
  if (!readBody(record, body)) return false;
  process.saw(body.start);
  if (!inWindow(body.start)) return true;
  std::string_view name = textAfter(record, sizeof body, body.nameLength);
  rows_->add(memoryUsageRow(body, traceTime(body.start), process.globalPid, name));
  ++counts_.memoryUsageEvents;
  return true;
}

bool TraceAssembler::addGpuMetricsState(ProcessTrace& process, const RecordView& record) {
  transport::GpuMetricsStateBody body{};
  if (!readBody(record, body)) return false;
  std::string message(textAfter(record, sizeof body, body.messageLength));
  auto state = static_cast<transport::GpuMetricsState>(body.state);
  if (state == transport::GpuMetricsState::Lost) counts_.gpuMetricSamplesLost += body.samplesLost;
  if (state == transport::GpuMetricsState::Refused) gpuMetricsRefusals_.push_back(message);
  if (!message.empty())
    diagnostics_.push_back({process.pid,
                            state == transport::GpuMetricsState::Started ? transport::DiagnosticLevel::Info
                                                                         : transport::DiagnosticLevel::Warning,
                            message});
  return true;
}

void TraceAssembler::finishGpuMetrics() {
  if (!gpuMetricSets_.empty()) {
    int names =
        writer_->tableRows(table::kTargetGpuMetrics, {"typeId", "sourceId", "typeName", "metricId", "metricName"});
    for (const auto& [device, setIndex] : gpuMetricSets_) {
      for (const auto& row : gpu_metrics::metricNameRows(gpu_metrics::metricSets()[setIndex], device))
        writer_->addRow(names, {row.typeId, row.sourceId, std::string_view(""), row.metricId, row.name});
    }
  }
  // What became of the sampling, so a file without metrics says why.
  if (counts_.gpuMetricSamples > 0 || !gpuMetricsRefusals_.empty()) {
    writer_->addMeta("gpu_metrics_samples", std::to_string(counts_.gpuMetricSamples));
    writer_->addMeta("gpu_metrics_samples_lost", std::to_string(counts_.gpuMetricSamplesLost));
  }
  if (!gpuMetricsRefusals_.empty()) {
    std::string text;
    for (const std::string& refusal : gpuMetricsRefusals_) text += (text.empty() ? "" : "; ") + refusal;
    writer_->addMeta("gpu_metrics_refused", text);
  }
  if (counts_.memoryUsageEvents > 0)
    writer_->addMeta("cuda_memory_usage_events", std::to_string(counts_.memoryUsageEvents));
}

}  // namespace gpuscope
