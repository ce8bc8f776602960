#pragma once
// Times for kernels CUPTI leaves untimed. Under `record --metrics roofline` the range profiler replays
// each profiled kernel inside its launch call, and CUPTI's activity record of such a kernel comes with
// no timestamps. The profiler knows the launch's end on the session clock and the kernel's duration
// (gpu__time_duration of the replay), so it notes [launch end - duration, launch end] here, and the
// record converter takes it from here: the kernel keeps its measured length and its place at the end
// of the call that launched it, and the recording says its kernel times come from the profiler.
#include <cstdint>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace gpuscope::cuda {

struct KernelTimes {
  int64_t start;
  int64_t end;
};

class ProfiledLaunchTimes {
 public:
  // Records the times of the kernel launched with CORRELATIONID (from the launching thread).
  void note(uint32_t correlationId, KernelTimes times);
  // The times noted for CORRELATIONID, removed from the table (from the converter's thread).
  std::optional<KernelTimes> take(uint32_t correlationId);

 private:
  std::mutex lock_;
  std::unordered_map<uint32_t, KernelTimes> times_;
};

// The process's table, shared by the range profiler and the activity worker.
ProfiledLaunchTimes& profiledLaunchTimes();

}  // namespace gpuscope::cuda
