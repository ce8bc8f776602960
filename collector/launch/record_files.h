#pragma once
// The files a recording owns while it runs: the session directory of ring files on tmpfs, and the
// trace being written next to its final name. Both are removed when the recording fails, so a
// failed or interrupted `record` leaves nothing behind, and an existing trace is only replaced by
// a complete one.
#include <string>
#include <vector>

namespace gpuscope {

// A directory on tmpfs (/dev/shm, else $TMPDIR or /tmp) for the ring files of one recording. It
// holds an owner file naming this recorder (pid and start time) and the trace it writes, so a later
// `record` can tell the directory of a recorder that was killed from one still in use, and say
// where its trace is. Removed on destruction.
class SessionDirectory {
 public:
  explicit SessionDirectory(const std::string& tracePath);
  ~SessionDirectory();
  SessionDirectory(const SessionDirectory&) = delete;
  SessionDirectory& operator=(const SessionDirectory&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct StaleSessions {
  int removed = 0;                  // session directories removed
  std::vector<std::string> traces;  // what their recorders were writing, where it is still there
};

// Removes the session directories (gpuscope-*, in /dev/shm, $TMPDIR and /tmp) whose owner file
// names a recorder that is no longer running.
StaleSessions removeStaleSessionDirectories();

// Makes the trace a recorder killed with SIGKILL left (FINAL.<pid>.recording, committed every half
// second) a complete trace file at FINAL: what it had committed, with the metadata and indexes
// that the recorder writes at the end, and GPUSCOPE_META recovered. Returns FINAL. Throws
// TraceError (one sentence) when PATH is no such file, its recorder still runs, or FINAL exists.
std::string recoverRecording(const std::string& path);

// The trace file being recorded: written under a temporary name beside FINALPATH
// (FINALPATH.<pid>.recording) and renamed into place by commit(), replacing an existing file only
// then. Without commit() the temporary file is removed.
class PartialOutput {
 public:
  explicit PartialOutput(std::string finalPath);
  ~PartialOutput();
  PartialOutput(const PartialOutput&) = delete;
  PartialOutput& operator=(const PartialOutput&) = delete;

  const std::string& writingPath() const { return writingPath_; }
  const std::string& finalPath() const { return finalPath_; }
  // Renames the finished file into place; throws TraceError when that fails.
  void commit();

 private:
  std::string finalPath_;
  std::string writingPath_;
  bool committed_ = false;
};

}  // namespace gpuscope
