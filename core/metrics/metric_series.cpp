#include "core/metrics/metric_series.h"

#include <algorithm>

namespace gpuscope {

MetricSeries::MetricSeries(std::string name, std::vector<TimeNs> time, std::vector<int64_t> value)
    : name_(std::move(name)), time_(std::move(time)), value_(std::move(value)) {
  prefix_.resize(value_.size() + 1, 0);
  for (size_t i = 0; i < value_.size(); ++i) prefix_[i + 1] = prefix_[i] + value_[i];
  size_t blocks = (value_.size() + kBlock - 1) / kBlock;
  blockMin_.resize(blocks);
  blockMax_.resize(blocks);
  for (size_t b = 0; b < blocks; ++b) {
    auto first = value_.begin() + static_cast<ptrdiff_t>(b * kBlock);
    auto last = value_.begin() + static_cast<ptrdiff_t>(std::min(value_.size(), (b + 1) * kBlock));
    auto [low, high] = std::minmax_element(first, last);
    blockMin_[b] = *low;
    blockMax_[b] = *high;
  }
}

std::pair<size_t, size_t> MetricSeries::indexRange(TimeNs start, TimeNs end) const {
  if (end <= start) return {0, 0};
  auto first = std::lower_bound(time_.begin(), time_.end(), start);
  auto last = std::lower_bound(first, time_.end(), end);
  return {static_cast<size_t>(first - time_.begin()), static_cast<size_t>(last - time_.begin())};
}

SeriesStats MetricSeries::statsOf(size_t first, size_t last) const {
  last = std::min(last, value_.size());
  SeriesStats stats;
  if (first >= last) return stats;
  stats.count = last - first;
  stats.sum = prefix_[last] - prefix_[first];
  stats.min = value_[first];
  stats.max = value_[first];
  auto take = [&stats](int64_t low, int64_t high) {
    stats.min = std::min(stats.min, low);
    stats.max = std::max(stats.max, high);
  };
  size_t i = first;
  // Single samples up to a block boundary, whole blocks, then single samples to the end.
  for (; i < last && i % kBlock != 0; ++i) take(value_[i], value_[i]);
  for (; i + kBlock <= last; i += kBlock) take(blockMin_[i / kBlock], blockMax_[i / kBlock]);
  for (; i < last; ++i) take(value_[i], value_[i]);
  return stats;
}

std::vector<SeriesStats> binSeries(const MetricSeries& series, TimeNs t0, TimeNs binWidth, size_t bins) {
  std::vector<SeriesStats> out(bins);
  if (binWidth <= 0 || series.size() == 0) return out;
  std::span<const TimeNs> times = series.times();
  size_t first = static_cast<size_t>(std::lower_bound(times.begin(), times.end(), t0) - times.begin());
  for (size_t bin = 0; bin < bins && first < times.size(); ++bin) {
    TimeNs binEnd = t0 + static_cast<TimeNs>(bin + 1) * binWidth;
    size_t last = static_cast<size_t>(
        std::lower_bound(times.begin() + static_cast<ptrdiff_t>(first), times.end(), binEnd) - times.begin());
    out[bin] = series.statsOf(first, last);
    first = last;
  }
  return out;
}

}  // namespace gpuscope
