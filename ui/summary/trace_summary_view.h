#pragma once
// TraceSummaryView: what a trace holds (span, processes, threads, GPUs, streams, event counts), as a page.
#include <QWidget>

class QGridLayout;
class QLabel;
class QPushButton;
class QTreeWidget;

namespace gpuscope {
class Trace;
}

namespace gpuscope::ui {

class TraceSession;

// The facts `gpuscope info` prints, laid out as a header, three fact boxes (trace, event counts,
// GPUs) and two trees (processes > threads, GPUs > streams). Follows the session's trace.
class TraceSummaryView : public QWidget {
  Q_OBJECT
 public:
  explicit TraceSummaryView(TraceSession* session, QWidget* parent = nullptr);

  // For tests and for the lead's other views: the widgets that hold the facts.
  QTreeWidget* processTree() const { return processes_; }
  QTreeWidget* streamTree() const { return streams_; }
  QTreeWidget* deviceTable() const { return devices_; }
  // The value shown for KEY: "kernels", "memcpys", "memsets", "syncs", "cudaApi", "nvtx", "osrt",
  // "total", "start", "end", "duration", "fileSize", "processes", "threads", "gpus", "streams",
  // "tracks". Empty when there is no such fact.
  QString valueText(const QString& key) const;

 private:
  void rebuild();
  void clear();
  void fillHeader(const Trace& trace);
  void fillFacts(const Trace& trace);
  void fillCounts(const Trace& trace);
  void fillDevices(const Trace& trace);
  void fillProcesses(const Trace& trace);
  void fillStreams(const Trace& trace);
  void copyAsText();
  QLabel* addValueRow(QGridLayout* grid, const QString& key, const QString& caption, bool emphasized = false);

  TraceSession* session_;
  QLabel* title_;
  QLabel* path_;
  QLabel* headline_;
  QPushButton* copyButton_;
  QTreeWidget* devices_;
  QTreeWidget* processes_;
  QTreeWidget* streams_;
};

}  // namespace gpuscope::ui
