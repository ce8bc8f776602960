#include "ui/launch/rank_launch.h"

#include <QFileInfo>
#include <string>
#include <vector>

#include "core/ranks/trace_merge.h"

namespace gpuscope::ui {
namespace {

// "rank0+rank1.sqlite", or "rank0+rank1+6 more.sqlite" past three inputs: what the title bar shows.
QString mergedName(const QStringList& files) {
  QStringList names;
  for (qsizetype i = 0; i < files.size() && i < 3; ++i) {
    QString name = QFileInfo(files[i]).fileName();
    for (const char* suffix : {".gz", ".json", ".sqlite"})
      if (name.endsWith(QLatin1String(suffix)))
        name.chop(static_cast<qsizetype>(std::char_traits<char>::length(suffix)));
    names << name;
  }
  if (files.size() > 3) names << QStringLiteral("%1 more").arg(files.size() - 3);
  return names.join(QLatin1Char('+')) + QStringLiteral(".sqlite");
}

}  // namespace

MergedRankFile::MergedRankFile() = default;
MergedRankFile::~MergedRankFile() = default;

std::optional<QString> MergedRankFile::merge(const QStringList& files, bool relative, bool alignCollectives) {
  std::vector<std::string> inputs;
  for (const QString& file : files) inputs.push_back(file.toStdString());
  MergeOptions options;
  options.clock = relative ? MergeClock::Relative : MergeClock::Absolute;
  options.alignCollectives = alignCollectives;
  try {
    file_.emplace(mergedName(files).toStdString());
    path_ = QString::fromStdString(file_->path());
    mergeTraces(inputs, file_->path(), options);
  } catch (const std::exception& error) {  // TraceError's one sentence, or the database's
    return QString::fromStdString(error.what());
  }
  return std::nullopt;
}

}  // namespace gpuscope::ui
