// The details panel on transpose.sqlite: the selected kernel's fields, and jumps between call and kernel.
#include "ui/details/details_panel.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QPushButton>
#include <QTest>
#include <QTreeWidget>

#include "core/details/detail_text.h"
#include "tests/ui/tables/table_test_support.h"
#include "ui/session/trace_session.h"

namespace gpuscope::ui {
namespace {

using test::eventByRow;
using test::sqlInt;
using test::sqlText;
using test::transposeTrace;

const std::string kKernel = " FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid = 1";

class DetailsPanelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    session.setTrace(transposeTrace());
    panel.resize(600, 800);
    panel.show();
    kernel = *eventByRow(*transposeTrace(), TrackKind::GpuKernels, 1);
    call = *eventByRow(*transposeTrace(), TrackKind::CudaApi, 12);
  }

  QString shown(const char* label, const char* section = "") { return panel.shownValue(label, section); }
  static QString fromSql(const std::string& sql) { return QString::fromStdString(sqlText(*transposeTrace(), sql)); }

  TraceSession session;
  DetailsPanel panel{&session};
  EventRef kernel;
  EventRef call;
};

TEST_F(DetailsPanelTest, EmptyUntilSomethingIsSelected) {
  EXPECT_TRUE(panel.details().title.empty());
  EXPECT_TRUE(panel.tree()->isHidden());
  EXPECT_TRUE(panel.launchingCallButton()->isHidden());
}

TEST_F(DetailsPanelTest, ShowsTheSelectedKernelsFields) {
  session.select(kernel);
  EXPECT_FALSE(panel.tree()->isHidden());
  EXPECT_EQ(panel.details().kind, "Kernel");
  EXPECT_EQ(shown("Name", "Kernel"),
            fromSql("SELECT value FROM StringIds WHERE id = (SELECT demangledName" + kKernel + ")"));
  EXPECT_EQ(shown("Grid"), fromSql("SELECT gridX || ' x ' || gridY || ' x ' || gridZ" + kKernel));
  EXPECT_EQ(shown("Block"),
            fromSql("SELECT blockX || ' x ' || blockY || ' x ' || blockZ || ' (256 threads)'" + kKernel));
  EXPECT_EQ(shown("Registers per thread"), fromSql("SELECT registersPerThread" + kKernel));
  EXPECT_EQ(shown("Static shared memory"), fromSql("SELECT staticSharedMemory || ' B'" + kKernel));
  EXPECT_EQ(shown("Dynamic shared memory"), fromSql("SELECT dynamicSharedMemory || ' B'" + kKernel));
  EXPECT_EQ(shown("Stream"), fromSql("SELECT streamId" + kKernel));
  EXPECT_EQ(shown("Context"), fromSql("SELECT contextId" + kKernel));
  EXPECT_EQ(shown("Correlation ID"), fromSql("SELECT correlationId" + kKernel));
  EXPECT_EQ(shown("Device"), QStringLiteral("NVIDIA H100 80GB HBM3 (device 0)"));
  EXPECT_EQ(shown("Duration"),
            QString::fromStdString(detail_text::duration(sqlInt(*transposeTrace(), "SELECT end - start" + kKernel))));
  EXPECT_EQ(shown("API call", "Launched by"), QStringLiteral("cudaLaunchKernel_v7000"));
  EXPECT_EQ(shown("Thread", "Launched by"), QStringLiteral("transpose (tid 469)"));
  int64_t latency = sqlInt(*transposeTrace(),
                           "SELECT k.start - r.end FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN "
                           "CUPTI_ACTIVITY_KIND_RUNTIME r USING (correlationId) WHERE k.rowid = 1");
  EXPECT_EQ(shown("Queue latency"), QString::fromStdString(detail_text::queueLatency(latency, 0)));
  EXPECT_EQ(shown("Occupancy", "Theoretical occupancy"), QStringLiteral("100.0 %"));
  EXPECT_EQ(shown("Limited by"), QStringLiteral("warps per SM"));
  EXPECT_FALSE(panel.launchingCallButton()->isHidden());
  EXPECT_TRUE(panel.launchedWorkButton()->isHidden());
}

TEST_F(DetailsPanelTest, ButtonsJumpBetweenCallAndKernel) {
  session.select(kernel);
  QTest::mouseClick(panel.launchingCallButton(), Qt::LeftButton);
  ASSERT_TRUE(session.selection());
  EXPECT_EQ(*session.selection(), call);
  EXPECT_EQ(panel.details().kind, "CUDA API call");
  EXPECT_EQ(shown("Correlation ID"), QStringLiteral("128"));
  EXPECT_FALSE(panel.launchedWorkButton()->isHidden());
  QTest::mouseClick(panel.launchedWorkButton(), Qt::LeftButton);
  EXPECT_EQ(*session.selection(), kernel);
  EXPECT_LE(session.viewStart(), transposeTrace()->start(kernel));
  EXPECT_GE(session.viewEnd(), transposeTrace()->end(kernel));
}

TEST_F(DetailsPanelTest, ClickingALinkFieldSelectsItsEvent) {
  session.select(kernel);
  auto items = panel.tree()->findItems(QStringLiteral("API call"), Qt::MatchExactly | Qt::MatchRecursive, 0);
  ASSERT_EQ(items.size(), 1);
  QRect rect = panel.tree()->visualItemRect(items[0]);
  int valueX = panel.tree()->header()->sectionPosition(1) + 5;
  QTest::mouseClick(panel.tree()->viewport(), Qt::LeftButton, {}, QPoint(valueX, rect.center().y()));
  EXPECT_TRUE(QTest::qWaitFor([&] { return session.selection() && *session.selection() == call; }));
  EXPECT_EQ(panel.details().kind, "CUDA API call");
}

TEST_F(DetailsPanelTest, CopiesFieldsAsText) {
  session.select(kernel);
  panel.copySelection();
  QString copied = QApplication::clipboard()->text();
  EXPECT_TRUE(copied.startsWith(QStringLiteral("transposeNaive\n"))) << copied.toStdString();
  EXPECT_TRUE(copied.contains(QStringLiteral("Grid\t256 x 128 x 1"))) << copied.toStdString();
}

}  // namespace
}  // namespace gpuscope::ui
