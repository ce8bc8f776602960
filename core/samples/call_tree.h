#pragma once
// The three ways profilers show sampled stacks: a flat list of functions (self and total samples), a
// top-down tree (outermost callers first, as a flame graph stacks them) and a bottom-up tree (where the
// time was spent first, then who called it). Counts are samples; a sample counts once towards a function's
// total even where the function recurses.
#include <cstdint>
#include <vector>

#include "core/samples/cpu_samples.h"

namespace gpuscope {

struct FlatEntry {
  uint32_t symbol = 0;
  uint32_t module = 0;
  int64_t self = 0;   // samples with this function as the leaf
  int64_t total = 0;  // samples with this function anywhere in the stack
};

// Most self samples first, then most total, then by name.
std::vector<FlatEntry> flatView(const CpuSamples& samples);

enum class TreeDirection { TopDown, BottomUp };

struct CallTreeNode {
  uint32_t symbol = 0;
  uint32_t module = 0;
  int64_t self = 0;   // samples taken in this node's function: a top-down path's end, a bottom-up path's start
  int64_t total = 0;  // samples whose path passes here
  int32_t parent = -1;
  std::vector<int32_t> children;  // most total first
};

// nodes[0] is the root: every sample, with the samples that have no stack as its self.
struct CallTree {
  std::vector<CallTreeNode> nodes;
  const CallTreeNode& root() const { return nodes.front(); }
};

CallTree callTree(const CpuSamples& samples, TreeDirection direction);

}  // namespace gpuscope
