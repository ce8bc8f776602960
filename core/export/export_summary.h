#pragma once
// ExportSummary: what an exporter wrote, for the CLI's one-line report and for tests.
#include <cstddef>
#include <cstdint>

namespace gpuscope {

struct ExportSummary {
  size_t slices = 0;          // complete events (Chrome) or begin/end pairs (Perfetto)
  size_t kernels = 0;         // of those, kernels
  size_t flows = 0;           // API call -> GPU work arrows
  size_t gpuAnnotations = 0;  // of the slices, NVTX ranges projected onto GPU streams
  size_t overlapRows = 0;     // extra rows made for ranges that overlap without nesting
  uint64_t bytesWritten = 0;  // before compression
};

}  // namespace gpuscope
