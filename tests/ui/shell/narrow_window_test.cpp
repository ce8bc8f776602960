// Issue 30, point 7: the window at 1280x720 cuts no detail: the details pane is narrow while empty and sensible
// with a kernel selected, and its values wrap to its width.
#include <gtest/gtest.h>

#include <QApplication>
#include <QHeaderView>
#include <QSettings>
#include <QSignalSpy>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <cmath>

#include "core/details/kernel_list.h"
#include "shell_fixtures.h"
#include "tests/core/testing/gz_fixture.h"
#include "ui/details/details_panel.h"
#include "ui/main_window/analysis_view.h"
#include "ui/main_window/main_window.h"
#include "ui/roofline/roofline_view.h"
#include "ui/session/trace_session.h"
#include "ui/tables/kernel_table_view.h"
#include "ui/timeline/timeline_view.h"

namespace gpuscope::ui {
namespace {

constexpr int kWidth = 1280;

void settle() {
  for (int round = 0; round < 4; ++round) QApplication::processEvents();
}

// The launch-bound fixture in a main window of 1280x720, every pane filled.
class NarrowWindow : public ::testing::Test {
 protected:
  void SetUp() override {
    window_ = test::shownMainWindow(dir_, kWidth, 720);
    QSignalSpy filled(window_.get(), &MainWindow::panesFilled);
    window_->openFile(QString::fromStdString(testing::classFixture("launch", "nsys")));
    ASSERT_TRUE(filled.wait(120'000));
    settle();
  }
  DetailsPanel* details() const { return window_->analysisView()->details(); }
  void selectFirstKernel() {
    std::vector<EventRef> kernels = kernelInstances(*window_->session()->trace());
    ASSERT_FALSE(kernels.empty());
    window_->session()->select(kernels.front());
    settle();
  }

  QTemporaryDir dir_;
  std::unique_ptr<MainWindow> window_;
};

// Issue 40, point 8: one width, empty or filled, so that the timeline does not jump when something is picked.
TEST_F(NarrowWindow, TheDetailsPaneKeepsOneSensibleWidthWithOrWithoutASelection) {
  const int empty = details()->width();
  EXPECT_GE(empty, 300);
  EXPECT_LE(empty, kWidth * 3 / 10);
  EXPECT_GT(window_->analysisView()->timeline()->width(), kWidth * 2 / 3);
  selectFirstKernel();
  EXPECT_EQ(details()->width(), empty);
  window_->session()->select(std::nullopt);
  settle();
  EXPECT_EQ(details()->width(), empty);
}

TEST_F(NarrowWindow, EveryDetailValueIsShownWholeWrappedToThePane) {
  selectFirstKernel();
  QTreeWidget* tree = details()->tree();
  const QHeaderView* header = tree->header();
  // Nothing is cut at the right: the values' column ends inside the pane.
  EXPECT_LE(header->sectionViewportPosition(1) + header->sectionSize(1), tree->viewport()->width());
  const int margin = tree->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, tree) + 1;
  const int textWidth = header->sectionSize(1) - 2 * margin;
  ASSERT_GT(textWidth, 100);
  int wrapped = 0;
  for (int s = 0; s < tree->topLevelItemCount(); ++s) {
    for (int f = 0; f < tree->topLevelItem(s)->childCount(); ++f) {
      QTreeWidgetItem* item = tree->topLevelItem(s)->child(f);
      const QString value = item->text(1);
      const QFontMetrics metrics(item->font(1));
      // However the lines break, a value needs at least this many of them to be read whole.
      const int lines = std::max(1, static_cast<int>(std::ceil(metrics.horizontalAdvance(value) / double(textWidth))));
      const QRect cell = tree->visualItemRect(item);
      EXPECT_GE(cell.height(), lines * metrics.lineSpacing())
          << item->text(0).toStdString() << ": " << value.toStdString();
      wrapped += lines > 1;
    }
  }
  EXPECT_GT(wrapped, 0) << "at 1280 wide some value is longer than a line";
}

// Field names are read whole too: a name wider than the fields' column ("Local memory per thread" and "Local
// memory total" both read "Local memory..." here) wraps, its row as tall as its lines.
TEST_F(NarrowWindow, EveryFieldNameIsShownWholeWrappedToItsColumn) {
  selectFirstKernel();
  QTreeWidget* tree = details()->tree();
  const int margin = tree->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, tree) + 1;
  int wrapped = 0;
  for (int s = 0; s < tree->topLevelItemCount(); ++s) {
    for (int f = 0; f < tree->topLevelItem(s)->childCount(); ++f) {
      QTreeWidgetItem* item = tree->topLevelItem(s)->child(f);
      const QRect cell = tree->visualRect(tree->indexFromItem(item, 0));
      const int textWidth = cell.width() - 2 * margin;
      ASSERT_GT(textWidth, 40);
      const QFontMetrics metrics(item->font(0));
      const QString name = item->text(0);
      // Each word fits the column here; the name needs at least this many lines to be read whole.
      const int lines = std::max(1, static_cast<int>(std::ceil(metrics.horizontalAdvance(name) / double(textWidth))));
      EXPECT_GE(cell.height(), lines * metrics.lineSpacing()) << name.toStdString();
      wrapped += lines > 1;
    }
  }
  EXPECT_GT(wrapped, 0) << "at 1280 wide some field name is wider than its column";
}

// The labels' column fits its labels when a kernel is selected from another tab (the roofline's link): the
// pane filled while hidden, with its tree's viewport a few pixels wide, and no field had a name when shown.
TEST_F(NarrowWindow, TheFieldNamesShowForAKernelSelectedFromAnotherTab) {
  window_->views()->setCurrentWidget(window_->rooflineView());
  settle();
  selectFirstKernel();
  window_->views()->setCurrentWidget(window_->analysisView());
  settle();
  QTreeWidget* tree = details()->tree();
  const int labels = static_cast<const QAbstractItemView*>(tree)->sizeHintForColumn(0);
  const int fieldsColumn = tree->header()->sectionSize(0);
  EXPECT_GE(fieldsColumn, std::min(labels, static_cast<int>(tree->viewport()->width() * 0.45)) - 1);
  EXPECT_GT(fieldsColumn, 100);
}

// With a kernel selected the details pane widens and the kernel table narrows: its titles stay whole (the
// table scrolls sideways instead). The demangled names' title read "angled n" here.
TEST_F(NarrowWindow, TheKernelTableTitlesStayWholeBesideTheDetails) {
  selectFirstKernel();
  const QHeaderView* header = window_->analysisView()->kernels()->view()->horizontalHeader();
  for (int logical = 0; logical < header->count(); ++logical) {
    if (header->isSectionHidden(logical)) continue;
    EXPECT_GE(header->sectionSize(logical), header->sectionSizeHint(logical)) << "column " << logical;
  }
}

}  // namespace
}  // namespace gpuscope::ui
