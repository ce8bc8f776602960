#include "collector/cuda/profiled_launch_times.h"

namespace gpuscope::cuda {

void ProfiledLaunchTimes::note(uint32_t correlationId, KernelTimes times) {
  std::lock_guard<std::mutex> guard(lock_);
  times_[correlationId] = times;
}

std::optional<KernelTimes> ProfiledLaunchTimes::take(uint32_t correlationId) {
  std::lock_guard<std::mutex> guard(lock_);
  auto found = times_.find(correlationId);
  if (found == times_.end()) return std::nullopt;
  KernelTimes times = found->second;
  times_.erase(found);
  return times;
}

ProfiledLaunchTimes& profiledLaunchTimes() {
  static ProfiledLaunchTimes* table = new ProfiledLaunchTimes();  // never destroyed: used during exit
  return *table;
}

}  // namespace gpuscope::cuda
