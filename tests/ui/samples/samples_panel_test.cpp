// The CPU Samples tab on nsys's export with sampling: the tree, the flat list and the flame graph hold the
// samples of the scope the ruler and the selection give, counted as the core's views count them.
#include "ui/samples/samples_panel.h"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QImage>
#include <QMouseEvent>
#include <QTest>
#include <QTreeView>

#include "core/db/sqlite_database.h"
#include "core/model/global_id.h"
#include "core/open/open_trace.h"
#include "core/samples/sample_reader.h"
#include "tests/core/samples/samples_fixtures.h"
#include "tests/ui/tables/table_test_support.h"
#include "ui/samples/flame_graph_view.h"
#include "ui/samples/sample_tree_model.h"
#include "ui/session/trace_session.h"

namespace gpuscope::ui {
namespace {

std::shared_ptr<const Trace> samplingTrace() {
  static const std::shared_ptr<const Trace> trace(openTrace(testing::samplingFixture("loader2_samp")).load().release());
  return trace;
}

int64_t modelInt(const QAbstractItemModel& model, const QModelIndex& index) {
  return model.data(index).toString().remove(QLatin1Char(',')).toLongLong();
}

class SamplesPanelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    session.setTrace(samplingTrace());
    panel.resize(1200, 800);
    panel.waitForSamples();
  }
  TraceSession session;
  SamplesPanel panel{&session};
};

TEST_F(SamplesPanelTest, BottomUpRootsAreTheFunctionsSelfSamples) {
  test::ModelCheck check(panel.model());
  EXPECT_TRUE(panel.scopeText().startsWith(QStringLiteral("9,944 of 9,944 CPU samples")))
      << panel.scopeText().toStdString();
  SampleTreeModel& model = *panel.model();
  ASSERT_GT(model.rowCount(), 10);
  int64_t totalSum = 0, selfSum = 0;
  for (int row = 0; row < model.rowCount(); ++row) {
    totalSum += modelInt(model, model.index(row, SampleTreeModel::Total));
    selfSum += modelInt(model, model.index(row, SampleTreeModel::Self));
  }
  EXPECT_EQ(totalSum, 9944);  // each sample has one leaf
  EXPECT_EQ(selfSum, 9944) << "a root's samples were taken in it: its self is its total";
  EXPECT_TRUE(check.failures().isEmpty()) << check.failures().join(QLatin1Char('\n')).toStdString();
}

TEST_F(SamplesPanelTest, RulerRangeNarrowsTheScope) {
  Database db = Database::openReadOnly(testing::samplingFixture("loader2_samp"));
  auto bounds = db.prepare("SELECT min(start), max(start) FROM COMPOSITE_EVENTS");
  ASSERT_TRUE(bounds.step());
  TimeNs from = bounds.int64(0), to = (bounds.int64(0) + bounds.int64(1)) / 2;
  session.setRange(from, to);
  auto count = db.prepare("SELECT count(*) FROM COMPOSITE_EVENTS WHERE globalTid IS NOT NULL AND start >= " +
                          std::to_string(from) + " AND start < " + std::to_string(to));
  ASSERT_TRUE(count.step());
  EXPECT_EQ(panel.model()->sampleCount(), static_cast<size_t>(count.int64(0)));
  EXPECT_LT(panel.model()->sampleCount(), 9944u);
  EXPECT_EQ(panel.flameGraph()->tree().root().total, count.int64(0));
}

TEST_F(SamplesPanelTest, SelectingAnEventOfAThreadShowsThatThreadInItsTime) {
  const Trace& trace = *samplingTrace();
  std::optional<EventRef> event;
  for (uint32_t t = 0; t < trace.tracks().size() && !event; ++t) {
    const Track& track = trace.track(t);
    if (track.kind == TrackKind::Nvtx && !track.lanes.empty() && track.lanes[0].size() > 0) event = EventRef{t, 0, 0};
  }
  ASSERT_TRUE(event);
  session.select(event);
  const Track& track = trace.track(event->track);
  EXPECT_TRUE(panel.scopeText().contains(QStringLiteral("tid %1").arg(track.tid))) << panel.scopeText().toStdString();
  Database db = Database::openReadOnly(testing::samplingFixture("loader2_samp"));
  auto count = db.prepare("SELECT count(*) FROM COMPOSITE_EVENTS WHERE globalTid = " + std::to_string(track.globalTid) +
                          " AND start >= " + std::to_string(trace.start(*event)) + " AND start < " +
                          std::to_string(trace.end(*event)));
  ASSERT_TRUE(count.step());
  EXPECT_EQ(panel.model()->sampleCount(), static_cast<size_t>(count.int64(0)));
}

