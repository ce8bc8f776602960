#pragma once
// NcuImportJob: File > Import ncu Metrics in the background. It runs the same core function as
// `gpuscope import-ncu` (importNcuMetrics) on a pool thread, writing into a copy of the trace or into the trace
// itself, and reports to the GUI thread once: finished with the file to open and what was done, or failed
// with one sentence.
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QStringList>
#include <optional>

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

// File > Import ncu Metrics, step by step: the report, what it matches, then where the metrics go.
// Asks for the ncu CSV report of the trace at TRACE_PATH; empty when the user cancels.
QString askNcuReport(QWidget* parent, const QString& tracePath);
// Matches REPORT_PATH to the trace as `import-ncu` would (previewNcuImport), writing nothing, in the
// background behind a busy dialog. Nullopt with ERROR set to one sentence when it cannot (a bad file, no
// kernel of the report in the trace), with ERROR empty when the user cancels.
std::optional<NcuMatch> previewNcuMatch(QWidget* parent, const QString& tracePath, const QString& reportPath,
                                        QString& error);
// Says what MATCH found ("N of M profiled kernel launches ... match kernels of TRACE") and asks where the
// metrics go: a new copy of TRACE_PATH or TRACE_PATH itself, as `import-ncu -o` and `--in-place` do. A partial
// match is a warning that names what was skipped, and Cancel is its default. False when the user cancels.
bool confirmNcuImport(QWidget* parent, const QString& tracePath, const QString& reportPath, const NcuMatch& match,
                      NcuImportOptions& options);

}  // namespace gpuscope::ui
