// A file dropped on the Roofline tab is opened as one dropped on the timeline is (issue 30, point 9b). The
// chart is a QGraphicsView, which took every drag for its scene and then refused it: the cursor said no.
#include <gtest/gtest.h>

#include <QApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QUrl>

#include "tests/ui/shell/shell_fixtures.h"
#include "tests/ui/test_timeouts.h"
#include "ui/main_window/main_window.h"
#include "ui/roofline/roofline_chart_view.h"
#include "ui/roofline/roofline_view.h"

namespace gpuscope::ui {
namespace {

using test::fixturePath;
using test::kTimeoutMs;

// What a drag of FILE over TARGET meets, as Qt delivers it: the enter, a move (the one whose answer the
// cursor shows, and without which there is no drop), then the drop.
struct DragOutcome {
  bool entered = false;
  bool moved = false;
  bool dropped = false;
};

DragOutcome dragOnto(QWidget* target, const QString& file) {
  QMimeData mime;
  mime.setUrls({QUrl::fromLocalFile(file)});
  const QPoint point(target->width() / 2, target->height() / 2);
  DragOutcome outcome;
  QDragEnterEvent enter(point, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(target, &enter);
  outcome.entered = enter.isAccepted();
  if (!outcome.entered) return outcome;
  QDragMoveEvent move(point, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(target, &move);
  outcome.moved = move.isAccepted();
  if (!outcome.moved) return outcome;
  QDropEvent drop(QPointF(point), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(target, &drop);
  outcome.dropped = drop.isAccepted();
  return outcome;
}

TEST(RooflineDrop, ATraceDroppedOnTheRooflineTabOpensAsOnTheTimeline) {
  QTemporaryDir dir;
  MainWindow window(std::make_unique<QSettings>(dir.filePath("settings.ini"), QSettings::IniFormat));
  QStringList errors;
  window.setErrorReporter([&errors](const QString&, const QString& message) { errors << message; });
  window.resize(1200, 800);
  window.show();
  QSignalSpy loaded(&window, &MainWindow::traceLoaded);
  window.openFile(fixturePath("nsys/transpose.sqlite"));
  ASSERT_TRUE(loaded.wait(kTimeoutMs));
  window.views()->setCurrentWidget(window.rooflineView());
  QApplication::processEvents();

  const QString other = fixturePath("nsys/loader2.sqlite");
  for (QWidget* target : {static_cast<QWidget*>(window.rooflineView()->chartView()->viewport()),
                          static_cast<QWidget*>(window.rooflineView()->chartView())}) {
    DragOutcome outcome = dragOnto(target, other);
    EXPECT_TRUE(outcome.entered);
    EXPECT_TRUE(outcome.moved) << "the cursor refuses the drop";
    EXPECT_TRUE(outcome.dropped);
  }
  ASSERT_TRUE(loaded.wait(kTimeoutMs)) << errors.join(' ').toStdString();
  EXPECT_EQ(loaded.last().at(0).toString(), QFileInfo(other).absoluteFilePath());
}

}  // namespace
}  // namespace gpuscope::ui
