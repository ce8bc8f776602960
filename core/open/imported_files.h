#pragma once
// ImportedFiles: the SQLite traces the door made from files of other formats, one per version of a source
// file (path, size, modification time) and process, made on first use, reused after, removed at exit.
#include <map>
#include <mutex>
#include <string>

#include "core/open/temp_trace_file.h"
#include "core/open/trace_formats.h"

namespace gpuscope {

class ImportedFiles {
 public:
  ImportedFiles() = default;
  ImportedFiles(const ImportedFiles&) = delete;
  ImportedFiles& operator=(const ImportedFiles&) = delete;

  // The SQLite trace made from SOURCE by FORMAT's import: made now on the first call for this version of
  // SOURCE (in the temporary folder), the same file on later calls. Throws the import's TraceError, leaving
  // nothing behind.
  std::string sqliteFileFor(const std::string& source, const TraceFormat& format);

  // The one set a process keeps.
  static ImportedFiles& ofThisProcess();

 private:
  std::mutex mutex_;
  std::map<std::string, TempTraceFile> files_;  // source version (versionKey) -> the SQLite trace made from it
};

}  // namespace gpuscope
