// Issue 40, the CPU Samples tab from a performance engineer's seat: the flat view's per-function shares with
// idle pool threads set apart, the trees without unwinder junk, the filter, a function's menu, the tree and
// the flame graph selecting one frame, and a function's samples highlighted on the timeline.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QImage>
#include <QLineEdit>
#include <QMenu>
#include <QScrollBar>
#include <QTest>
#include <QTreeView>
#include <functional>
#include <memory>

#include "core/model/global_id.h"
#include "core/model/trace_loader.h"
#include "core/samples/sample_rows.h"
#include "core/write/trace_writer.h"
#include "tests/core/testing/test_files.h"
#include "tests/ui/tables/table_test_support.h"
#include "ui/samples/flame_graph_view.h"
#include "ui/samples/sample_tree_model.h"
#include "ui/samples/samples_panel.h"
#include "ui/session/trace_session.h"
#include "ui/tables/table_proxy.h"
#include "ui/timeline/thread_state_row_kind.h"
#include "ui/timeline/timeline_canvas.h"
#include "ui/timeline/timeline_layout.h"
#include "ui/timeline/timeline_view.h"

namespace gpuscope::ui {
namespace {

constexpr uint32_t kPid = 40, kWorker = 41, kPool = 42;
constexpr TimeNs kTraceStart = 100;
const QString kDecode = QStringLiteral("decode_batch (hostprep.py)");
const QString kAugment = QStringLiteral("augment (hostprep.py)");

NamedFrame native(const char* symbol, const char* module) { return {symbol, module, 0x1000, false, false}; }
NamedFrame python(const char* symbol) { return {symbol, "/src/hostprep.py", 0, false, true}; }
NamedFrame junk() { return {"0xffffffffffffffff", "[unknown]", 0, true, false}; }

// The worker thread 40/41 runs decode_batch for 8 samples (its lines 7 and 9, in decode_inner and
// PyObject_Malloc) and augment for 2 (at 3000 and 7000), each stack rooted in an unwinder's 0xff…ff; the
// OpenBLAS pool thread 40/42 spins in blas_thread_server for 5 samples.
std::shared_ptr<const Trace> functionsTrace() {
  static const std::shared_ptr<const Trace> trace = [] {
    // Kept for the run: the panel reads the samples from the file.
    std::string path = testing::processTempPath("samples_functions", "trace.sqlite");
    SampleRows rows;
    rows.stacks.push_back({native("decode_inner", "/bin/app"), python("py::decode_batch:/src/hostprep.py:7"),
                           python("py::<module>:/src/hostprep.py:30"), junk()});
    rows.stacks.push_back({native("PyObject_Malloc", "/usr/lib/libpython3.12.so"),
                           python("py::decode_batch:/src/hostprep.py:9"), python("py::<module>:/src/hostprep.py:30"),
                           junk()});
    rows.stacks.push_back({native("augment_kernel", "/bin/app"), python("py::augment:/src/hostprep.py:15"),
                           python("py::<module>:/src/hostprep.py:31"), junk()});
    rows.stacks.push_back({native("sched_yield", "/lib/libc.so.6"), native("blas_thread_server", "/lib/libopenblas.so"),
                           native("start_thread", "/lib/libc.so.6")});
    const uint32_t worker[] = {0, 1, 2, 0, 1, 0, 2, 1, 0, 1};
    for (size_t i = 0; i < std::size(worker); ++i)
      rows.samples.push_back({static_cast<TimeNs>(1000 * (i + 1)), kPid, kWorker, 0, worker[i]});
    for (TimeNs t = 1500; t < 6000; t += 1000) rows.samples.push_back({t, kPid, kPool, 1, 3});
    rows.switches.push_back({500, kPid, kWorker, 0, true, false});
    rows.switches.push_back({11000, kPid, kWorker, 0, false, false});
    rows.switches.push_back({1000, kPid, kPool, 1, true, false});
    rows.switches.push_back({6000, kPid, kPool, 1, false, false});
    TraceWriter writer(path);
    writer.addProcess({global_id::make(0, 0, kPid, 0), kPid, "python3"});
    writer.addThreadName({global_id::make(0, 0, kPid, kWorker), "worker"});
    writer.addThreadName({global_id::make(0, 0, kPid, kPool), "blas"});
    writer.addOsRuntime({kTraceStart, 12000, global_id::make(0, 0, kPid, kWorker), "poll"});
    writeSampleTables(writer, rows);
    writer.finish();
    return std::shared_ptr<const Trace>(loadTrace(path));
  }();
  return trace;
}

// Every row of MODEL, depth first.
void forEachRow(const QAbstractItemModel& model, const std::function<void(const QModelIndex&)>& visit,
                const QModelIndex& parent = {}) {
  for (int row = 0; row < model.rowCount(parent); ++row) {
    QModelIndex index = model.index(row, 0, parent);
    visit(index);
    forEachRow(model, visit, index);
  }
}

QString text(const QModelIndex& index, int column = SampleTreeModel::Function) {
  return index.sibling(index.row(), column).data().toString();
}

void settle() {
  for (int round = 0; round < 3; ++round) QApplication::processEvents();
}

class SamplesFunctions : public ::testing::Test {
 protected:
  void SetUp() override {
    session.setTrace(functionsTrace());
    panel.resize(1000, 600);
    panel.show();
    panel.waitForSamples();
    settle();
  }
  void setMode(SampleViewMode mode) {
    panel.modeBox()->setCurrentIndex(panel.modeBox()->findData(static_cast<int>(mode)));
  }
  QAbstractItemModel& shown() { return *panel.treeView()->model(); }
  // The first shown row whose function is LABEL, depth first.
  QModelIndex rowOf(const QString& label, const QString& name = {}) {
    QModelIndex found;
    forEachRow(shown(), [&](const QModelIndex& index) {
      if (!found.isValid() && index.data(SampleTreeModel::kFunctionRole).toString() == label &&
          (name.isEmpty() || text(index) == name))
        found = index;
    });
    return found;
  }
  QAction* action(QMenu& menu, const QString& startsWith) {
    for (QAction* a : menu.actions())
      if (a->text().startsWith(startsWith)) return a;
    return nullptr;
  }

