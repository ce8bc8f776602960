// The flat view and the two call trees on hand-made stacks: recursion counted once, paths kept apart,
// samples without a stack counted in the root only.
#include "core/samples/call_tree.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

namespace gpuscope {
namespace {

// Samples whose stacks are lists of names, leaf first; every frame in module "m".
CpuSamples samplesOf(std::initializer_list<std::initializer_list<const char*>> stacks) {
  CpuSamples samples;
  samples.names = {"m"};
  auto id = [&samples](const char* name) {
    for (uint32_t i = 0; i < samples.names.size(); ++i)
      if (samples.names[i] == name) return i;
    samples.names.emplace_back(name);
    return static_cast<uint32_t>(samples.names.size() - 1);
  };
  for (auto stack : stacks) {
    samples.firstFrame.push_back(static_cast<uint32_t>(samples.frames.size()));
    samples.start.push_back(static_cast<TimeNs>(samples.start.size()));
    samples.globalTid.push_back(1);
    samples.threadState.push_back(1);
    for (const char* name : stack) samples.frames.push_back({id(name), 0, 0});
  }
  samples.firstFrame.push_back(static_cast<uint32_t>(samples.frames.size()));
  return samples;
}

const FlatEntry& entryNamed(const CpuSamples& samples, const std::vector<FlatEntry>& entries, const std::string& name) {
  for (const FlatEntry& entry : entries)
    if (samples.name(entry.symbol) == name) return entry;
  throw std::runtime_error("no entry " + name);
}

const CallTreeNode& childNamed(const CpuSamples& samples, const CallTree& tree, const CallTreeNode& parent,
                               const std::string& name) {
  for (int32_t child : parent.children)
    if (samples.name(tree.nodes[static_cast<size_t>(child)].symbol) == name)
      return tree.nodes[static_cast<size_t>(child)];
  throw std::runtime_error("no child " + name);
}

TEST(FlatView, RecursionCountsOnceInTotal) {
  CpuSamples samples = samplesOf({{"f", "f", "f", "main"}, {"g", "f", "main"}, {"main"}});
  auto entries = flatView(samples);
  EXPECT_EQ(entryNamed(samples, entries, "f").self, 1);
  EXPECT_EQ(entryNamed(samples, entries, "f").total, 2);
  EXPECT_EQ(entryNamed(samples, entries, "main").total, 3);
  EXPECT_EQ(entryNamed(samples, entries, "main").self, 1);
  EXPECT_EQ(samples.name(entries.front().symbol), "main");  // all have one self sample: most total first
  EXPECT_EQ(samples.name(entries.back().symbol), "g");
}

TEST(CallTree, TopDownFollowsCallersFirst) {
  CpuSamples samples = samplesOf({{"a", "run", "main"}, {"b", "run", "main"}, {"b", "run", "main"}, {"main"}, {}});
  CallTree tree = callTree(samples, TreeDirection::TopDown);
  EXPECT_EQ(tree.root().total, 5);
  EXPECT_EQ(tree.root().self, 1);  // the sample with no stack
  const CallTreeNode& main = childNamed(samples, tree, tree.root(), "main");
  EXPECT_EQ(main.total, 4);
  EXPECT_EQ(main.self, 1);
  const CallTreeNode& run = childNamed(samples, tree, main, "run");
  EXPECT_EQ(run.total, 3);
  ASSERT_EQ(run.children.size(), 2u);
  EXPECT_EQ(samples.name(tree.nodes[static_cast<size_t>(run.children[0])].symbol), "b");  // most total first
  EXPECT_EQ(childNamed(samples, tree, run, "b").self, 2);
}

TEST(CallTree, BottomUpStartsAtTheLeaves) {
  CpuSamples samples = samplesOf({{"leaf", "x", "main"}, {"leaf", "y", "main"}, {"x", "main"}});
  CallTree tree = callTree(samples, TreeDirection::BottomUp);
  const CallTreeNode& leaf = childNamed(samples, tree, tree.root(), "leaf");
  EXPECT_EQ(leaf.total, 2);
  EXPECT_EQ(childNamed(samples, tree, leaf, "x").total, 1);
  EXPECT_EQ(childNamed(samples, tree, leaf, "y").total, 1);
  EXPECT_EQ(leaf.self, 2) << "a bottom-up tree's first level holds the self samples";
  EXPECT_EQ(childNamed(samples, tree, leaf, "x").self, 0);
  const CallTreeNode& x = childNamed(samples, tree, tree.root(), "x");
  EXPECT_EQ(x.total, 1);
  EXPECT_EQ(x.self, 1);
  EXPECT_EQ(childNamed(samples, tree, x, "main").self, 0);
}

}  // namespace
}  // namespace gpuscope
