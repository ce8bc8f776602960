#include "ui/roofline/ncu_import_job.h"

#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QProgressDialog>
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

QString askNcuReport(QWidget* parent, const QString& tracePath) {
  return QFileDialog::getOpenFileName(parent, QObject::tr("Import ncu Metrics"), QFileInfo(tracePath).absolutePath(),
                                      QObject::tr("ncu CSV reports (*.csv);;All files (*)"));
}

std::optional<NcuMatch> previewNcuMatch(QWidget* parent, const QString& tracePath, const QString& reportPath,
                                        QString& error) {
  struct Preview {
    std::optional<NcuMatch> match;
    QString error;
  };
  QFutureWatcher<Preview> watcher;
  QProgressDialog busy(
      QObject::tr("Matching %1 to %2…").arg(QFileInfo(reportPath).fileName(), QFileInfo(tracePath).fileName()),
      QObject::tr("Cancel"), 0, 0, parent);
  busy.setWindowTitle(QObject::tr("Import ncu Metrics"));
  busy.setWindowModality(Qt::WindowModal);
  busy.setMinimumDuration(0);
  QEventLoop loop;
  QObject::connect(&watcher, &QFutureWatcher<Preview>::finished, &loop, &QEventLoop::quit);
  QObject::connect(&busy, &QProgressDialog::canceled, &loop, &QEventLoop::quit);
  watcher.setFuture(QtConcurrent::run([trace = tracePath.toStdString(), report = reportPath.toStdString()] {
    Preview preview;
    try {
      preview.match = previewNcuImport(trace, report);
    } catch (const std::exception& failure) {
      preview.error = QString::fromUtf8(failure.what());
    }
    return preview;
  }));
  if (!watcher.isFinished()) {
    busy.show();
    loop.exec();
  }
  error.clear();
  if (!watcher.isFinished()) return std::nullopt;  // cancelled: the match finishes unseen
  Preview preview = watcher.result();
  error = preview.error;
  return preview.match;
}

bool confirmNcuImport(QWidget* parent, const QString& tracePath, const QString& reportPath, const NcuMatch& match,
                      NcuImportOptions& options) {
  QFileInfo trace(tracePath);
  QString report = QFileInfo(reportPath).fileName();
  QString matched = QString::fromStdString(ncuMatchedLaunches(match));
  bool partial = isPartialMatch(match);
  QMessageBox where(partial ? QMessageBox::Warning : QMessageBox::Question, QObject::tr("Import ncu Metrics"),
                    partial ? QObject::tr("Only %1 of %2 match kernels of %3.").arg(matched, report, trace.fileName())
                            : QObject::tr("%1 of %2 match kernels of %3. Where should their metrics go?")
                                  .arg(matched, report, trace.fileName()),
                    QMessageBox::Cancel, parent);
  QString copyOrInPlace = QObject::tr(
                              "A copy leaves %1 unchanged, as `gpuscope import-ncu -o` does; adding them to "
                              "it changes the file, as `--in-place` does.")
                              .arg(trace.fileName());
  if (partial) {
    // What the CLI prints as notes, in the details; the gist up front.
    QStringList notes;
    for (const auto& note : ncuImportNotes(match)) notes << QString::fromStdString(note);
    where.setInformativeText(QObject::tr("Were both recorded from the same program? The other launches would be "
                                         "left out, and metrics matched to the wrong kernels put points where they "
                                         "do not belong. Attach the %n matched launch(es) anyway?\n\n%1",
                                         "", static_cast<int>(match.rows.size()))
                                 .arg(copyOrInPlace));
    where.setDetailedText(notes.join('\n'));
  } else {
    where.setInformativeText(copyOrInPlace);
  }
  QPushButton* copy = where.addButton(QObject::tr("Into a New Copy…"), QMessageBox::AcceptRole);
  QPushButton* inPlace = where.addButton(QObject::tr("Into %1").arg(trace.fileName()), QMessageBox::DestructiveRole);
  where.setDefaultButton(partial ? qobject_cast<QPushButton*>(where.button(QMessageBox::Cancel)) : copy);
  where.exec();
  options = {};
  options.tracePath = tracePath.toStdString();
  options.ncuCsvPath = reportPath.toStdString();
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
