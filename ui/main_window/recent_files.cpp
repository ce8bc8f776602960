#include "ui/main_window/recent_files.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSettings>

namespace gpuscope::ui {

namespace {

const QString kKey = QStringLiteral("recentFiles");

QString normalized(const QString& path) {
  QFileInfo info(path);
  QString canonical = info.canonicalFilePath();
  return canonical.isEmpty() ? info.absoluteFilePath() : canonical;
}

// A file gpuscope made for a while and removes (core/open/temp_trace_file.h: NAME alone in a folder gpuscope-XXXXXX of
// the temporary folder), such as the ranks `gpuscope-ui --ranks` merged: gone once its window closes, and never
// opened again by its name, so never a recent file.
bool isTemporaryTrace(const QString& path) {
  const QFileInfo folder(QFileInfo(path).absolutePath());
  static const QRegularExpression kFolder(QStringLiteral("^gpuscope-[A-Za-z0-9]{6}$"));
  if (!kFolder.match(folder.fileName()).hasMatch()) return false;
  const QString temporary = QFileInfo(QDir::tempPath()).canonicalFilePath();
  const QString parent = QFileInfo(folder.absolutePath()).canonicalFilePath();
  return !temporary.isEmpty() && parent == temporary;
}

}  // namespace

RecentFiles::RecentFiles(QSettings* settings, QObject* parent) : QObject(parent), settings_(settings) {}

QStringList RecentFiles::files() {
  const QStringList all = stored();
  QStringList existing;
  for (const QString& path : all) {
    if (QFileInfo(path).isFile() && !isTemporaryTrace(path) && !existing.contains(path)) existing.append(path);
  }
  if (existing.size() > kMaximum) existing.erase(existing.begin() + kMaximum, existing.end());
  if (existing != all) {
    store(existing);
    emit changed();
  }
  return existing;
}

void RecentFiles::add(const QString& path) {
  const QString file = normalized(path);
  if (isTemporaryTrace(file)) return;
  QStringList list = stored();
  list.removeAll(file);
  list.prepend(file);
  if (list.size() > kMaximum) list.erase(list.begin() + kMaximum, list.end());
  store(list);
  emit changed();
}

void RecentFiles::remove(const QString& path) {
  QStringList list = stored();
  if (list.removeAll(normalized(path)) + list.removeAll(path) == 0) return;
  store(list);
  emit changed();
}

void RecentFiles::clear() {
  if (stored().isEmpty()) return;
  store({});
  emit changed();
}

QStringList RecentFiles::stored() const { return unsaved_ ? *unsaved_ : settings_->value(kKey).toStringList(); }

void RecentFiles::store(const QStringList& files) {
  if (readOnly_) {
    unsaved_ = files;
    return;
  }
  settings_->setValue(kKey, files);
  settings_->sync();
}

}  // namespace gpuscope::ui
