#pragma once
// `gpuscope-ui --ranks A B ...`: the rank files of one run merged (core/ranks, as `gpuscope merge` does) into a
// temporary file (core/open/temp_trace_file.h) that lives as long as the viewer, then opened as one trace whose rows
// are grouped by host and rank.
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>

#include "core/open/temp_trace_file.h"

namespace gpuscope::ui {

class MergedRankFile {
 public:
  MergedRankFile();
  ~MergedRankFile();
  // Merges FILES on one clock as `gpuscope merge` does: by their session starts, or each at its own start with
  // RELATIVE, then moved to line up their collectives with ALIGN_COLLECTIVES; the error sentence when a file
  // cannot be read or merged.
  std::optional<QString> merge(const QStringList& files, bool relative, bool alignCollectives);
  // The merged file, named after the inputs ("rank0+rank1.sqlite").
  const QString& path() const { return path_; }

 private:
  std::optional<TempTraceFile> file_;
  QString path_;
};

}  // namespace gpuscope::ui
