#include "core/diff/aligned_window.h"

#include <gtest/gtest.h>

#include "core/details/kernel_list.h"
#include "core/model/trace_loader.h"

namespace gpuscope {
namespace {

using Kind = AlignmentAnchor::Kind;

struct Pair {
  std::shared_ptr<const Trace> a = loadTrace(std::string(GPUSCOPE_FIXTURES) + "/gpuscope/loader0.sqlite");
  std::shared_ptr<const Trace> b = loadTrace(std::string(GPUSCOPE_FIXTURES) + "/nsys/loader2.sqlite");
};
const Pair& pair() {
  static const Pair loaded;
  return loaded;
}

TEST(AlignedWindow, DefaultsToTheLastEpochBothRunsHave) {
  auto [anchorA, anchorB] = defaultAnchors(*pair().a, *pair().b);
  EXPECT_EQ(anchorA.kind, Kind::NvtxRange);
  EXPECT_EQ(anchorA.name, "epoch 1");
  EXPECT_EQ(anchorA.index, 0u);
  EXPECT_EQ(anchorB.name, "epoch 1");
  EXPECT_EQ(anchorB.index, 0u);
  auto window = alignedWindow(*pair().a, anchorA, *pair().b, anchorB);
  ASSERT_TRUE(window.has_value());
  EXPECT_EQ(window->label, "NVTX 'epoch 1'");
  // nsys stats: epoch 1 of loader2 lasts 322162438 ns; gpuscope's loader0 524043146 ns.
  EXPECT_EQ(window->a.length(), 524'043'146);
  EXPECT_EQ(window->b.length(), 322'162'438);
  EXPECT_EQ(window->a.start, 8'127'771'826);
  EXPECT_EQ(window->b.start, 13'746'935'817);
  EXPECT_EQ(window->viewOfA(), (TimeInterval{window->a.start, window->a.start + 524'043'146}));
  // The alignment the window goes with pins the two epochs' starts together.
  auto alignment = alignRuns(*pair().a, anchorA, *pair().b, anchorB);
  ASSERT_TRUE(alignment.has_value());
  EXPECT_EQ(alignment->bToA(window->b.start), window->a.start);
}

TEST(AlignedWindow, DefaultsSkipRangesWithoutKernels) {
  // transpose's last range, "download", only copies memory back: the default is the last range a kernel
  // starts in.
  std::shared_ptr<const Trace> t = loadTrace(std::string(GPUSCOPE_FIXTURES) + "/nsys/transpose.sqlite");
  auto [anchorA, anchorB] = defaultAnchors(*t, *t);
  EXPECT_EQ(anchorA.kind, Kind::NvtxRange);
  EXPECT_NE(anchorA.name, "download");
  EXPECT_EQ(anchorA.index, anchorB.index);
  auto window = alignedWindow(*t, anchorA, *t, anchorB);
  ASSERT_TRUE(window.has_value());
  size_t inside = 0;
  for (const EventRef& ref : kernelInstances(*t)) inside += window->a.contains(t->start(ref)) ? 1 : 0;
  EXPECT_GT(inside, 0u);
}

TEST(AlignedWindow, AKernelAnchorSpansOneIteration) {
  const Trace& a = *pair().a;
  std::vector<EventRef> kernels = kernelInstances(a);
  ASSERT_GT(kernels.size(), 2u);
  const std::string name = a.name(kernels.front());
  std::vector<EventRef> same = namedInstances(a, Kind::Kernel, name);
  ASSERT_GT(same.size(), 1u);
  AlignmentAnchor first{Kind::Kernel, name, 0};
  auto window = alignedWindow(a, first, a, first);
  ASSERT_TRUE(window.has_value());
  EXPECT_EQ(window->a, (TimeInterval{a.start(same[0]), a.start(same[1])}));
  EXPECT_EQ(window->label, "kernel '" + name + "' #1 to the next");
  // The last instance runs to the end of the run's GPU work.
  AlignmentAnchor last{Kind::Kernel, name, same.size() - 1};
  window = alignedWindow(a, last, a, first);
  ASSERT_TRUE(window.has_value());
  EXPECT_EQ(window->a.start, a.start(same.back()));
  EXPECT_GE(window->a.end, a.end(same.back()));
  EXPECT_LE(window->a.end, a.endTime());
  EXPECT_NE(window->label.find("A #" + std::to_string(same.size()) + ", B #1"), std::string::npos) << window->label;
}

TEST(AlignedWindow, StartsMeanTheWholeRunsAndMissingAnchorsNone) {
  auto window = alignedWindow(*pair().a, {}, *pair().b, {});
  ASSERT_TRUE(window.has_value());
  EXPECT_EQ(window->label, "whole runs");
  EXPECT_EQ(window->a, (TimeInterval{pair().a->startTime(), pair().a->endTime()}));
  EXPECT_EQ(window->b, (TimeInterval{pair().b->startTime(), pair().b->endTime()}));
  AlignmentAnchor missing{Kind::NvtxRange, "epoch 9", 0};
  EXPECT_FALSE(alignedWindow(*pair().a, missing, *pair().b, missing).has_value());
  AlignmentAnchor second{Kind::NvtxRange, "epoch 1", 1};
  EXPECT_FALSE(alignedWindow(*pair().a, second, *pair().b, second).has_value());
}

TEST(AlignedWindow, RunTotalsOfTheWholeSpanAreTheRunTotals) {
  const Trace& a = *pair().a;
  RunTotals whole = runTotals(a);
  RunTotals windowed = runTotals(a, TimeInterval{a.startTime(), a.endTime()});
  EXPECT_EQ(windowed.span, whole.span);
  EXPECT_EQ(windowed.gpuBusy, whole.gpuBusy);
  EXPECT_EQ(windowed.kernelTime, whole.kernelTime);
  EXPECT_EQ(windowed.kernelCount, whole.kernelCount);
  EXPECT_EQ(windowed.memcpyBytes, whole.memcpyBytes);
  EXPECT_EQ(windowed.cudaApiCount, whole.cudaApiCount);
  // A window cut through the middle of the run holds less, and clips what crosses its edges.
  TimeInterval half{a.startTime() + whole.span / 2, a.endTime()};
  RunTotals second = runTotals(a, half);
  EXPECT_EQ(second.span, half.length());
  EXPECT_LE(second.kernelTime, whole.kernelTime);
  EXPECT_LE(second.gpuBusy, second.span);
  EXPECT_LE(second.kernelCount, whole.kernelCount);
  size_t sides = 0;
  for (const NamedSide& side : kernelSides(a, half)) sides += static_cast<size_t>(side.side.count);
  EXPECT_EQ(static_cast<int64_t>(sides), second.kernelCount);
}

}  // namespace
}  // namespace gpuscope
