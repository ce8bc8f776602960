#pragma once
// NVTX ranges (user annotations) projected onto the GPU, as the PyTorch profiler's gpu_user_annotation
// events: for each range and each stream that ran work launched inside it, one span from that work's
// first start to its last end, on the stream's row.
#include <cstdint>
#include <vector>

#include "core/export/event_category.h"
#include "core/model/trace.h"

namespace gpuscope {

// Layouts refer to a projection by an EventRef on this track, its index in gpuAnnotations()'s result.
inline constexpr uint32_t kGpuAnnotationTrack = 0xFFFFFFFF;
inline bool isGpuAnnotation(EventRef ref) { return ref.track == kGpuAnnotationTrack; }

struct GpuAnnotation {
  EventRef range;  // the NVTX range on the CPU
  uint32_t device = 0;
  uint32_t stream = 0;
  TimeNs start = 0;
  TimeNs end = 0;
};

// Every projection, ordered by device, stream and start. Ranges of cpu_op and python_function categories
// (a PyTorch trace's own ops) are not projected, as Kineto does not.
std::vector<GpuAnnotation> gpuAnnotations(const Trace& trace, const EventCategories& categories);

}  // namespace gpuscope
