#include "core/metrics/gpu_metrics.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <utility>

#include "core/db/row_scan.h"
#include "core/db/sqlite_database.h"
#include "core/metrics/gpu_metric_names.h"
#include "core/model/global_id.h"
#include "core/model/trace.h"
#include "core/schema/table_names.h"

namespace gpuscope {
namespace {

using MetricKey = std::pair<int64_t, int64_t>;  // typeId, metricId

struct RawSeries {
  std::vector<TimeNs> time;
  std::vector<int64_t> value;
};

std::map<MetricKey, std::string> metricNames(const Database& db) {
  std::map<MetricKey, std::string> names;
  if (!db.hasTable(table::kTargetGpuMetrics)) return names;
  forEachRow(db, "typeId, metricId, metricName", table::kTargetGpuMetrics, [&](const RowValues& row) {
    auto type = row.readInteger(0);
    auto metric = row.readInteger(1);
    if (!type.integer || !metric.integer || row.isNull(2)) return;
    names[{type.value, metric.value}] = std::string(row.text(2));
  });
  return names;
}

void refuse(GpuMetrics& out, std::string_view why) {
  if (out.refusedRows++ == 0) out.refusedWhy = std::string(why);
}

// Where NAME stands in the timeline's order: the listed names first, the others after in the file's order.
size_t orderOf(std::string_view name) {
  const auto& order = gpu_metric::kTimelineOrder;
  auto found = std::find(std::begin(order), std::end(order), name);
  return static_cast<size_t>(found - std::begin(order));
}

TimeNs medianSpacing(std::span<const TimeNs> times) {
  if (times.size() < 2) return 0;
  std::vector<TimeNs> gaps(times.size() - 1);
  for (size_t i = 1; i < times.size(); ++i) gaps[i - 1] = times[i] - times[i - 1];
  std::nth_element(gaps.begin(), gaps.begin() + static_cast<ptrdiff_t>(gaps.size() / 2), gaps.end());
  return gaps[gaps.size() / 2];
}

MetricSeries sortedSeries(std::string name, RawSeries raw) {
  if (!std::is_sorted(raw.time.begin(), raw.time.end())) {
    std::vector<size_t> order(raw.time.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return raw.time[a] < raw.time[b]; });
    RawSeries sorted;
    sorted.time.reserve(order.size());
    sorted.value.reserve(order.size());
    for (size_t i : order) {
      sorted.time.push_back(raw.time[i]);
      sorted.value.push_back(raw.value[i]);
    }
    raw = std::move(sorted);
  }
  return MetricSeries(std::move(name), std::move(raw.time), std::move(raw.value));
}

}  // namespace

const MetricSeries* GpuMetricDevice::find(std::string_view name) const {
  for (const MetricSeries& series : metrics)
    if (series.name() == name) return &series;
  return nullptr;
}

size_t GpuMetrics::sampleCount() const {
  size_t count = 0;
  for (const GpuMetricDevice& device : devices)
    for (const MetricSeries& series : device.metrics) count += series.size();
  return count;
}

const GpuMetricDevice* GpuMetrics::device(int deviceId, uint32_t hw) const {
  for (const GpuMetricDevice& device : devices)
    if (device.deviceId == deviceId && global_id::hw(device.typeId) == hw) return &device;
  return nullptr;
}

GpuMetrics readGpuMetrics(const Database& db) {
  GpuMetrics out;
  if (!db.hasTable(table::kGpuMetrics)) return out;
  std::map<MetricKey, std::string> names = metricNames(db);
  std::map<MetricKey, RawSeries> raw;
  forEachRow(db, "typeId, metricId, timestamp, value", table::kGpuMetrics, [&](const RowValues& row) {
    auto type = row.readInteger(0);
    auto metric = row.readInteger(1);
    auto time = row.readInteger(2);
    auto value = row.readInteger(3);
    if (!type.integer || !metric.integer || !time.integer || !value.integer) {
      refuse(out, "a typeId, metricId, timestamp or value that is not an integer");
      return;
    }
    MetricKey key{type.value, metric.value};
    if (!names.contains(key)) {
      refuse(out, "a metric that TARGET_INFO_GPU_METRICS does not name");
      return;
    }
    RawSeries& series = raw[key];
    series.time.push_back(time.value);
    series.value.push_back(value.value);
  });
  std::map<int64_t, GpuMetricDevice> byType;
  for (auto& [key, series] : raw) {
    GpuMetricDevice& device = byType[key.first];
    device.typeId = key.first;
    device.deviceId = gpu_metric::deviceOfType(key.first);
    device.metrics.push_back(sortedSeries(names[key], std::move(series)));
  }
  for (auto& [type, device] : byType) {
    std::stable_sort(device.metrics.begin(), device.metrics.end(), [](const MetricSeries& a, const MetricSeries& b) {
      return orderOf(a.name()) < orderOf(b.name());
    });
    device.period = medianSpacing(device.metrics.front().times());
    out.devices.push_back(std::move(device));
  }
  return out;
}

const GpuMetrics& gpuMetrics(const Trace& trace) {
  return trace.memo<GpuMetrics>([&trace] {
    GpuMetrics metrics;
    if (!trace.hasDatabase()) return metrics;
    try {
      metrics = readGpuMetrics(trace.database());
    } catch (const std::exception& error) {
      metrics = GpuMetrics{};
      metrics.unreadable = error.what();
    }
    return metrics;
  });
}

SeriesStats samplesInside(const GpuMetricDevice& device, const MetricSeries& series, TimeInterval interval) {
  if (interval.end < interval.start) return {};
  // Timestamps in [start, end - period]: the half-open range ends one ns after that.
  return series.statsWithin(interval.start, interval.end - device.period + 1);
}

}  // namespace gpuscope
