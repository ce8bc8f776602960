// hitTestTimeline on the hand-made trace, without a widget: what a point hits on every kind of row, in
// the gaps between bars, over the labels and the ruler, at the edges of rows and of their lanes.
#include "ui/timeline/timeline_hit_test.h"

#include <gtest/gtest.h>

#include "tests/ui/timeline/timeline_test_trace.h"

namespace gpuscope::ui {
namespace {

using timeline_test::HandMade;

using timeline_test::kLeft;
using timeline_test::kRuler;

class TimelineHitTestTest : public ::testing::Test {
 protected:
  void SetUp() override {
    trace_ = timeline_test::loadHandMadeTrace();
    kinds_.onTraceChanged(trace_.get());
    layout_.build(*trace_, kinds_);
    apiTrack_ = track(TrackKind::CudaApi, "cudaLaunchKernel_v7000");
    nvtxTrack_ = track(TrackKind::Nvtx, "step");
    kernelTrack_ = track(TrackKind::GpuKernels, "kernelA");
    tinyTrack_ = track(TrackKind::GpuKernels, "tiny");
  }
  uint32_t track(TrackKind kind, const char* firstEvent) const {
    int index = timeline_test::findTrack(*trace_, kind, firstEvent);
    EXPECT_GE(index, 0) << firstEvent;
    return static_cast<uint32_t>(index);
  }
  int rowOf(uint32_t track) const { return layout_.rowOfTrack(track); }
  int rowOf(RowKind kind) const {
    for (size_t row = 0; row < layout_.rows().size(); ++row)
      if (layout_.rows()[row].kind == kind) return static_cast<int>(row);
    ADD_FAILURE() << "no row of kind " << static_cast<int>(kind);
    return -1;
  }
  // The canvas point at time T, Y_IN_ROW pixels below the top of ROW, unscrolled.
  QPoint at(int row, int yInRow, TimeNs t) const {
    return QPoint(kLeft + static_cast<int>(t / 10), kRuler + layout_.placementOf(row).top + yInRow);
  }
  TimelineHit hit(QPoint pos, int scrollY = 0) const {
    TimelineGeometry g{QRect(kLeft, kRuler, 1000, 600), viewStart_, viewEnd_};
    return hitTestTimeline(trace_.get(), layout_, kinds_, g, pos, scrollY, kRuler);
  }
  static void expectRowOnly(const TimelineHit& h, int row) {
    EXPECT_EQ(h.row, row);
    EXPECT_EQ(h.track, TimelineRow::kNoTrack);
    EXPECT_FALSE(h.item.has_value());
  }
  static void expectEvent(const TimelineHit& h, int row, uint32_t track, uint32_t lane, TimeNs start, TimeNs end) {
    EXPECT_EQ(h.row, row);
    EXPECT_EQ(h.track, track);
    EXPECT_EQ(h.lane, lane);
    ASSERT_TRUE(h.item.has_value());
    EXPECT_EQ(h.item->start, start);
    EXPECT_EQ(h.item->end, end);
    EXPECT_EQ(h.item->count, 1u);
  }

