#pragma once
// KernelIndex: every kernel instance of a trace under one 4-byte number, with the kernels in time order and
// the distinct names they go by. The kernel table keeps these numbers, not an event reference per row; built
// once per trace, off the GUI thread for large traces.
#include <cstdint>
#include <optional>
#include <vector>

#include "core/model/trace.h"

namespace gpuscope {

class KernelIndex {
 public:
  // Numbers TRACE's kernels lane by lane (0 .. size()-1) and merges the lanes into time order.
  explicit KernelIndex(const Trace& trace);

  uint32_t size() const { return size_; }
  EventRef event(uint32_t kernel) const;
  // The number of a kernel event; nothing for any other event.
  std::optional<uint32_t> find(EventRef event) const;
  // Every kernel by start, then track, lane and index (the order kernelInstances gives).
  const std::vector<uint32_t>& byStart() const { return byStart_; }
  // The distinct short and demangled names of the kernels, each once, ascending.
  const std::vector<StringId>& names() const { return names_; }

 private:
  struct Block {
    uint32_t track;
    uint32_t lane;
    uint32_t first;  // the number of the lane's first kernel
  };
  void mergeByStart(const Trace& trace);
  void collectNames(const Trace& trace);

  std::vector<Block> blocks_;  // one per kernel lane, in track then lane order
  uint32_t size_ = 0;
  std::vector<uint32_t> byStart_;
  std::vector<StringId> names_;
};

}  // namespace gpuscope