// The flat view is the per-function shares (py-spy's `top`): each function once, the OpenBLAS pool's idle
// threads set apart and said so, the shares adding up to the working samples.
TEST_F(SamplesPanelTest, FlatModeListsEachFunctionOnceWithTheIdlePoolApart) {
  panel.modeBox()->setCurrentIndex(panel.modeBox()->findData(static_cast<int>(SampleViewMode::Flat)));
  SampleTreeModel& model = *panel.model();
  ASSERT_EQ(model.mode(), SampleViewMode::Flat);
  const FunctionShares& shares = model.shares();
  ASSERT_EQ(model.rowCount(), static_cast<int>(shares.functions.size()));
  ASSERT_GT(model.rowCount(), 10);
  QSet<QString> seen;
  int64_t samples = 0;
  for (int row = 0; row < model.rowCount(); ++row) {
    // A native function is one per module ("_init" of each library); its tooltip names the module in full.
    QString name = model.data(model.index(row, SampleTreeModel::Function)).toString();
    QString key = model.data(model.index(row, SampleTreeModel::Function), Qt::ToolTipRole).toString();
    EXPECT_FALSE(seen.contains(key)) << key.toStdString();
    EXPECT_NE(name, QStringLiteral("blas_thread_server"));
    seen.insert(key);
    samples += modelInt(model, model.index(row, SampleTreeModel::Total));
  }
  EXPECT_EQ(samples, shares.workingSamples);
  EXPECT_LT(shares.workingSamples, 9944);
  EXPECT_TRUE(panel.setApartText().startsWith(
      QStringLiteral("Set apart: idle thread-pool threads (OpenBLAS blas_thread_server): ")))
      << panel.setApartText().toStdString();
}

TEST(FlameGraph, DrawsHoversAndZooms) {
  Database db = Database::openReadOnly(testing::samplingFixture("loader2_samp"));
  FlameGraphView flame;
  flame.resize(1000, 400);
  flame.setSamples(std::make_shared<const CpuSamples>(readCpuSamples(db).samples));
  const CallTree& tree = flame.tree();
  ASSERT_FALSE(tree.root().children.empty());
  int32_t widest = tree.root().children.front();
  QRectF rect = flame.nodeRect(widest);
  double expectedWidth = 1000.0 * static_cast<double>(tree.nodes[static_cast<size_t>(widest)].total) / 9944.0;
  EXPECT_NEAR(rect.width(), expectedWidth, 0.5);
  EXPECT_EQ(flame.nodeAt(rect.center()), widest);
  EXPECT_TRUE(flame.toolTipFor(widest).contains(QStringLiteral("Total: ")));

  QImage image = flame.grab().toImage();
  QColor base = flame.palette().base().color();
  EXPECT_NE(image.pixelColor(rect.center().toPoint()), base);  // the frame is painted

  QTest::mouseClick(&flame, Qt::LeftButton, {}, rect.center().toPoint());
  EXPECT_EQ(flame.focusNode(), widest);
  EXPECT_NEAR(flame.nodeRect(widest).width(), 1000.0, 0.5);  // the clicked frame fills the width
  QTest::keyClick(&flame, Qt::Key_Escape);
  EXPECT_EQ(flame.focusNode(), 0);
}

TEST(SamplesPanelWithoutSamples, SaysSoInOneSentence) {
  TraceSession session;
  session.setTrace(test::transposeTrace());
  SamplesPanel panel(&session);
  panel.waitForSamples();
  EXPECT_TRUE(panel.scopeText().startsWith(QStringLiteral("This trace has no CPU samples")))
      << panel.scopeText().toStdString();
  EXPECT_EQ(panel.model()->rowCount(), 0);
}

}  // namespace
}  // namespace gpuscope::ui
