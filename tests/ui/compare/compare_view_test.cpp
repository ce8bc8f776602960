// CompareView offscreen: two hand-made runs 10 us apart; the timelines move together through the
// alignment, the diff model has the right rows and passes QAbstractItemModelTester, rows select instances.
#include "ui/compare/compare_view.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <QApplication>
#include <QDir>
#include <QImage>
#include <QLabel>
#include <QSet>
#include <QTest>
#include <QTreeView>
#include <filesystem>

#include "core/model/global_id.h"
#include "core/model/trace_loader.h"
#include "core/write/trace_writer.h"
#include "tests/ui/tables/table_test_support.h"
#include "ui/compare/run_diff_model.h"
#include "ui/tables/table_proxy.h"
#include "ui/timeline/timeline_canvas.h"
#include "ui/timeline/timeline_find_bar.h"
#include "ui/timeline/timeline_view.h"

namespace gpuscope::ui {
namespace {

namespace fs = std::filesystem;
using test::ModelCheck;

const int64_t kGlobalPid = global_id::make(0, 0, 42, 0);
const int64_t kMainTid = global_id::make(0, 0, 42, 42);

struct KernelSpec {
  const char* name;
  TimeNs start;
  TimeNs end;
};

// A run of kernels (each launched by a call just before it) and "step" ranges, all shifted by SHIFT.
std::shared_ptr<const Trace> makeRun(const std::string& name, TimeNs shift, const std::vector<KernelSpec>& kernels,
                                     const std::vector<std::pair<TimeNs, TimeNs>>& steps) {
  auto path = (fs::path(::testing::TempDir()) / ("compare_view_" + std::to_string(::getpid()) + "_" + name + ".sqlite"))
                  .string();
  {
    TraceWriter w(path);
    w.addProcess({kGlobalPid, 42, "train"});
    uint32_t correlation = 1;
    for (const auto& k : kernels) {
      w.addCudaApi({shift + k.start - 10, shift + k.start, CudaApiKind::Runtime, kMainTid, correlation,
                    "cudaLaunchKernel_v7000", 0, std::nullopt});
      KernelRow row;
      row.start = shift + k.start;
      row.end = shift + k.end;
      row.contextId = 1;
      row.streamId = 7;
      row.correlationId = correlation++;
      row.globalPid = kGlobalPid;
      row.demangledName = k.name;
      row.shortName = k.name;
      w.addKernel(row);
    }
    for (const auto& [start, end] : steps)
      w.addNvtxPushPopRange({.start = shift + start, .end = shift + end, .globalTid = kMainTid, .text = "step"});
    w.finish();
  }
  std::shared_ptr<const Trace> trace = loadTrace(path);
  fs::remove(path);
  return trace;
}

// A: gemm x2 (100 ns each), relu, old. B (10 us later): gemm slower (150 ns), relu, new; second step longer.
std::shared_ptr<const Trace> runA() {
  return makeRun("a", 0, {{"gemm", 1000, 1100}, {"relu", 1200, 1250}, {"old", 1300, 1330}, {"gemm", 2000, 2100}},
                 {{500, 1400}, {1900, 2200}});
}
std::shared_ptr<const Trace> runB() {
  return makeRun("b", 10000, {{"gemm", 1000, 1150}, {"relu", 1200, 1250}, {"new", 1300, 1340}, {"gemm", 2000, 2150}},
                 {{500, 1400}, {1900, 2300}});
}

int rowNamed(const QAbstractItemModel& model, const QString& name) {
  for (int row = 0; row < model.rowCount(); ++row)
    if (model.index(row, RunDiffModel::NameColumn).data().toString() == name) return row;
  return -1;
}

TEST(CompareView, TimelinesMoveTogetherThroughTheAlignment) {
  CompareView view(runA(), runB());
  view.resize(1200, 900);
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  // Aligned at the starts: A starts at 500, B at 10500.
  EXPECT_EQ(view.alignment().offset, -10000);
  EXPECT_EQ(view.sessionB()->viewStart(), view.sessionA()->viewStart() + 10000);
  EXPECT_EQ(view.sessionB()->viewEnd(), view.sessionA()->viewEnd() + 10000);

  view.sessionA()->setViewRange(1000, 2000);
  EXPECT_EQ(view.sessionB()->viewStart(), 11000);
  EXPECT_EQ(view.sessionB()->viewEnd(), 12000);
  view.sessionB()->setViewRange(11500, 11600);
  EXPECT_EQ(view.sessionA()->viewStart(), 1500);
  EXPECT_EQ(view.sessionA()->viewEnd(), 1600);

  // Zooming and panning with the canvas of either timeline moves the other one the same way.
  auto* canvasA = view.timelineA()->canvas();
  canvasA->zoomAround(canvasA->eventArea().center().x(), 4.0);
  EXPECT_GT(view.sessionA()->viewEnd() - view.sessionA()->viewStart(), 100);
  EXPECT_EQ(view.sessionB()->viewStart(), view.sessionA()->viewStart() + 10000);
  EXPECT_EQ(view.sessionB()->viewEnd(), view.sessionA()->viewEnd() + 10000);
  auto* canvasB = view.timelineB()->canvas();
  TimeNs before = view.sessionA()->viewStart();
  canvasB->panByPixels(-100);
  EXPECT_NE(view.sessionA()->viewStart(), before);
  EXPECT_EQ(view.sessionA()->viewStart(), view.sessionB()->viewStart() - 10000);
  EXPECT_EQ(view.sessionA()->viewEnd(), view.sessionB()->viewEnd() - 10000);
}

TEST(CompareView, AnchorAndShiftRealignTheTimelines) {
  CompareView view(runA(), runB());
  using Kind = AlignmentAnchor::Kind;
  // A's second step starts at 1900, B's first at 10500.
  ASSERT_TRUE(view.setAlignment({Kind::NvtxRange, "step", 1}, {Kind::NvtxRange, "step", 0}, 0));
  EXPECT_EQ(view.alignment().offset, 1900 - 10500);
  view.sessionA()->setViewRange(1900, 2000);
  EXPECT_EQ(view.sessionB()->viewStart(), 10500);
  EXPECT_EQ(view.sessionB()->viewEnd(), 10600);

  ASSERT_TRUE(view.setAlignment({Kind::Kernel, "gemm", 0}, {Kind::Kernel, "gemm", 0}, 250));
  EXPECT_EQ(view.alignment().offset, 1000 - 11000 + 250);
  EXPECT_EQ(view.alignment().bToA(11000), 1250);
  EXPECT_EQ(view.sessionB()->viewStart(), view.sessionA()->viewStart() + 10000 - 250);
  EXPECT_TRUE(view.alignmentText().contains(QStringLiteral("gemm")));
  // People count instances from 1: the first gemm is "#1" in the text and in the boxes.
  EXPECT_TRUE(view.alignmentText().contains(QStringLiteral("\"gemm\" #1"))) << view.alignmentText().toStdString();
  // The offset (-9.750 us) is written with one sign.
  EXPECT_TRUE(view.alignmentText().contains(QStringLiteral("A time = B time - 9.750 us")))
      << view.alignmentText().toStdString();
  EXPECT_FALSE(view.alignmentText().contains(QStringLiteral("+ -")));
  EXPECT_FALSE(view.alignmentText().contains(QStringLiteral("+ +")));

  EXPECT_FALSE(view.setAlignment({Kind::Kernel, "new", 0}, {Kind::Kernel, "new", 0}, 0));  // not in A
  EXPECT_EQ(view.alignment().offset, 1000 - 11000 + 250);
  EXPECT_TRUE(view.setAlignment({}, {}, -1000));
  EXPECT_EQ(view.alignment().offset, 500 - 10500 - 1000);
}

TEST(CompareView, DiffModelHasTheChangedKernelsAndPassesTheTester) {
  CompareView view(runA(), runB());
  // Aligned at their starts, the summary and the table cover the whole runs.
  ASSERT_TRUE(view.setAlignment({}, {}, 0));
  RunDiffModel* model = view.diffModel();
  ModelCheck check(model);
  ASSERT_EQ(model->rowCount(), 4);
  ASSERT_EQ(model->columnCount(), RunDiffModel::ColumnCount);
  // Largest change first: gemm +100, new +40, old -30, relu 0.
  EXPECT_EQ(model->index(0, RunDiffModel::NameColumn).data().toString(), QStringLiteral("gemm"));
  EXPECT_EQ(model->index(0, RunDiffModel::DeltaTotalColumn).data(RunDiffModel::SortRole).toLongLong(), 100);
  EXPECT_EQ(model->index(0, RunDiffModel::DeltaTotalColumn).data().toString(), QStringLiteral("+100 ns"));
  EXPECT_DOUBLE_EQ(model->index(0, RunDiffModel::DeltaPercentColumn).data(RunDiffModel::SortRole).toDouble(), 50.0);
  EXPECT_EQ(model->index(0, RunDiffModel::CountBColumn).data(RunDiffModel::SortRole).toLongLong(), 2);
  EXPECT_DOUBLE_EQ(model->index(0, RunDiffModel::AverageBColumn).data(RunDiffModel::SortRole).toDouble(), 150.0);
  EXPECT_EQ(model->index(1, RunDiffModel::NameColumn).data().toString(), QStringLiteral("new"));
  EXPECT_EQ(model->index(1, RunDiffModel::StatusColumn).data().toString(), QStringLiteral("only B"));
  EXPECT_EQ(model->index(1, 0).data(RunDiffModel::PresenceRole).toInt(), static_cast<int>(DiffPresence::OnlyB));
  EXPECT_EQ(model->index(2, RunDiffModel::NameColumn).data().toString(), QStringLiteral("old"));
  EXPECT_EQ(model->index(2, RunDiffModel::DeltaTotalColumn).data().toString(), QStringLiteral("-30 ns"));
  EXPECT_EQ(model->index(2, RunDiffModel::StatusColumn).data().toString(), QStringLiteral("only A"));
  EXPECT_EQ(model->index(3, RunDiffModel::NameColumn).data().toString(), QStringLiteral("relu"));
  EXPECT_EQ(model->index(3, RunDiffModel::DeltaTotalColumn).data(RunDiffModel::SortRole).toLongLong(), 0);

  // Sorting the table by delta ascending puts the faster kernel first.
  view.diffTable()->sortByColumn(RunDiffModel::DeltaTotalColumn, Qt::AscendingOrder);
  EXPECT_EQ(view.diffProxy()->index(0, RunDiffModel::NameColumn).data().toString(), QStringLiteral("old"));

  view.setDiffBy(DiffBy::Nvtx);
  ASSERT_EQ(model->rowCount(), 1);
  EXPECT_EQ(model->index(0, RunDiffModel::NameColumn).data().toString(), QStringLiteral(":step"));
  EXPECT_EQ(model->index(0, RunDiffModel::DeltaTotalColumn).data(RunDiffModel::SortRole).toLongLong(), 100);
  EXPECT_EQ(model->headerData(RunDiffModel::NameColumn, Qt::Horizontal).toString(), QStringLiteral("NVTX range"));
  EXPECT_TRUE(check.failures().isEmpty()) << check.failures().join(QStringLiteral("\n")).toStdString();

  // The summary above the table: kernel time 280 ns in A, 390 ns in B.
  bool sawKernelTime = false;
  for (size_t i = 0; i < view.diff().summary.size(); ++i) {
    if (view.diff().summary[i].name != "Kernel time") continue;
    auto* a = view.findChild<QLabel*>(QStringLiteral("summary_%1_1").arg(i));
    auto* delta = view.findChild<QLabel*>(QStringLiteral("summary_%1_3").arg(i));
    ASSERT_TRUE(a && delta);
    EXPECT_EQ(a->text(), QStringLiteral("280 ns"));
    EXPECT_EQ(delta->text(), QStringLiteral("+110 ns"));
    sawKernelTime = true;
  }
  EXPECT_TRUE(sawKernelTime);
}

TEST(CompareView, SelectingARowFocusesItsInstancesInBothRuns) {
  CompareView view(runA(), runB());
  ASSERT_TRUE(view.setAlignment({}, {}, 0));  // the table of the whole runs
  view.resize(1200, 900);
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  int gemm = rowNamed(*view.diffProxy(), QStringLiteral("gemm"));
  ASSERT_GE(gemm, 0);
  view.diffTable()->setCurrentIndex(view.diffProxy()->index(gemm, 0));
  ASSERT_TRUE(view.sessionA()->selection().has_value());
  ASSERT_TRUE(view.sessionB()->selection().has_value());
  EXPECT_EQ(view.sessionA()->trace()->start(*view.sessionA()->selection()), 1000);
  EXPECT_EQ(view.sessionB()->trace()->start(*view.sessionB()->selection()), 11000);
  EXPECT_LE(view.sessionA()->viewStart(), 1000);
  EXPECT_GE(view.sessionA()->viewEnd(), 1100);
  EXPECT_LT(view.sessionA()->viewEnd() - view.sessionA()->viewStart(), 1000);  // zoomed to the instance
  EXPECT_EQ(view.sessionB()->viewStart(), view.sessionA()->viewStart() + 10000);
  EXPECT_TRUE(view.timelineA()->findBar()->isVisible());
  EXPECT_EQ(view.timelineA()->findBar()->result().size(), 2u);
  EXPECT_EQ(view.timelineB()->findBar()->result().size(), 2u);

  // A kernel only B has: B is focused on it, A has nothing selected.
  int added = rowNamed(*view.diffProxy(), QStringLiteral("new"));
  view.diffTable()->setCurrentIndex(view.diffProxy()->index(added, 0));
  EXPECT_FALSE(view.sessionA()->selection().has_value());
  ASSERT_TRUE(view.sessionB()->selection().has_value());
  EXPECT_EQ(view.sessionB()->trace()->start(*view.sessionB()->selection()), 11300);
  EXPECT_LE(view.sessionB()->viewStart(), 11300);
  EXPECT_GE(view.sessionB()->viewEnd(), 11340);
  EXPECT_EQ(view.sessionA()->viewStart(), view.sessionB()->viewStart() - 10000);
  EXPECT_EQ(view.timelineA()->findBar()->result().size(), 0u);

  // An NVTX row selects the first range of that text in both runs.
  view.setDiffBy(DiffBy::Nvtx);
  int step = rowNamed(*view.diffProxy(), QStringLiteral(":step"));
  ASSERT_GE(step, 0);
  view.diffTable()->setCurrentIndex(view.diffProxy()->index(step, 0));
  ASSERT_TRUE(view.sessionA()->selection() && view.sessionB()->selection());
  EXPECT_EQ(view.sessionA()->trace()->start(*view.sessionA()->selection()), 500);
  EXPECT_EQ(view.sessionB()->trace()->start(*view.sessionB()->selection()), 10500);
  EXPECT_EQ(view.timelineB()->findBar()->result().size(), 2u);
}

// Each run's selected instance lies inside its view.
void expectBothSelectionsInView(const CompareView& view) {
  for (TraceSession* session : {view.sessionA(), view.sessionB()}) {
    const Trace& trace = *session->trace();
    EXPECT_LE(session->viewStart(), trace.start(*session->selection()));
    EXPECT_GE(session->viewEnd(), trace.end(*session->selection()));
  }
}

// VIEW shown aligned on both runs' second step, its gemm row picked: both runs have a selection.
void pickGemmAlignedOnStep1(CompareView& view) {
  using Kind = AlignmentAnchor::Kind;
  ASSERT_TRUE(view.setAlignment({Kind::NvtxRange, "step", 1}, {Kind::NvtxRange, "step", 1}, 0));
  view.resize(1200, 700);
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  int gemm = rowNamed(*view.diffProxy(), QStringLiteral("gemm"));
  ASSERT_GE(gemm, 0);
  view.diffTable()->setCurrentIndex(view.diffProxy()->index(gemm, 0));
  QApplication::processEvents();
  ASSERT_TRUE(view.sessionA()->selection() && view.sessionB()->selection());
}

// Issue 40, point 3: aligned on the second step, a diff row selects the kernel's instance in that step in both
// runs (not the warm-up's first), the CPU rows stay folded, and the selected kernel's row is on screen.
TEST(CompareView, ARowSelectsTheInstanceInTheAlignedWindowAndKeepsItInView) {
  CompareView view(runA(), runB());
  ASSERT_NO_FATAL_FAILURE(pickGemmAlignedOnStep1(view));
  EXPECT_EQ(view.sessionA()->trace()->start(*view.sessionA()->selection()), 2000);
  EXPECT_EQ(view.sessionB()->trace()->start(*view.sessionB()->selection()), 12000);
  for (TimelineView* timeline : {view.timelineA(), view.timelineB()}) {
    const TimelineLayout& layout = timeline->canvas()->layout();
    for (const TimelineRow& row : layout.rows())
      if (row.kind == RowKind::Process) {
        EXPECT_TRUE(row.collapsed) << "the CPU rows were unfolded";
      }
  }
  EXPECT_FALSE(view.timelineA()->canvas()->laneRect(view.sessionA()->selection()->track, 0).isEmpty());
  EXPECT_FALSE(view.timelineB()->canvas()->laneRect(view.sessionB()->selection()->track, 0).isEmpty());
  // Both selected instances are inside their run's view, though B's sits later in its step than A's.
  expectBothSelectionsInView(view);
}

// Aligned on step 1, B's gemm starts 300 ns later in its step than A's: a view zoomed to A's instance alone would
// leave B's off-screen.
TEST(CompareView, ARowShowsBothRunsInstancesThoughTheyAreApartInTheStep) {
  auto b = makeRun("b_late", 10000, {{"gemm", 1000, 1150}, {"gemm", 2300, 2450}}, {{500, 1400}, {1900, 2600}});
  CompareView view(runA(), b);
  ASSERT_NO_FATAL_FAILURE(pickGemmAlignedOnStep1(view));
  EXPECT_EQ(view.sessionB()->trace()->start(*view.sessionB()->selection()), 12300);
  expectBothSelectionsInView(view);
}

// Distinct colours of an image, sampled on a grid.
int colourCount(const QImage& image) {
  QSet<QRgb> colours;
  for (int y = 0; y < image.height(); y += 3)
    for (int x = 0; x < image.width(); x += 3) colours.insert(image.pixel(x, y));
  return static_cast<int>(colours.size());
}

TEST(CompareView, PaintsBothRealRunsAndTheirDiff) {
  std::shared_ptr<const Trace> a = loadTrace(std::string(GPUSCOPE_FIXTURES) + "/nsys/transpose.sqlite");
  std::shared_ptr<const Trace> b = loadTrace(std::string(GPUSCOPE_FIXTURES) + "/nsys/transpose.sqlite");
  CompareView view(a, b);
  ASSERT_TRUE(view.setAlignment({}, {}, 0));  // the whole runs: all three kernels
  view.resize(1400, 900);
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  ASSERT_EQ(view.diffModel()->rowCount(), 3);
  view.diffTable()->setCurrentIndex(view.diffProxy()->index(0, 0));
  QApplication::processEvents();
  // The same file on both sides: the same kernel is selected at the same time, and both canvases paint it.
  ASSERT_TRUE(view.sessionA()->selection() && view.sessionB()->selection());
  EXPECT_EQ(a->start(*view.sessionA()->selection()), b->start(*view.sessionB()->selection()));
  QImage canvasA = view.timelineA()->canvas()->grab().toImage();
  QImage canvasB = view.timelineB()->canvas()->grab().toImage();
  EXPECT_GT(colourCount(canvasA), 8);
  // The panes may differ by a pixel in height; the rows they both show are painted the same.
  int height = std::min(canvasA.height(), canvasB.height());
  ASSERT_EQ(canvasA.width(), canvasB.width());
  EXPECT_EQ(canvasA.copy(0, 0, canvasA.width(), height), canvasB.copy(0, 0, canvasB.width(), height))
      << canvasA.height() << " vs " << canvasB.height();
  // Set GPUSCOPE_SCREENSHOT_DIR to look at the window.
  QString dir = qEnvironmentVariable("GPUSCOPE_SCREENSHOT_DIR");
  if (!dir.isEmpty()) view.grab().save(QDir(dir).filePath(QStringLiteral("compare_view.png")));
}

}  // namespace
}  // namespace gpuscope::ui
