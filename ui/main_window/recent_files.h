#pragma once
// RecentFiles: the most recently opened traces, newest first, kept in QSettings.
#include <QObject>
#include <QStringList>
#include <optional>

class QSettings;

namespace gpuscope::ui {

// Paths are stored absolute. Files that no longer exist are pruned whenever the list is read. The temporary files
// gpuscope makes (core/open/temp_trace_file.h: the ranks it merged) are never listed.
class RecentFiles : public QObject {
  Q_OBJECT
 public:
  static constexpr int kMaximum = 10;

  // SETTINGS is not owned and must outlive this object.
  explicit RecentFiles(QSettings* settings, QObject* parent = nullptr);

  // The existing files, newest first; missing ones are removed from the settings as a side effect.
  QStringList files();
  // Moves PATH to the front (adding it if new) and drops the oldest beyond kMaximum.
  void add(const QString& path);
  void remove(const QString& path);
  void clear();
  // Read-only: the list still prunes and reorders in memory, but nothing is written back.
  void setReadOnly(bool readOnly) { readOnly_ = readOnly; }

 signals:
  void changed();

 private:
  QStringList stored() const;
  void store(const QStringList& files);

  QSettings* settings_;
  bool readOnly_ = false;
  std::optional<QStringList> unsaved_;  // the list while read-only, once it differs from the settings
};

}  // namespace gpuscope::ui
