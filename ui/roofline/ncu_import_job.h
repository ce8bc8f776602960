#pragma once
// NcuImportJob: File > Import ncu Metrics in the background. It runs the same core function as
// `gpuscope import-ncu` (importNcuMetrics) on a pool thread, writing into a copy of the trace or into the trace
// itself, and reports to the GUI thread once: finished with the file to open and what was done, or failed
// with one sentence.
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QStringList>

#include "core/ncu/ncu_import.h"

class QWidget;

namespace gpuscope::ui {

class NcuImportJob : public QObject {
  Q_OBJECT
 public:
  explicit NcuImportJob(QObject* parent = nullptr);
  ~NcuImportJob() override;

  // Starts an import; false (and nothing started) while another one runs.
  bool start(const NcuImportOptions& options);
  bool isRunning() const { return watcher_.isRunning(); }

 signals:
  // TARGET is the file that now holds the metrics; SUMMARY says how many launches were attached, NOTES what
  // was skipped.
  void finished(const QString& target, const QString& summary, const QStringList& notes);
  void failed(const QString& message);

 private:
  struct Result {
    QString error;  // empty on success
    QString summary;
    QStringList notes;
  };
  void collect();

  QFutureWatcher<Result> watcher_;
  QString target_;
};

// Asks for the ncu CSV report and where the metrics go (a new copy of TRACE_PATH, or TRACE_PATH itself, as
// `import-ncu -o` and `--in-place` do); false when the user cancels.
bool askNcuImport(QWidget* parent, const QString& tracePath, NcuImportOptions& options);

}  // namespace gpuscope::ui
