#pragma once
// WelcomeView: the empty state before a trace is open: how to open one, and the recent traces.
#include <QStringList>
#include <QWidget>

class QLabel;
class QPushButton;

namespace gpuscope::ui {

class WelcomeView : public QWidget {
  Q_OBJECT
 public:
  explicit WelcomeView(QWidget* parent = nullptr);

  void setRecentFiles(const QStringList& files);
  // While a first trace loads, the page says so instead of inviting another open.
  void setLoadingFile(const QString& path);

  // Highlights the page as a drop target while a file is dragged over the window.
  void setDropTargetActive(bool active);
  bool isDropTargetActive() const { return dropTargetActive_; }

  QPushButton* openButton() const { return openButton_; }
  QLabel* recentList() const { return recentList_; }

 signals:
  void openDialogRequested();
  void openRequested(const QString& path);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  // Leaves out the icon, then the line on formats, when the card would not fit the page's height otherwise: every
  // recent file shows, at 1280x720 too.
  void fitCard();

  QWidget* card_;
  QLabel* icon_;
  QLabel* formats_;
  QLabel* heading_;
  QLabel* hint_;
  QPushButton* openButton_;
  QLabel* recentCaption_;
  QLabel* recentList_;
  bool dropTargetActive_ = false;
};

}  // namespace gpuscope::ui
