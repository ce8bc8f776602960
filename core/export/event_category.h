#pragma once
// The Chrome-trace category of an event, as the PyTorch profiler (Kineto) names them: kernel, gpu_memcpy,
// gpu_memset, cuda_runtime, cuda_driver, user_annotation (NVTX), cpu_op and python_function (what the
// Kineto importer turned into NVTX domains), and osrt for OS runtime calls, which Kineto does not record.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/export/export_facts.h"
#include "core/model/trace.h"

namespace gpuscope {

class EventCategories {
 public:
  EventCategories(const Trace& trace, const ExportFacts& facts);
  std::string_view of(EventRef ref) const;

 private:
  const Trace& trace_;
  const std::optional<std::vector<uint32_t>>& driverCallRows_;
  std::vector<std::string_view> byTrack_;  // empty for CUDA API and GPU memory tracks (decided per event)
};

}  // namespace gpuscope
