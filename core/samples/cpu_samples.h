#pragma once
// CpuSamples: sampled call stacks of the host's threads, in columns (one entry per sample, frames in one
// flat array), as nsys exports them in table::kCompositeEvents and table::kSamplingCallchains. A stack is leaf first:
// frame 0 is where the thread was when the sample was taken, the last frame its outermost caller.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/trace_types.h"

namespace gpuscope {

// A frame's names index CpuSamples::names, which holds each text once: two frames of one function in one
// module have equal ids, whichever StringIds rows the file used.
struct SampleFrame {
  static constexpr uint8_t kUnresolved = 1;  // nsys could not name the address (raw 0x…, [Unknown])
  static constexpr uint8_t kKernelMode = 2;  // a kernel frame
  static constexpr uint8_t kSpecial = 4;     // an entry the unwinder added, such as [Broken backtraces]

  uint32_t symbol = 0;
  uint32_t module = 0;
  uint8_t flags = 0;
};

struct CpuSamples {
  std::vector<TimeNs> start;
  std::vector<int64_t> globalTid;
  std::vector<uint8_t> threadState;  // ENUM_SAMPLING_THREAD_STATE
  std::vector<uint32_t> firstFrame;  // size() + 1 offsets into frames
  std::vector<SampleFrame> frames;
  std::vector<std::string> names;  // symbol and module texts, each once

  size_t size() const { return start.size(); }
  std::span<const SampleFrame> stackOf(size_t sample) const {
    return {frames.data() + firstFrame[sample], frames.data() + firstFrame[sample + 1]};
  }
  std::string_view name(uint32_t id) const { return names[id]; }
};

}  // namespace gpuscope
