#pragma once
// TempTraceFile: a trace file gpuscope makes for a while and then removes: a PyTorch trace's import
// (core/open's ImportedFiles), rank files merged for `analyze` or the viewer's ranks window, one rank
// extracted for `diff`. The file lies alone in a private folder of its own, made with a unique name in
// the temporary folder, so that its name can be what the user sees ("rank0+rank1.sqlite") and whatever
// SQLite or the writer leave beside it (-journal, -wal, -shm, .gpu-lane) goes with it.
#include <string>

namespace gpuscope {

class TempTraceFile {
 public:
  // Makes the folder, gpuscope-XXXXXX in the temporary folder ($TMPDIR, else /tmp), and names FILE_NAME in
  // it; the file itself is the caller's to write. Throws TraceError with one sentence when no folder can be
  // made there.
  explicit TempTraceFile(const std::string& fileName = "trace.sqlite");
  // Removes the file, everything beside it and its folder.
  ~TempTraceFile();
  TempTraceFile(TempTraceFile&& other) noexcept;
  TempTraceFile& operator=(TempTraceFile&& other) noexcept;
  TempTraceFile(const TempTraceFile&) = delete;
  TempTraceFile& operator=(const TempTraceFile&) = delete;

  const std::string& path() const { return path_; }
  const std::string& folder() const { return folder_; }

 private:
  void remove() noexcept;

  std::string folder_;  // empty once moved from
  std::string path_;
};

}  // namespace gpuscope
