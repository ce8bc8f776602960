// TimelineRowKinds on the hand-made trace: each kind of row says its height, whether it is a header, how
// its label weighs, which GPU it shows for the shading, the text after its label and its tooltip.
#include "ui/timeline/timeline_row_kinds.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/ui/timeline/timeline_test_trace.h"
#include "ui/timeline/timeline_hit_test.h"
#include "ui/timeline/timeline_layout.h"

namespace gpuscope::ui {
namespace {

using timeline_test::kLeft;

class TimelineRowKindsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    trace_ = timeline_test::loadHandMadeTrace();
    kinds_.onTraceChanged(trace_.get());
    layout_.build(*trace_, kinds_);
    names_.reset(trace_.get());
  }
  const TimelineRow& row(const std::string& label) const {
    for (const TimelineRow& r : layout_.rows())
      if (r.label.toStdString() == label) return r;
    ADD_FAILURE() << "no row " << label;
    return layout_.rows().front();
  }
  const TimelineRowKind& kindOf(const std::string& label) const { return kinds_.of(row(label)); }
  int64_t gpuOf(const std::string& label) const { return kindOf(label).gpuDevice(*trace_, row(label)); }

  std::shared_ptr<const Trace> trace_;
  TimelineRowKinds kinds_;
  TimelineLayout layout_;
  TimelineNameCache names_;
  TimelineGeometry geometry_{QRect(kLeft, 30, 1000, 600), 0, 10000};
};

TEST_F(TimelineRowKindsTest, TheLayoutTakesEachRowsHeightAndHeaderNessFromItsKind) {
  struct Expected {
    RowKind kind;
    std::string label;
    int height;
    bool header;
  };
  const std::vector<Expected> expected = {
      {RowKind::Process, "app", 22, true},     {RowKind::Thread, "main", 22, true},
      {RowKind::Track, "CUDA API", 24, false}, {RowKind::Track, "NVTX", 44, false},  // two nested lanes
      {RowKind::Device, "GPU 0", 22, true},    {RowKind::Utilization, "Utilization", 30, false},
      {RowKind::Stream, "Stream 7", 22, true}, {RowKind::Track, "Kernels", 24, false},
      {RowKind::Track, "Memory", 24, false},   {RowKind::Stream, "Stream 8", 22, true},
      {RowKind::Track, "Kernels", 24, false},
  };
  const auto& rows = layout_.rows();
  ASSERT_EQ(rows.size(), expected.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    SCOPED_TRACE(expected[i].label);
    EXPECT_EQ(rows[i].kind, expected[i].kind);
    EXPECT_EQ(rows[i].label.toStdString(), expected[i].label);
    EXPECT_EQ(rows[i].height, expected[i].height);
    EXPECT_EQ(rows[i].isHeader(), expected[i].header);
    EXPECT_EQ(kinds_.of(rows[i]).isHeader(), expected[i].header);
  }
  EXPECT_EQ(layout_.contentHeight(), 22 + 22 + 24 + 44 + 22 + 30 + 22 + 24 + 24 + 22 + 24);
}

TEST_F(TimelineRowKindsTest, OnlyARowsKindMakesItCollapsible) {
  int utilization = layout_.rowOfUtilization(0);
  int height = layout_.contentHeight();
  layout_.setCollapsed(utilization, true);  // not a header: nothing folds
  EXPECT_FALSE(layout_.row(utilization).collapsed);
  EXPECT_EQ(layout_.contentHeight(), height);
  int device = layout_.row(utilization).parent;
  layout_.setCollapsed(device, true);  // the utilization row and both streams fold into the header
  EXPECT_EQ(layout_.contentHeight(), height - (30 + 22 + 24 + 24 + 22 + 24));
}

