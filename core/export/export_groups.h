#pragma once
// What an exporter writes as one thread: a CPU thread's CUDA API, NVTX and OS runtime tracks together
// (as the PyTorch profiler puts cpu_op and cuda_runtime events on one thread), or one GPU stream's
// kernels and memory operations (pid = device, tid = stream, as Kineto writes them).
#include <cstdint>
#include <string>
#include <vector>

#include "core/export/gpu_annotations.h"
#include "core/export/slice_layout.h"
#include "core/model/trace.h"

namespace gpuscope {

struct ExportGroup {
  bool gpu = false;
  uint32_t pid = 0;  // CPU: the process id; GPU: the device id
  uint32_t tid = 0;  // CPU: the thread id; GPU: the stream id
  std::string name;  // "thread 521 (python3)" or "stream 7"
  std::vector<uint32_t> tracks;
};

// CPU threads in the trace's process order, then GPU streams by device and stream id.
std::vector<ExportGroup> exportGroups(const Trace& trace);

// Every event of GROUP's tracks, and for a GPU stream the ANNOTATIONS on it, laid out in properly nested layers.
std::vector<std::vector<LayoutSlice>> groupLayers(const Trace& trace, const ExportGroup& group,
                                                  const std::vector<GpuAnnotation>& annotations);

}  // namespace gpuscope
