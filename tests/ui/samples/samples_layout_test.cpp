// Issue 40, point 6: the CPU Samples tab is usable in a 1280x720 window without dragging a splitter: the tab
// is wide and low there, so the tree and the flame graph sit side by side and the tree shows many rows.
#include <gtest/gtest.h>

#include <QApplication>
#include <QHeaderView>
#include <QSignalSpy>
#include <QSplitter>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTreeView>

#include "tests/core/samples/samples_fixtures.h"
#include "tests/ui/shell/shell_fixtures.h"
#include "ui/main_window/analysis_view.h"
#include "ui/main_window/main_window.h"
#include "ui/samples/flame_graph_view.h"
#include "ui/samples/sample_tree_model.h"
#include "ui/samples/samples_panel.h"
#include "ui/session/trace_session.h"

namespace gpuscope::ui {
namespace {

void settleLayout() {
  for (int round = 0; round < 4; ++round) QApplication::processEvents();
}

TEST(SamplesLayout, AtTheTabsSizeIn1280x720TheTreeShowsManyRowsBesideTheFlameGraph) {
  QTemporaryDir dir;
  std::unique_ptr<MainWindow> window = test::shownMainWindow(dir, 1280, 720);
  QSignalSpy filled(window.get(), &MainWindow::panesFilled);
  window->openFile(QString::fromStdString(testing::samplingFixture("loader2_samp")));
  ASSERT_TRUE(filled.wait(120'000));
  settleLayout();
  SamplesPanel* panel = window->analysisView()->samples();
  window->analysisView()->tables()->setCurrentWidget(panel);
  panel->waitForSamples();
  settleLayout();
  ASSERT_GT(panel->height(), 0);
  EXPECT_GT(panel->width(), 2 * panel->height()) << panel->width() << "x" << panel->height();
  EXPECT_EQ(panel->splitter()->orientation(), Qt::Horizontal);

  QTreeView* tree = panel->treeView();
  ASSERT_GT(tree->model()->rowCount(), 8);
  const int rowHeight = tree->sizeHintForRow(0);
  ASSERT_GT(rowHeight, 0);
  EXPECT_GE(tree->viewport()->height() / rowHeight, 8) << "tree " << tree->viewport()->height() << " px high";
  // The tree has the tab's whole height; each has about half its width, enough to read.
  EXPECT_GE(tree->height(), panel->height() - 2);
  EXPECT_GT(tree->width(), 400);
  // The counts are in view whatever the names' width: they come first, the function after them.
  QHeaderView* header = tree->header();
  EXPECT_LT(header->sectionViewportPosition(SampleTreeModel::Total) + header->sectionSize(SampleTreeModel::Total),
            tree->viewport()->width());
  EXPECT_GE(header->sectionViewportPosition(SampleTreeModel::Total), 0);
  // A click on a row (Qt scrolls to its cell) keeps them there.
  tree->setCurrentIndex(tree->model()->index(1, SampleTreeModel::Function));
  QApplication::processEvents();
  EXPECT_GE(header->sectionViewportPosition(SampleTreeModel::Total), 0) << "the counts scrolled off to the left";
  EXPECT_GT(panel->flameGraph()->width(), 400);

  // A function deep in the top-down tree: its row's name is in view, and its frame in the flame graph's.
  panel->showCallees(QStringLiteral("PyObject_Malloc"));
  settleLayout();
  QModelIndex current = tree->currentIndex();
  ASSERT_TRUE(current.isValid());
  int depth = 0;
  for (QModelIndex up = current.parent(); up.isValid(); up = up.parent()) ++depth;
  EXPECT_GT(depth * tree->indentation(), tree->viewport()->width() / 2) << "deep enough to be indented out of view";
  QRect name = tree->visualRect(current);
  EXPECT_GE(name.left(), 0);
  EXPECT_LT(name.left() + tree->fontMetrics().horizontalAdvance(QStringLiteral("PyObject_Malloc")),
            tree->viewport()->width());
  FlameGraphView* flame = panel->flameGraph();
  ASSERT_GT(flame->selectedNode(), 0);
  EXPECT_TRUE(
      flame->visibleRegion().boundingRect().contains(flame->nodeRect(flame->selectedNode()).center().toPoint()));
}

// A panel less than twice as wide as high puts the flame graph under the tree, the tree still the larger.
TEST(SamplesLayout, ANarrowPanelStacksTheTreeAboveTheFlameGraph) {
  TraceSession session;
  SamplesPanel panel(&session);
  panel.resize(800, 700);
  panel.show();
  settleLayout();
  EXPECT_EQ(panel.splitter()->orientation(), Qt::Vertical);
  EXPECT_GT(panel.treeView()->height(), panel.splitter()->widget(1)->height());
  panel.resize(1600, 500);
  settleLayout();
  EXPECT_EQ(panel.splitter()->orientation(), Qt::Horizontal);
  EXPECT_GE(panel.treeView()->height(), panel.height() - 2);
}

}  // namespace
}  // namespace gpuscope::ui