TEST_F(TimelineRowKindsTest, ProcessesAndDevicesHaveBoldLabels) {
  EXPECT_TRUE(kindOf("app").boldLabel());
  EXPECT_TRUE(kindOf("GPU 0").boldLabel());
  EXPECT_FALSE(kindOf("main").boldLabel());
  EXPECT_FALSE(kindOf("Stream 7").boldLabel());
  EXPECT_FALSE(kindOf("Utilization").boldLabel());
  EXPECT_FALSE(kindOf("CUDA API").boldLabel());
}

TEST_F(TimelineRowKindsTest, GpuRowsNameTheirDeviceForTheShadingAndCpuRowsNone) {
  EXPECT_EQ(gpuOf("app"), TimelineRowKind::kNoGpu);
  EXPECT_EQ(gpuOf("main"), TimelineRowKind::kNoGpu);
  EXPECT_EQ(gpuOf("CUDA API"), TimelineRowKind::kNoGpu);
  EXPECT_EQ(gpuOf("NVTX"), TimelineRowKind::kNoGpu);
  EXPECT_EQ(gpuOf("GPU 0"), 0);
  EXPECT_EQ(gpuOf("Utilization"), 0);
  EXPECT_EQ(gpuOf("Stream 7"), 0);
  EXPECT_EQ(gpuOf("Stream 8"), 0);
  EXPECT_EQ(gpuOf("Kernels"), 0);
  EXPECT_EQ(gpuOf("Memory"), 0);
}

TEST_F(TimelineRowKindsTest, TheTextAfterTheLabelIsTheRowsDetailOrTheUtilizationInView) {
  EXPECT_EQ(kindOf("app").detail(row("app"), geometry_).toStdString(), "pid 100");
  EXPECT_EQ(kindOf("main").detail(row("main"), geometry_).toStdString(), "tid 100");
  EXPECT_EQ(kindOf("Stream 7").detail(row("Stream 7"), geometry_).toStdString(), "context 1");
  // kernelA 3500 ns, kernelB 1500 ns and the copy 900 ns in [0, 10000).
  EXPECT_EQ(kindOf("Utilization").detail(row("Utilization"), geometry_).toStdString(), "59% busy in view");
}

TEST_F(TimelineRowKindsTest, TooltipsComeFromTheKindUnderThePointer) {
  RowTooltipContext context{*trace_, geometry_, names_, TimeBase::Trace};
  TimelineHit none;
  EXPECT_EQ(kindOf("Utilization").tooltip(row("Utilization"), none, kLeft + 300, context).toStdString(),
            "GPU busy 100% under the pointer");
  EXPECT_EQ(kindOf("Utilization").tooltip(row("Utilization"), none, kLeft + 995, context).toStdString(),
            "GPU busy 0% under the pointer");
  EXPECT_TRUE(kindOf("app").tooltip(row("app"), none, kLeft + 300, context).isEmpty());
  EXPECT_TRUE(kindOf("Stream 7").tooltip(row("Stream 7"), none, kLeft + 300, context).isEmpty());

  int kernels =
      layout_.rowOfTrack(static_cast<uint32_t>(timeline_test::findTrack(*trace_, TrackKind::GpuKernels, "kernelA")));
  const TimelineRow& kernelRow = layout_.row(kernels);
  TimelineHit onKernelA = hitTestTimeline(trace_.get(), layout_, kinds_, geometry_,
                                          QPoint(kLeft + 300, 30 + layout_.placementOf(kernels).top + 12), 0, 30);
  ASSERT_TRUE(onKernelA.item.has_value());
  QString text = kinds_.of(kernelRow).tooltip(kernelRow, onKernelA, kLeft + 300, context);
  EXPECT_TRUE(text.startsWith(QStringLiteral("<b>kernelA</b><br>void kernelA(float*)<br>"))) << text.toStdString();
  EXPECT_TRUE(kinds_.of(kernelRow).tooltip(kernelRow, none, kLeft + 300, context).isEmpty());
}

}  // namespace
}  // namespace gpuscope::ui
