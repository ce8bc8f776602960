#include "core/export/event_category.h"

#include <algorithm>

#include "core/import/kineto/kineto_import.h"

namespace gpuscope {
namespace {

std::string_view nvtxCategory(const Track& track, const std::map<int64_t, std::string>& domains) {
  auto it = domains.find(track.nvtxDomain);
  if (track.nvtxDomain != 0 && it != domains.end()) {
    if (it->second == kKinetoCpuOpDomain) return "cpu_op";
    if (it->second == kKinetoPythonDomain) return "python_function";
  }
  return "user_annotation";
}

}  // namespace

EventCategories::EventCategories(const Trace& trace, const ExportFacts& facts)
    : trace_(trace), driverCallRows_(facts.driverCallRows) {
  for (const auto& track : trace.tracks()) {
    switch (track.kind) {
      case TrackKind::Nvtx:
        byTrack_.push_back(nvtxCategory(track, facts.nvtxDomains));
        break;
      case TrackKind::OsRuntime:
        byTrack_.push_back("osrt");
        break;
      case TrackKind::GpuKernels:
        byTrack_.push_back("kernel");
        break;
      case TrackKind::CudaApi:
      case TrackKind::GpuMemory:
        byTrack_.push_back({});
        break;
    }
  }
}

std::string_view EventCategories::of(EventRef ref) const {
  if (!byTrack_[ref.track].empty()) return byTrack_[ref.track];
  const auto& lane = trace_.lane(ref);
  if (trace_.track(ref.track).kind == TrackKind::GpuMemory)
    return lane.style[ref.index] == kMemsetStyle ? "gpu_memset" : "gpu_memcpy";
  if (driverCallRows_) {
    bool driver = std::binary_search(driverCallRows_->begin(), driverCallRows_->end(), lane.row[ref.index]);
    return driver ? "cuda_driver" : "cuda_runtime";
  }
  // Without eventClass: the runtime's entry points are named cuda*, the driver's cu*.
  return trace_.name(ref).rfind("cuda", 0) == 0 ? "cuda_runtime" : "cuda_driver";
}

}  // namespace gpuscope
