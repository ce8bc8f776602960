#pragma once
// SamplesPanel: the CPU Samples tab. It reads the trace's samples once, off the GUI thread, the first time
// it is shown, and then shows those of the current scope (sample_scope.h), following the ruler's range and
// the timeline's selection: a call tree (bottom-up, top-down) or a flat list above a flame graph.
#include <QFutureWatcher>
#include <QWidget>
#include <memory>

#include "core/samples/sample_reader.h"

class QComboBox;
class QLabel;
class QTreeView;

namespace gpuscope::ui {

class FlameGraphView;
class SampleTreeModel;
class TraceSession;

class SamplesPanel : public QWidget {
  Q_OBJECT
 public:
  explicit SamplesPanel(TraceSession* session, QWidget* parent = nullptr);
  ~SamplesPanel() override;

  SampleTreeModel* model() const { return model_; }
  FlameGraphView* flameGraph() const { return flame_; }
  QTreeView* treeView() const { return tree_; }
  QComboBox* modeBox() const { return mode_; }
  QString scopeText() const;
  // Reads the samples now if they are not read yet, and waits for them (tests, screenshots).
  void waitForSamples();

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  void onTraceChanged();
  void startReading();
  void onSamplesRead();
  void refresh();

  TraceSession* session_;
  QLabel* scope_;
  QComboBox* mode_;
  QTreeView* tree_;
  SampleTreeModel* model_;
  FlameGraphView* flame_;
  QFutureWatcher<SampleRead> reader_;
  std::shared_ptr<const CpuSamples> all_;  // every sample of the trace, once read
  QString unavailable_;                    // why there is nothing to show, once read
  bool readStarted_ = false;
};

}  // namespace gpuscope::ui
