// The details panel's roofline sections: a kernel with a GPUSCOPE_KERNEL_METRICS row (transpose.sqlite with
// the fixture's ncu metrics) shows its counters and its place under the roofs, as the core builds them; a
// kernel without FLOPs says it is not on the roofline; a trace without metrics shows no such section.
#include <gtest/gtest.h>
#include <unistd.h>

#include <QApplication>
#include <QDir>
#include <QTreeWidget>
#include <filesystem>

#include "core/details/kernel_roofline.h"
#include "core/model/trace_loader.h"
#include "core/ncu/ncu_import.h"
#include "tests/ui/tables/table_test_support.h"
#include "ui/details/details_panel.h"
#include "ui/session/trace_session.h"

namespace gpuscope::ui {
namespace {

using test::transposeWithMetricsTrace;

// The kernel event of TRACE whose name starts with NAME and that has a metrics row (the first by start).
std::optional<EventRef> kernelWithMetrics(const Trace& trace, const std::string& name,
                                          const std::vector<RooflineKernel>& kernels) {
  for (const auto& kernel : kernels) {
    if (!kernel.name.starts_with(name)) continue;
    for (uint32_t t = 0; t < trace.tracks().size(); ++t) {
      if (trace.track(t).kind != TrackKind::GpuKernels) continue;
      for (uint32_t l = 0; l < trace.track(t).lanes.size(); ++l) {
        const auto& lane = trace.track(t).lanes[l];
        for (uint32_t i = 0; i < lane.size(); ++i)
          if (lane.correlation[i] == kernel.metrics.correlationId) return EventRef{t, l, i};
      }
    }
  }
  return std::nullopt;
}

QTreeWidgetItem* sectionItem(const DetailsPanel& panel, const QString& title) {
  for (int s = 0; s < panel.tree()->topLevelItemCount(); ++s)
    if (panel.tree()->topLevelItem(s)->text(0) == title) return panel.tree()->topLevelItem(s);
  return nullptr;
}

class DetailsRooflineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    session.setTrace(transposeWithMetricsTrace());
    kernels = loadRooflineKernels(transposeWithMetricsTrace()->database());
    panel.resize(600, 900);
    panel.show();
  }
  TraceSession session;
  DetailsPanel panel{&session};
  std::vector<RooflineKernel> kernels;
};

TEST_F(DetailsRooflineTest, KernelWithMetricsShowsItsPlaceOnTheRoofline) {
  auto saxpy = kernelWithMetrics(*session.trace(), "saxpy", kernels);
  ASSERT_TRUE(saxpy);
  session.select(*saxpy);
  const auto& trace = *session.trace();
  const RooflineKernel* kernel =
      findRooflineKernel(kernels, trace.track(saxpy->track).globalTid, trace.lane(*saxpy).correlation[saxpy->index]);
  ASSERT_NE(kernel, nullptr);
  // The panel shows exactly the core's sections, after the kernel's own.
  auto expected = kernelRooflineSections(*kernel, deviceRoofs(*trace.device(kernel->deviceId)));
  ASSERT_EQ(expected.size(), 2u);
  for (const auto& section : expected) {
    auto* item = sectionItem(panel, QString::fromStdString(section.title));
    ASSERT_NE(item, nullptr) << section.title;
    ASSERT_EQ(item->childCount(), static_cast<int>(section.fields.size())) << section.title;
    for (size_t f = 0; f < section.fields.size(); ++f) {
      EXPECT_EQ(item->child(static_cast<int>(f))->text(0).toStdString(), section.fields[f].label);
      EXPECT_EQ(item->child(static_cast<int>(f))->text(1).toStdString(), section.fields[f].value);
    }
  }
  // And the values are the saxpy's on the H100: DRAM-bound at 81 % of 580.8 GFLOP/s.
  EXPECT_EQ(panel.shownValue("Bound", "Roofline"), "Memory-bound (DRAM)");
  EXPECT_EQ(panel.shownValue("Attainable", "Roofline"), "580.8 GFLOP/s");
  EXPECT_EQ(panel.shownValue("Share of attainable", "Roofline"), "81.0 %");
  EXPECT_EQ(panel.shownValue("FP32 FLOPs", "Roofline metrics"), "67108864 (67.1 MFLOP)");
  EXPECT_EQ(panel.shownValue("Arithmetic intensity, DRAM", "Roofline metrics"), "0.1732 FLOP/byte");
  EXPECT_EQ(panel.shownValue("Name", "Kernel").left(5), "saxpy");  // the kernel's own fields are still there
  // The tree is drawn with the new sections: it grew taller than the one without them.
  QApplication::processEvents();
  EXPECT_FALSE(panel.tree()->visualItemRect(sectionItem(panel, "Roofline")).isEmpty());
  if (qEnvironmentVariableIsSet("GPUSCOPE_SCREENSHOT_DIR")) {
    panel.tree()->scrollToItem(sectionItem(panel, "Roofline metrics"), QAbstractItemView::PositionAtTop);
    QApplication::processEvents();
    panel.grab().save(QDir(qEnvironmentVariable("GPUSCOPE_SCREENSHOT_DIR")).filePath("details_roofline.png"));
  }
}

TEST_F(DetailsRooflineTest, KernelWithoutFlopsIsNotOnTheRoofline) {
  auto naive = kernelWithMetrics(*session.trace(), "transposeNaive", kernels);
  ASSERT_TRUE(naive);
  session.select(*naive);
  // ncu counted its FP32 instructions: none.
  EXPECT_EQ(panel.shownValue("FP32 FLOPs", "Roofline metrics"), "0 (0 FLOP)");
  EXPECT_EQ(panel.shownValue("Achieved", "Roofline metrics"), "0 FLOP/s");
  EXPECT_EQ(panel.shownValue("Bound", "Roofline"), "not on the roofline: no FLOPs were counted");
  EXPECT_FALSE(panel.shownValue("DRAM bytes", "Roofline metrics").isEmpty());
}

TEST(DetailsRooflineWithoutMetrics, NoRooflineSection) {
  TraceSession session;
  DetailsPanel panel(&session);
  session.setTrace(test::transposeTrace());
  session.select(*test::eventByRow(*test::transposeTrace(), TrackKind::GpuKernels, 1));
  EXPECT_EQ(panel.details().kind, "Kernel");
  EXPECT_EQ(sectionItem(panel, "Roofline"), nullptr);
  EXPECT_EQ(sectionItem(panel, "Roofline metrics"), nullptr);
  // Switching to the trace with metrics reads them afresh.
  session.setTrace(transposeWithMetricsTrace());
  auto kernels = loadRooflineKernels(transposeWithMetricsTrace()->database());
  session.select(*kernelWithMetrics(*session.trace(), "saxpy", kernels));
  EXPECT_NE(sectionItem(panel, "Roofline"), nullptr);
}

}  // namespace
}  // namespace gpuscope::ui
