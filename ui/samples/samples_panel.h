#pragma once
// SamplesPanel: the CPU Samples tab. It reads the trace's samples once, off the GUI thread, the first time
// it is shown, and then shows those of the current scope (sample_scope.h), following the ruler's range and
// the timeline's selection: a call tree (bottom-up, top-down) or the per-function shares (Flat), beside a
// flame graph where the tab is wide (above it where it is not).
//
// The trees and the flame graph show stacks without unwinder junk frames (withoutJunkFrames); the flat view
// sets idle thread-pool samples apart and says so under the scope. A filter box keeps the rows whose
// function, or a callee's or caller's below it, matches. The tree and the flame graph select the same frame
// (top-down: the same node; other views: the row of the same function), and a function picked in either is
// highlighted on the timeline's thread-state rows (TraceSession::highlightedFunction). A function's context
// menu filters to it, copies its name, shows its callers or callees, or sets the ruler's range to where it ran.
#include <QFutureWatcher>
#include <QTimer>
#include <QWidget>
#include <memory>

#include "core/samples/sample_reader.h"

class QBoxLayout;
class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QModelIndex;
class QScrollArea;
class QSplitter;
class QTreeView;

namespace gpuscope::ui {

class FlameGraphView;
class SampleTreeModel;
class TableFilterProxy;
class TraceSession;

class SamplesPanel : public QWidget {
  Q_OBJECT
 public:
  explicit SamplesPanel(TraceSession* session, QWidget* parent = nullptr);
  ~SamplesPanel() override;

  SampleTreeModel* model() const { return model_; }
  // What the tree view shows: the model through the filter.
  TableFilterProxy* proxy() const { return proxy_; }
  FlameGraphView* flameGraph() const { return flame_; }
  QTreeView* treeView() const { return tree_; }
  QComboBox* modeBox() const { return mode_; }
  QLineEdit* filterEdit() const { return filter_; }
  QSplitter* splitter() const { return split_; }
  QString scopeText() const;
  // What was set apart from the functions (idle pool threads, junk frames); empty when nothing was.
  QString setApartText() const;
  // Reads the samples now if they are not read yet, and waits for them (tests, screenshots).
  void waitForSamples();

  // The menu of function LABEL (functionLabel), as a right click on a row or a frame opens it; the caller
  // owns it.
  QMenu* createFunctionMenu(const QString& label, QWidget* parent);
  // What its actions do.
  void filterTo(const QString& label);
  void showCallers(const QString& label);
  void showCallees(const QString& label);
  void selectWhereItRan(const QString& label);

 protected:
  void showEvent(QShowEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void onTraceChanged();
  void startReading();
  void onSamplesRead();
  void refresh();
  void setMode(int mode);
  void updateOrientation();
  void fitFunctionColumn();
  void onCurrentRowChanged(const QModelIndex& current);
  void onFlameClicked(int32_t node);
  void openMenu(const QString& label, QPoint globalPosition);
  // Expands the tree to show the rows whose function is LABEL (EXACT) or contains it, the first of them made
  // current, and with OPEN_MATCHES what lies beneath them.
  void revealFunction(const QString& label, bool exact, bool openMatches);

  TraceSession* session_;
  QLabel* scope_;
  QLabel* apart_;
  QComboBox* mode_;
  QLineEdit* filter_;
  QWidget* controls_;        // the scope, filter and view picker, and what was set apart
  QBoxLayout* top_;          // the scope beside the pickers (stacked layout), or above them
  QBoxLayout* layout_;       // the tab's: the controls (stacked layout) and the splitter
  QBoxLayout* flameColumn_;  // the flame graph's side: the controls (side by side) and the flame graph
  QSplitter* split_;
  QTreeView* tree_;
  SampleTreeModel* model_;
  TableFilterProxy* proxy_;
  FlameGraphView* flame_;
  QScrollArea* flameScroll_;
  QTimer fitLater_;  // fits the function column to the rows once expanding is done
  QFutureWatcher<SampleRead> reader_;
  std::shared_ptr<const CpuSamples> all_;    // every sample of the trace, once read
  std::shared_ptr<const CpuSamples> clean_;  // the scope's samples without junk frames
  QString unavailable_;                      // why there is nothing to show, once read
  bool readStarted_ = false;
  bool syncing_ = false;  // while the tree follows the flame graph
};

}  // namespace gpuscope::ui
