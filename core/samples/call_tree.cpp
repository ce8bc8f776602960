#include "core/samples/call_tree.h"

#include <algorithm>
#include <unordered_map>

namespace gpuscope {
namespace {

uint64_t frameKey(uint32_t symbol, uint32_t module) { return (static_cast<uint64_t>(symbol) << 32) | module; }

struct ChildKey {
  int32_t parent;
  uint64_t frame;
  bool operator==(const ChildKey&) const = default;
};

struct ChildKeyHash {
  size_t operator()(const ChildKey& key) const {
    return std::hash<uint64_t>{}(key.frame * 0x9E3779B97F4A7C15ull ^ static_cast<uint64_t>(key.parent));
  }
};

class TreeBuilder {
 public:
  TreeBuilder() { tree_.nodes.push_back({}); }

  int32_t child(int32_t parent, const SampleFrame& frame) {
    auto [it, added] =
        children_.try_emplace({parent, frameKey(frame.symbol, frame.module)}, static_cast<int32_t>(tree_.nodes.size()));
    if (added) {
      CallTreeNode node;
      node.symbol = frame.symbol;
      node.module = frame.module;
      node.parent = parent;
      tree_.nodes.push_back(node);
      tree_.nodes[static_cast<size_t>(parent)].children.push_back(it->second);
    }
    return it->second;
  }

  CallTreeNode& node(int32_t index) { return tree_.nodes[static_cast<size_t>(index)]; }

  CallTree finish() {
    for (CallTreeNode& node : tree_.nodes) {
      std::sort(node.children.begin(), node.children.end(), [this](int32_t a, int32_t b) {
        return tree_.nodes[static_cast<size_t>(a)].total > tree_.nodes[static_cast<size_t>(b)].total;
      });
    }
    return std::move(tree_);
  }

 private:
  CallTree tree_;
  std::unordered_map<ChildKey, int32_t, ChildKeyHash> children_;
};

}  // namespace

std::vector<FlatEntry> flatView(const CpuSamples& samples) {
  std::vector<FlatEntry> entries;
  std::unordered_map<uint64_t, size_t> index;
  std::vector<size_t> lastSample;  // per entry, the last sample counted in its total (recursion counts once)
  for (size_t s = 0; s < samples.size(); ++s) {
    auto stack = samples.stackOf(s);
    for (size_t depth = 0; depth < stack.size(); ++depth) {
      const SampleFrame& frame = stack[depth];
      auto [it, added] = index.try_emplace(frameKey(frame.symbol, frame.module), entries.size());
      if (added) {
        entries.push_back({frame.symbol, frame.module, 0, 0});
        lastSample.push_back(SIZE_MAX);
      }
      FlatEntry& entry = entries[it->second];
      if (depth == 0) ++entry.self;
      if (lastSample[it->second] != s) ++entry.total;
      lastSample[it->second] = s;
    }
  }
  std::sort(entries.begin(), entries.end(), [&samples](const FlatEntry& a, const FlatEntry& b) {
    if (a.self != b.self) return a.self > b.self;
    if (a.total != b.total) return a.total > b.total;
    return samples.name(a.symbol) < samples.name(b.symbol);
  });
  return entries;
}

CallTree callTree(const CpuSamples& samples, TreeDirection direction) {
  TreeBuilder builder;
  for (size_t s = 0; s < samples.size(); ++s) {
    auto stack = samples.stackOf(s);
    int32_t at = 0;
    ++builder.node(at).total;
    // The node of the function the sample was taken in: the end of a top-down path, the start of a
    // bottom-up one (as perf report and Speedscope show an inverted tree: its first level is the self time).
    int32_t leaf = 0;
    for (size_t step = 0; step < stack.size(); ++step) {
      // Stacks are leaf first: top-down walks them from the end.
      size_t depth = direction == TreeDirection::BottomUp ? step : stack.size() - 1 - step;
      at = builder.child(at, stack[depth]);
      ++builder.node(at).total;
      if (depth == 0) leaf = at;
    }
    ++builder.node(leaf).self;
  }
  return builder.finish();
}

}  // namespace gpuscope
