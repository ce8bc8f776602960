#include "ui/main_window/trace_file_names.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStringList>
#include <string_view>

#include "core/open/trace_formats.h"

namespace gpuscope::ui {
namespace {

QString fileNamesText(const char* text) { return QCoreApplication::translate("TraceFileNames", text); }

QString utf8(std::string_view text) { return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())); }

// FOLDER with the home folder written "~", as a shell prompt shows it.
QString shortFolder(const QString& folder) {
  const QString home = QDir::homePath();
  if (home.isEmpty() || home == QDir::rootPath()) return QDir::toNativeSeparators(folder);
  if (folder == home) return QStringLiteral("~");
  if (folder.startsWith(home + QLatin1Char('/')))
    return QDir::toNativeSeparators(QStringLiteral("~") + folder.mid(home.size()));
  return QDir::toNativeSeparators(folder);
}

}  // namespace

QString traceFileFilter() {
  QStringList all;
  QStringList each;
  for (const TraceFormat& format : traceFormats()) {
    if (format.fileNames.empty()) continue;
    all << utf8(format.fileNames);
    each << QStringLiteral("%1 (%2)").arg(utf8(format.name), utf8(format.fileNames));
  }
  QStringList filters{fileNamesText("Trace files (%1)").arg(all.join(QLatin1Char(' ')))};
  filters << each << fileNamesText("All files (*)");
  return filters.join(QStringLiteral(";;"));
}

QString traceWindowTitle(const QString& path, const QString& where) {
  if (path.isEmpty()) return fileNamesText("gpuscope");
  const QFileInfo info(path);
  return fileNamesText("gpuscope — %1 (%2)")
      .arg(info.fileName(), where.isEmpty() ? shortFolder(info.absolutePath()) : where);
}

}  // namespace gpuscope::ui