  TraceSession session;
  SamplesPanel panel{&session};
};

// Point 1: one row per function with its share of the working samples, its leaves and lines beneath it, the
// idle pool's samples set apart and said so under the scope.
TEST_F(SamplesFunctions, TheFlatViewListsFunctionSharesWithTheIdlePoolSetApart) {
  setMode(SampleViewMode::Flat);
  SampleTreeModel& model = *panel.model();
  test::ModelCheck check(&model);
  ASSERT_EQ(model.rowCount(), 2);
  QModelIndex decode = model.index(0, 0), augment = model.index(1, 0);
  EXPECT_EQ(text(decode), kDecode);
  EXPECT_EQ(text(decode, SampleTreeModel::Module), QStringLiteral("hostprep.py"));
  EXPECT_EQ(text(decode, SampleTreeModel::Total), QStringLiteral("8"));
  EXPECT_EQ(text(decode, SampleTreeModel::TotalShare), QStringLiteral("80.0%"));
  EXPECT_EQ(text(augment), kAugment);
  EXPECT_EQ(text(augment, SampleTreeModel::TotalShare), QStringLiteral("20.0%"));
  EXPECT_EQ(model.headerData(SampleTreeModel::Total, Qt::Horizontal).toString(), QStringLiteral("Samples"));
  // Beneath decode_batch: its two leaves, then its two lines.
  ASSERT_EQ(model.rowCount(decode), 4);
  QStringList children;
  for (int row = 0; row < 4; ++row)
    children << text(model.index(row, 0, decode)) + QLatin1Char('/') +
                    text(model.index(row, 0, decode), SampleTreeModel::Module) + QLatin1Char('/') +
                    text(model.index(row, 0, decode), SampleTreeModel::Total);
  children.sort();
  EXPECT_EQ(children.join(QLatin1Char(' ')).toStdString(),
            "PyObject_Malloc/leaf/4 decode_inner/leaf/4 hostprep.py:7/line/4 hostprep.py:9/line/4");
  EXPECT_EQ(model.index(3, 0, decode).data(SampleTreeModel::kFunctionRole).toString(), kDecode);  // a line's
  forEachRow(model, [&](const QModelIndex& index) {
    EXPECT_FALSE(text(index).contains(QStringLiteral("blas_thread_server"))) << text(index).toStdString();
    EXPECT_FALSE(text(index).contains(QStringLiteral("sched_yield"))) << text(index).toStdString();
  });
  QString apart = panel.setApartText();
  EXPECT_TRUE(apart.contains(
      QStringLiteral("Set apart: idle thread-pool threads (OpenBLAS blas_thread_server): 33.3% of samples, 1 thread")))
      << apart.toStdString();
  EXPECT_TRUE(apart.contains(QStringLiteral("10 unwinder junk frames dropped"))) << apart.toStdString();
  EXPECT_TRUE(check.failures().isEmpty()) << check.failures().join(QLatin1Char('\n')).toStdString();
}

// Point 1: the trees and the flame graph drop the unwinder's junk frames: no 0xffffffffffffffff root.
TEST_F(SamplesFunctions, TheTreesAndTheFlameGraphShowNoJunkFrames) {
  for (SampleViewMode mode : {SampleViewMode::TopDown, SampleViewMode::BottomUp}) {
    setMode(mode);
    test::ModelCheck check(panel.model());
    int rows = 0;
    forEachRow(*panel.model(), [&](const QModelIndex& index) {
      ++rows;
      EXPECT_FALSE(text(index).startsWith(QStringLiteral("0xffffffffffffffff")));
    });
    EXPECT_GT(rows, 5);
    EXPECT_TRUE(check.failures().isEmpty()) << check.failures().join(QLatin1Char('\n')).toStdString();
  }
  setMode(SampleViewMode::TopDown);
  QStringList roots;
  for (int row = 0; row < panel.model()->rowCount(); ++row) roots << text(panel.model()->index(row, 0));
  roots.sort();
  EXPECT_EQ(roots.join(QLatin1Char('|')).toStdString(),
            "<module> (hostprep.py:30)|<module> (hostprep.py:31)|start_thread");
  const CallTree& flame = panel.flameGraph()->tree();
  for (int32_t root : flame.root().children)
    EXPECT_NE(panel.flameGraph()->functionOf(root), QStringLiteral("0xffffffffffffffff"));
  EXPECT_EQ(flame.root().children.size(), 3u);
}

// Point 2: the filter keeps a function's rows with their callers above them (a tree filters recursively).
TEST_F(SamplesFunctions, TheFilterKeepsTheMatchingFunctionsWithTheirCallers) {
  setMode(SampleViewMode::TopDown);
  EXPECT_EQ(panel.filterEdit()->placeholderText(), QStringLiteral("Filter functions"));
  panel.filterEdit()->setText(QStringLiteral("augment_k"));
  ASSERT_EQ(shown().rowCount(), 1);
  QModelIndex root = shown().index(0, 0);
  EXPECT_EQ(text(root), QStringLiteral("<module> (hostprep.py:31)"));
  ASSERT_EQ(shown().rowCount(root), 1);
  QModelIndex augment = shown().index(0, 0, root);
  EXPECT_EQ(text(augment), QStringLiteral("augment (hostprep.py:15)"));
  ASSERT_EQ(shown().rowCount(augment), 1);
  EXPECT_EQ(text(shown().index(0, 0, augment)), QStringLiteral("augment_kernel"));
  EXPECT_TRUE(panel.treeView()->isExpanded(augment)) << "the match is revealed";

  setMode(SampleViewMode::Flat);
  panel.filterEdit()->setText(QStringLiteral("malloc"));
  ASSERT_EQ(shown().rowCount(), 1);
  QModelIndex decode = shown().index(0, 0);
  EXPECT_EQ(text(decode), kDecode);
  ASSERT_EQ(shown().rowCount(decode), 1);
  EXPECT_EQ(text(shown().index(0, 0, decode)), QStringLiteral("PyObject_Malloc"));
  panel.filterEdit()->clear();
  EXPECT_EQ(shown().rowCount(), 2);
}

// Point 3: a function's menu filters to it, copies its name, shows its callers or callees, and sets the
// ruler's range to where it ran.
TEST_F(SamplesFunctions, AFunctionsMenuFiltersCopiesShowsCallersAndCalleesAndSelectsWhereItRan) {
  std::unique_ptr<QMenu> menu(panel.createFunctionMenu(kAugment, &panel));
  QAction* filter = action(*menu, QStringLiteral("Filter to"));
  ASSERT_NE(filter, nullptr);
  filter->trigger();
  EXPECT_EQ(panel.filterEdit()->text(), kAugment);
  forEachRow(shown(), [&](const QModelIndex& index) {
    EXPECT_FALSE(text(index).contains(QStringLiteral("decode"))) << text(index).toStdString();
  });
  ASSERT_NE(action(*menu, QStringLiteral("Copy name")), nullptr);
  action(*menu, QStringLiteral("Copy name"))->trigger();
  EXPECT_EQ(QApplication::clipboard()->text(), kAugment);

  // Callers: the bottom-up tree, the function's root expanded to show who called it.
  std::unique_ptr<QMenu> leafMenu(panel.createFunctionMenu(QStringLiteral("augment_kernel"), &panel));
  action(*leafMenu, QStringLiteral("Show callers"))->trigger();
  EXPECT_EQ(panel.model()->mode(), SampleViewMode::BottomUp);
  EXPECT_EQ(panel.filterEdit()->text(), QStringLiteral("augment_kernel"));
  QModelIndex current = panel.treeView()->currentIndex();
  ASSERT_TRUE(current.isValid());
  EXPECT_EQ(text(current), QStringLiteral("augment_kernel"));
  EXPECT_FALSE(current.parent().isValid());
  EXPECT_TRUE(panel.treeView()->isExpanded(current));
  ASSERT_EQ(shown().rowCount(current), 1);
  EXPECT_EQ(text(shown().index(0, 0, current)), QStringLiteral("augment (hostprep.py:15)"));

  // Callees: the top-down tree, opened down to the function and beneath it.
  action(*menu, QStringLiteral("Show callees"))->trigger();
  EXPECT_EQ(panel.model()->mode(), SampleViewMode::TopDown);
  current = panel.treeView()->currentIndex();
  ASSERT_TRUE(current.isValid());
  EXPECT_EQ(current.data(SampleTreeModel::kFunctionRole).toString(), kAugment);
  EXPECT_TRUE(panel.treeView()->isExpanded(current.parent()));
  EXPECT_TRUE(panel.treeView()->isExpanded(current));
  EXPECT_EQ(text(shown().index(0, 0, current)), QStringLiteral("augment_kernel"));

  // Where it ran: from its first sample (3000) to just past its last (7000).
  action(*menu, QStringLiteral("Select where it ran"))->trigger();
  EXPECT_EQ(session.rangeStart(), 3000);
  EXPECT_EQ(session.rangeEnd(), 7001);
  EXPECT_EQ(session.highlightedFunction(), kAugment);
  EXPECT_TRUE(panel.scopeText().startsWith(QStringLiteral("8 of 15 CPU samples"))) << panel.scopeText().toStdString();
}

// Point 4: the top-down tree and the flame graph select the same frame, either way; a click still zooms.
TEST_F(SamplesFunctions, TheTreeAndTheFlameGraphSelectTheSameFrame) {
  setMode(SampleViewMode::TopDown);
  FlameGraphView& flame = *panel.flameGraph();
  QModelIndex decodeRow = rowOf(kDecode, QStringLiteral("decode_batch (hostprep.py:7)"));
  ASSERT_TRUE(decodeRow.isValid());
  panel.treeView()->setCurrentIndex(decodeRow);
  int32_t decodeNode = panel.model()->nodeOf(panel.proxy()->mapToSource(decodeRow));
  ASSERT_GT(decodeNode, 0);
  EXPECT_EQ(flame.selectedNode(), decodeNode);
  EXPECT_EQ(flame.functionOf(decodeNode), kDecode);
  // The selected frame is outlined in the selection colour.
  QRectF rect = flame.nodeRect(decodeNode);
  ASSERT_FALSE(rect.isEmpty());
  QImage image = flame.grab().toImage();
  EXPECT_EQ(image.pixelColor(QPoint(static_cast<int>(rect.center().x()), static_cast<int>(rect.top()) + 1)),
            flame.palette().color(QPalette::Highlight));

  // A click on a frame: the flame graph zooms into it and the tree's current row is that node.
  int32_t augmentNode = -1;
  for (size_t n = 1; n < flame.tree().nodes.size(); ++n)
    if (flame.functionOf(static_cast<int32_t>(n)) == QStringLiteral("augment_kernel"))
      augmentNode = static_cast<int32_t>(n);
  ASSERT_GT(augmentNode, 0);
  QTest::mouseClick(&flame, Qt::LeftButton, {}, flame.nodeRect(augmentNode).center().toPoint());
  EXPECT_EQ(flame.focusNode(), augmentNode);
  EXPECT_EQ(flame.selectedNode(), augmentNode);
  QModelIndex current = panel.treeView()->currentIndex();
  EXPECT_EQ(panel.model()->nodeOf(panel.proxy()->mapToSource(current)), augmentNode);
  EXPECT_TRUE(panel.treeView()->isExpanded(current.parent()));
  EXPECT_EQ(session.highlightedFunction(), QStringLiteral("augment_kernel"));

  // In the bottom-up tree a click selects the row of the same function.
  setMode(SampleViewMode::BottomUp);
  int32_t decodeInner = -1;
  for (size_t n = 1; n < flame.tree().nodes.size(); ++n)
    if (flame.functionOf(static_cast<int32_t>(n)) == QStringLiteral("decode_inner"))
      decodeInner = static_cast<int32_t>(n);
  ASSERT_GT(decodeInner, 0);
  QTest::mouseClick(&flame, Qt::LeftButton, {}, flame.nodeRect(decodeInner).center().toPoint());
  current = panel.treeView()->currentIndex();
  EXPECT_EQ(text(current), QStringLiteral("decode_inner"));
  EXPECT_FALSE(current.parent().isValid());
}

int stateRowOf(const TimelineLayout& layout, uint32_t tid) {
  for (size_t i = 0; i < layout.rows().size(); ++i)
    if (layout.rows()[i].kind == RowKind::ThreadState && global_id::tid(layout.rows()[i].globalTid) == tid)
      return static_cast<int>(i);
  return -1;
}

// Point 5: a function picked in the tab highlights its samples' ticks on the timeline's thread-state rows.
TEST_F(SamplesFunctions, APickedFunctionsSamplesAreHighlightedOnTheTimeline) {
  constexpr int kArea = 1200;
  TimelineView view(&session);
  view.resize(TimelineCanvas::kLabelWidth + kArea + view.verticalScrollBar()->sizeHint().width(), 400);
  view.show();
  settle();
  TimelineCanvas* canvas = view.canvas();
  ASSERT_EQ(canvas->eventArea().width(), kArea);
  session.setViewRange(0, 10 * kArea);  // 10 ns per pixel
  int row = stateRowOf(canvas->layout(), kWorker);
  ASSERT_GE(row, 0);
  const QRect area = canvas->eventArea();
  const int tickY = area.top() + canvas->layout().placementOf(row).top + ThreadStateRowKind::kTickTop +
                    ThreadStateRowKind::kTickHeight - 2;
  auto xAt = [&](TimeNs t) { return area.left() + static_cast<int>(t / 10); };
  const QColor highlight = ThreadStateRowKind::highlightTickColor();

  setMode(SampleViewMode::Flat);
  QModelIndex augment = rowOf(kAugment);
  ASSERT_TRUE(augment.isValid());
  panel.treeView()->setCurrentIndex(augment);
  EXPECT_EQ(session.highlightedFunction(), kAugment);
  QImage image = canvas->grab().toImage();
  EXPECT_EQ(image.pixelColor(xAt(3000), tickY), highlight);
  EXPECT_EQ(image.pixelColor(xAt(7000), tickY), highlight);
  EXPECT_NE(image.pixelColor(xAt(1000), tickY), highlight);  // decode_batch's sample: faint
  EXPECT_NE(image.pixelColor(xAt(1000), tickY), canvas->palette().base().color());

  // Nothing picked: every tick as before.
  session.setHighlightedFunction({});
  image = canvas->grab().toImage();
  EXPECT_NE(image.pixelColor(xAt(3000), tickY), highlight);
}

}  // namespace
}  // namespace gpuscope::ui
