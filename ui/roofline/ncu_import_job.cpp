#include "ui/roofline/ncu_import_job.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QtConcurrent/QtConcurrentRun>
#include <exception>

namespace gpuscope::ui {

NcuImportJob::NcuImportJob(QObject* parent) : QObject(parent) {
  connect(&watcher_, &QFutureWatcher<Result>::finished, this, &NcuImportJob::collect);
}

// A run still going keeps its own copies of the options; its result is simply never collected.
NcuImportJob::~NcuImportJob() = default;

bool NcuImportJob::start(const NcuImportOptions& options) {
  if (isRunning()) return false;
  target_ = QString::fromStdString(options.inPlace ? options.tracePath : options.outputPath);
  watcher_.setFuture(QtConcurrent::run([options] {
    Result result;
    try {
      auto match = importNcuMetrics(options);
      result.summary =
          QString::fromStdString(ncuImportSummary(match, options.inPlace ? options.tracePath : options.outputPath));
      for (const auto& note : ncuImportNotes(match)) result.notes << QString::fromStdString(note);
    } catch (const std::exception& error) {
      result.error = QString::fromUtf8(error.what());
    }
    return result;
  }));
  return true;
}

void NcuImportJob::collect() {
  Result result = watcher_.result();
  if (result.error.isEmpty())
    emit finished(target_, result.summary, result.notes);
  else
    emit failed(result.error);
}

bool askNcuImport(QWidget* parent, const QString& tracePath, NcuImportOptions& options) {
  QFileInfo trace(tracePath);
  QString report = QFileDialog::getOpenFileName(parent, QObject::tr("Import ncu Metrics"), trace.absolutePath(),
                                                QObject::tr("ncu CSV reports (*.csv);;All files (*)"));
  if (report.isEmpty()) return false;
  QMessageBox where(QMessageBox::Question, QObject::tr("Import ncu Metrics"),
                    QObject::tr("Where should the metrics of %1 go?").arg(QFileInfo(report).fileName()),
                    QMessageBox::Cancel, parent);
  where.setInformativeText(QObject::tr("A copy leaves %1 unchanged, as `gpuscope import-ncu -o` does; adding "
                                       "them to it changes the file, as `--in-place` does.")
                               .arg(trace.fileName()));
  QPushButton* copy = where.addButton(QObject::tr("Into a New Copy…"), QMessageBox::AcceptRole);
  QPushButton* inPlace = where.addButton(QObject::tr("Into %1").arg(trace.fileName()), QMessageBox::DestructiveRole);
  where.setDefaultButton(copy);
  where.exec();
  options = {};
  options.tracePath = tracePath.toStdString();
  options.ncuCsvPath = report.toStdString();
  if (where.clickedButton() == inPlace) {
    options.inPlace = true;
    return true;
  }
  if (where.clickedButton() != copy) return false;
  QString suggested = trace.absolutePath() + "/" + trace.completeBaseName() + "_metrics.sqlite";
  QString output = QFileDialog::getSaveFileName(parent, QObject::tr("Save the Trace with Metrics As"), suggested,
                                                QObject::tr("Traces (*.sqlite);;All files (*)"));
  if (output.isEmpty()) return false;
  options.outputPath = output.toStdString();
  return true;
}

}  // namespace gpuscope::ui