  std::shared_ptr<const Trace> trace_;
  TimelineRowKinds kinds_;
  TimelineLayout layout_;
  TimeNs viewStart_ = 0;
  TimeNs viewEnd_ = 10000;
  uint32_t apiTrack_ = 0, nvtxTrack_ = 0, kernelTrack_ = 0, tinyTrack_ = 0;
};

TEST_F(TimelineHitTestTest, AClickOnAKernelHitsItsBar) {
  int row = rowOf(kernelTrack_);
  expectEvent(hit(at(row, 12, 3000)), row, kernelTrack_, 0, HandMade::kKernelAStart, HandMade::kKernelAEnd);
  expectEvent(hit(at(row, 12, 7000)), row, kernelTrack_, 0, HandMade::kKernelBStart, HandMade::kKernelBEnd);
  EXPECT_EQ(hit(at(row, 12, 7000)).item->first, 1u);
}

TEST_F(TimelineHitTestTest, ABarWithinTwoPixelsIsHitFromEitherSide) {
  // kernelA covers the pixel columns [490, 840); a point is measured from its pixel's centre.
  int row = rowOf(kernelTrack_);
  int y = at(row, 12, 0).y();
  EXPECT_TRUE(hit(QPoint(842, y)).item.has_value());
  EXPECT_FALSE(hit(QPoint(843, y)).item.has_value());
  EXPECT_TRUE(hit(QPoint(487, y)).item.has_value());
  EXPECT_FALSE(hit(QPoint(486, y)).item.has_value());
}

TEST_F(TimelineHitTestTest, EmptySpaceOnATrackNamesTheLaneButNoEvent) {
  int row = rowOf(kernelTrack_);
  TimelineHit h = hit(at(row, 12, 6250));  // between kernelA and kernelB
  EXPECT_EQ(h.row, row);
  EXPECT_EQ(h.track, kernelTrack_);
  EXPECT_EQ(h.lane, 0u);
  EXPECT_FALSE(h.item.has_value());
}

TEST_F(TimelineHitTestTest, EachLaneOfANestedTrackHitsItsOwnRanges) {
  int row = rowOf(nvtxTrack_);
  expectEvent(hit(at(row, 12, 2000)), row, nvtxTrack_, 0, 500, 9500);          // "step"
  expectEvent(hit(at(row, 2 + 20 + 5, 2000)), row, nvtxTrack_, 1, 900, 4000);  // "forward"
  TimelineHit below = hit(at(row, 2 + 20 + 5, 5000));                          // lane 1 is empty there
  EXPECT_EQ(below.lane, 1u);
  EXPECT_FALSE(below.item.has_value());
}

TEST_F(TimelineHitTestTest, TheEdgesOfATrackRowAreItsPaddingAndTheNextRowStartsBelowIt) {
  // The CUDA API track: one lane, 2 px of padding above and below, 24 px in all.
  int row = rowOf(apiTrack_);
  ASSERT_EQ(layout_.row(row).height, 24);
  EXPECT_EQ(hit(at(row, 0, 1500)).track, TimelineRow::kNoTrack);
  EXPECT_EQ(hit(at(row, 1, 1500)).row, row);
  EXPECT_EQ(hit(at(row, 1, 1500)).track, TimelineRow::kNoTrack);
  expectEvent(hit(at(row, 2, 1500)), row, apiTrack_, 0, HandMade::kApi1Start, HandMade::kApi1End);
  expectEvent(hit(at(row, 21, 1500)), row, apiTrack_, 0, HandMade::kApi1Start, HandMade::kApi1End);
  expectRowOnly(hit(at(row, 22, 1500)), row);
  expectRowOnly(hit(at(row, 23, 1500)), row);
  EXPECT_EQ(hit(at(row, 24, 1500)).row, rowOf(nvtxTrack_));
}

TEST_F(TimelineHitTestTest, AHeaderIsHitAsARowOpenOrCollapsed) {
  int process = rowOf(RowKind::Process);
  int thread = rowOf(RowKind::Thread);
  int device = rowOf(RowKind::Device);
  int stream = rowOf(RowKind::Stream);
  expectRowOnly(hit(at(process, 0, 1500)), process);
  expectRowOnly(hit(at(process, 21, 1500)), process);
  EXPECT_EQ(hit(at(process, 22, 1500)).row, thread);
  expectRowOnly(hit(at(device, 10, 3000)), device);
  expectRowOnly(hit(at(stream, 10, 3000)), stream);
  layout_.setCollapsed(thread, true);  // its summary strip shows the API call at 1500: still the row only
  expectRowOnly(hit(at(thread, 10, 1500)), thread);
  EXPECT_EQ(hit(at(thread, 22, 1500)).row, rowOf(RowKind::Device));
}

TEST_F(TimelineHitTestTest, TheUtilizationRowIsHitAsARow) {
  int row = layout_.rowOfUtilization(0);
  ASSERT_EQ(row, rowOf(RowKind::Utilization));
  expectRowOnly(hit(at(row, 15, 3000)), row);  // kernelA keeps the GPU busy there
  expectRowOnly(hit(at(row, 29, 3000)), row);
  EXPECT_EQ(hit(at(row, 30, 3000)).row, rowOf(RowKind::Stream));
}

TEST_F(TimelineHitTestTest, LabelsRulerAndTheSpaceBelowTheRowsHitNoEvent) {
  int row = rowOf(kernelTrack_);
  expectRowOnly(hit(QPoint(kLeft - 1, at(row, 12, 0).y())), row);  // the label of the kernel track
  expectRowOnly(hit(QPoint(kLeft + 300, kRuler - 1)), -1);         // the ruler
  expectRowOnly(hit(QPoint(kLeft + 300, kRuler + layout_.contentHeight())), -1);
  TimelineGeometry g{QRect(kLeft, kRuler, 1000, 600), viewStart_, viewEnd_};
  expectRowOnly(hitTestTimeline(nullptr, layout_, kinds_, g, at(row, 12, 3000), 0, kRuler), -1);
}

TEST_F(TimelineHitTestTest, ScrollingMovesTheRowsUpUnderThePoint) {
  int row = rowOf(kernelTrack_);
  int scroll = layout_.placementOf(row).top;
  expectEvent(hit(QPoint(kLeft + 300, kRuler + 12), scroll), row, kernelTrack_, 0, HandMade::kKernelAStart,
              HandMade::kKernelAEnd);
}

TEST_F(TimelineHitTestTest, AFoldedBlockIsHitWithItsCount) {
  viewEnd_ = 20000;  // 20 ns per pixel: the 2 ns kernels fold into one block
  int row = rowOf(tinyTrack_);
  TimelineHit h = hit(QPoint(kLeft + 11000 / 20, at(row, 12, 0).y()));
  EXPECT_EQ(h.track, tinyTrack_);
  ASSERT_TRUE(h.item.has_value());
  EXPECT_TRUE(h.item->isFold());
  EXPECT_EQ(h.item->count, static_cast<uint32_t>(HandMade::kTinyCount));
  EXPECT_EQ(h.item->start, HandMade::kTinyStart);
  EXPECT_EQ(h.item->end, HandMade::kTinyStart + 3 * (HandMade::kTinyCount - 1) + 2);
}

}  // namespace
}  // namespace gpuscope::ui
