#pragma once
// Timing for gpuscope-peaks: CUDA errors as exceptions, and the best of several launches timed with events.
#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gpuscope::peaks {

// Turns a CUDA error into an exception whose text main() prints as the helper's one-sentence error.
inline void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw std::runtime_error(std::string(what) + " failed: " + cudaGetErrorString(status));
}

// RAII pair of events around one launch.
class EventTimer {
 public:
  EventTimer() {
    check(cudaEventCreate(&start_), "cudaEventCreate");
    check(cudaEventCreate(&stop_), "cudaEventCreate");
  }
  ~EventTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  // Seconds the work LAUNCH enqueues on the default stream takes on the GPU.
  template <typename Launch>
  double seconds(Launch&& launch) {
    check(cudaEventRecord(start_), "cudaEventRecord");
    launch();
    check(cudaGetLastError(), "a kernel launch");
    check(cudaEventRecord(stop_), "cudaEventRecord");
    check(cudaEventSynchronize(stop_), "a measurement kernel");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    return ms * 1e-3;
  }

 private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

inline constexpr int kRepeats = 7;               // timed launches per roof; the best one counts
inline constexpr double kTargetSeconds = 0.025;  // long enough that launch overhead and timer resolution vanish

// The shortest of kRepeats runs of LAUNCH, after one untimed warm-up (clocks ramp up, caches fill, code loads).
template <typename Launch>
double bestSeconds(Launch&& launch) {
  EventTimer timer;
  timer.seconds(launch);
  double best = timer.seconds(launch);
  for (int i = 1; i < kRepeats; ++i) best = std::min(best, timer.seconds(launch));
  return best;
}

// A work count for RUN (which launches with a given count) that takes about kTargetSeconds: the count is
// grown from START until one run is long enough to scale from, then scaled. Kernels scale linearly in it.
template <typename Run>
long long calibratedCount(Run&& run, long long start, long long limit) {
  EventTimer timer;
  long long count = start;
  double seconds = timer.seconds([&] { run(count); });
  while (seconds < kTargetSeconds / 8 && count * 8 <= limit) {
    count *= 8;
    seconds = timer.seconds([&] { run(count); });
  }
  double scaled = static_cast<double>(count) * kTargetSeconds / std::max(seconds, 1e-6);
  return std::clamp(static_cast<long long>(scaled), start, limit);
}

}  // namespace gpuscope::peaks
