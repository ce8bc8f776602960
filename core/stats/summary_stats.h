#pragma once
// The statistics of nsys summary reports over integer samples (durations in ns, sizes in bytes).
#include <cstdint>
#include <span>
#include <vector>

#include "core/model/time_math.h"  // saturatingAdd, saturatingSub: the reports' time arithmetic

namespace gpuscope {

struct SampleSummary {
  int64_t count = 0;
  int64_t total = 0;  // saturates at the int64 limits rather than overflowing
  int64_t min = 0;
  int64_t max = 0;
  double mean = 0;    // total / count, as SQLite's avg()
  double median = 0;  // the middle value, or the mean of the two middle values for an even count
  double stddev = 0;  // sample standard deviation (n - 1); 0 for fewer than two samples
};

// Summarizes SAMPLES in any order; all fields stay 0 for no samples.
SampleSummary summarize(std::vector<int64_t> samples);

double medianOfSorted(std::span<const int64_t> sorted);
double sampleStdDev(std::span<const int64_t> samples);

// SQLite's round(VALUE, DECIMALS), which the nsys report queries apply to averages and percentages:
// half away from zero on the exact value of the double (2.25 -> 2.3, 0.15 = 0.1499999... -> 0.1).
double sqlRound(double value, int decimals);

// round(PART * 100.0 / WHOLE, 1) as nsys computes a "Time (%)"; 0 when WHOLE is 0.
double percentOf(int64_t part, int64_t whole);

}  // namespace gpuscope
