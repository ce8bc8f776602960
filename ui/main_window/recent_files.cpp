#include "ui/main_window/recent_files.h"

#include <QFileInfo>
#include <QSettings>

namespace gpuscope::ui {

namespace {

const QString kKey = QStringLiteral("recentFiles");

QString normalized(const QString& path) {
  QFileInfo info(path);
  QString canonical = info.canonicalFilePath();
  return canonical.isEmpty() ? info.absoluteFilePath() : canonical;
}

}  // namespace

RecentFiles::RecentFiles(QSettings* settings, QObject* parent) : QObject(parent), settings_(settings) {}

QStringList RecentFiles::files() {
  const QStringList all = stored();
  QStringList existing;
  for (const QString& path : all) {
    if (QFileInfo(path).isFile() && !existing.contains(path)) existing.append(path);
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
