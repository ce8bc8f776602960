#pragma once
// DetailsPanel: what the file says about the selected event or CPU sample, as sections of copyable fields,
// with links that jump between an API call and the GPU work it launched; a kernel with metrics also shows its
// roofline counters and its place under the roofs.
#include <QWidget>
#include <memory>
#include <vector>

#include "core/details/event_details.h"
#include "core/roofline/roofline_chart.h"

class QLabel;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace gpuscope::ui {

class TraceSession;

class DetailsPanel : public QWidget {
  Q_OBJECT
 public:
  DetailsPanel(TraceSession* session, QWidget* parent = nullptr);

  // The description shown (empty title when nothing is selected).
  const EventDetails& details() const { return details_; }
  // The value shown for the first field labelled LABEL (in SECTION when given); empty when none.
  QString shownValue(const QString& label, const QString& section = {}) const;
  QTreeWidget* tree() const { return tree_; }
  QPushButton* launchingCallButton() const { return toCall_; }
  QPushButton* launchedWorkButton() const { return toWork_; }

 public slots:
  // Selects (and zooms to) the API call that launched the selected GPU work, or the selected call's first
  // piece of GPU work; nothing when there is none.
  void jumpToLaunchingCall();
  void jumpToLaunchedWork();
  // Copies the selected fields (all fields when none is selected) as "label<TAB>value" lines.
  void copySelection() const;

 protected:
  // The tree's viewport resized: the labels' column fits it again. Not the panel's resizeEvent: the viewport
  // gets its width after that, and a pane filled while hidden (a kernel picked on another tab) is shown
  // without resizing at all.
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void buildLayout();
  void refresh();
  void fillTree();
  void fitFieldColumn();
  QTreeWidgetItem* addField(QTreeWidgetItem* section, const DetailField& field);
  void openLink(QTreeWidgetItem* item);
  void addRooflineSections(EventRef event);

  TraceSession* session_;
  EventDetails details_;
  std::vector<EventRef> links_;  // targets of link fields, by the index their items store
  // The trace's kernels with metrics and its device roofs, read on the first kernel selected.
  std::unique_ptr<RooflineChart> roofline_;
  QLabel* title_ = nullptr;
  QLabel* kind_ = nullptr;
  QLabel* empty_ = nullptr;
  QPushButton* toCall_ = nullptr;
  QPushButton* toWork_ = nullptr;
  QTreeWidget* tree_ = nullptr;
};

}  // namespace gpuscope::ui
