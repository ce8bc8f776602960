#pragma once
// MetricSeries: one GPU counter over a run, its samples sorted by time, with what answers "count, sum, min and
// max of the samples in [a, b)" without walking them all: prefix sums for the mean (exact, in integers) and
// per-block minima and maxima, so a timeline row at 10M samples bins a frame in time proportional to its pixels.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/model/trace_types.h"

namespace gpuscope {

// The samples of one stretch: empty when count is 0.
struct SeriesStats {
  size_t count = 0;
  int64_t sum = 0;
  int64_t min = 0;
  int64_t max = 0;
  double mean() const { return count == 0 ? 0.0 : static_cast<double>(sum) / static_cast<double>(count); }
};

class MetricSeries {
 public:
  MetricSeries() = default;
  // TIME sorted ascending and VALUE of the same size (the reader sorts them).
  MetricSeries(std::string name, std::vector<TimeNs> time, std::vector<int64_t> value);

  // nsys's metric name (core/metrics/gpu_metric_names.h).
  const std::string& name() const { return name_; }
  size_t size() const { return time_.size(); }
  std::span<const TimeNs> times() const { return time_; }
  std::span<const int64_t> values() const { return value_; }

  // The samples whose timestamps lie in [start, end), as indexes [first, last).
  std::pair<size_t, size_t> indexRange(TimeNs start, TimeNs end) const;
  // The samples [first, last).
  SeriesStats statsOf(size_t first, size_t last) const;
  SeriesStats statsWithin(TimeNs start, TimeNs end) const {
    auto [first, last] = indexRange(start, end);
    return statsOf(first, last);
  }

 private:
  static constexpr size_t kBlock = 64;
  std::string name_;
  std::vector<TimeNs> time_;
  std::vector<int64_t> value_;
  std::vector<int64_t> prefix_;  // size() + 1 running sums
  std::vector<int64_t> blockMin_;
  std::vector<int64_t> blockMax_;
};

// BINS stretches of BIN_WIDTH from T0, each [T0 + i*w, T0 + (i+1)*w): the samples' statistics in each, as a
// counter row draws them (min to max as a band, the mean as its line).
std::vector<SeriesStats> binSeries(const MetricSeries& series, TimeNs t0, TimeNs binWidth, size_t bins);

}  // namespace gpuscope
