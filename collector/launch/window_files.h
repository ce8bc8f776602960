#pragma once
// WindowFiles: the trace files of a recording's windows (collector/daemon/trace_daemon.h, WindowSink). A
// window opens when the session gate opens (`record` at once, a capture range, `gpuscope start`) and its
// file is written, complete, when the gate closes (the range's end, `gpuscope stop`, the program's end).
// A cancelled window's file is thrown away. Called on the daemon's thread; what the control channel and
// the recorder ask of it (the files so far, the next file's name) is guarded by a lock.
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "collector/daemon/trace_daemon.h"
#include "collector/launch/record_files.h"
#include "collector/launch/record_sampling.h"
#include "core/write/trace_writer.h"

namespace gpuscope {

// How windows are named: one file (`record`, one capture range), or numbered as nsys numbers repeated
// ranges: run.sqlite -> run.1.sqlite, run.2.sqlite, ...
struct WindowNaming {
  std::string path;       // the file, or the base the numbers go into
  bool numbered = false;  // each window its own numbered file
  bool forceOverwrite = false;
};

// The file PATH's window number N is written to: run.sqlite -> run.N.sqlite.
std::string numberedPath(const std::string& path, int number);

// What every window's file says about the recording.
struct WindowFileFacts {
  WriterOptions writer;
  std::string recordOptions;        // GPUSCOPE_META record_options
  std::string kernelNameDemangler;  // empty when CUDA is not traced
  std::string trigger;           // GPUSCOPE_META capture_trigger: "record", "cudaProfilerApi", "nvtx:step 5", "start"
  bool profiledMetrics = false;  // --metrics roofline
  // `record --delay` and `--duration`: the window starts this long after the gate opened and lasts this long.
  int64_t delayNs = 0;
  int64_t durationNs = 0;
};

// One finished window, for the summary and the control channel.
struct WrittenWindow {
  std::string path;
  double seconds = 0;
  RecordCounts counts;
  TransportCounts transport;
  transport::WindowEndReason reason = transport::WindowEndReason::Stopped;
};

class WindowFiles : public WindowSink {
 public:
  WindowFiles(WindowNaming naming, WindowFileFacts facts, RecordSampling& sampling);

  // The next window's file instead of the naming's (`gpuscope start -o FILE`). Throws TraceError with one
  // sentence when it exists (and --force-overwrite was not given) or its directory does not.
  void setNextPath(const std::string& path);
  // The path the next window will be written to (checked as setNextPath checks it).
  std::string nextPath();
  // The program's exit status, for the file of a window the program's end closes.
  void setExitStatus(int status);

  TraceWriter& windowOpened(const WindowSpan& span, CaptureWindow& window) override;
  void windowClosed(const WindowSpan& span, const TraceDaemon& daemon) override;

  std::vector<WrittenWindow> written() const;
  // Windows closed so far, written or thrown away.
  uint64_t closedWindows() const;
  // Waits until more than CLOSED windows closed or TIMEOUT_MS passed; returns the count then.
  uint64_t waitForClose(uint64_t closed, int timeoutMs) const;
  // Why the last window could not be written, or empty.
  std::string lastFailure() const;

 private:
  struct OpenFile {
    std::unique_ptr<PartialOutput> output;
    std::unique_ptr<TraceWriter> writer;
    int64_t origin = 0, begin = 0, end = 0;
    int64_t sessionStartUtcNs = 0;
  };
  std::string checkedPath(const std::string& path) const;
  void finishFile(const WindowSpan& span, const TraceDaemon& daemon);

  WindowNaming naming_;
  WindowFileFacts facts_;
  RecordSampling& sampling_;
  std::optional<OpenFile> open_;  // the daemon thread's only
  mutable std::mutex lock_;       // guards the fields below
  mutable std::condition_variable closed_;
  std::string nextPath_;
  int nextNumber_ = 1;
  std::optional<int> exitStatus_;
  std::vector<WrittenWindow> written_;
  uint64_t closedWindows_ = 0;
  std::string lastFailure_;
};

}  // namespace gpuscope
