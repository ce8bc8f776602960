#pragma once
// TraceDaemon: drains the ring files of every recorded process in a session directory into a
// TraceAssembler, on a thread of its own, and deletes a ring file once its process is gone and
// everything it published was read.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "collector/daemon/trace_assembler.h"
#include "collector/transport/session_gate.h"

namespace gpuscope {

struct DaemonOptions {
  std::string sessionDir;
  CaptureWindow window;
  // How long the thread sleeps when a pass found nothing to read.
  std::chrono::microseconds idleSleep{2000};
  // Rows go to SQLite on a second thread (RowPipeline), so decoding and inserting overlap.
  bool threadedWriter = true;
  // How often what was read is committed to the file: a recorder killed with SIGKILL loses about
  // this much, plus what the writer had not reached yet.
  std::chrono::milliseconds commitInterval{500};
  // A flight recorder's: the open window is cut into files of this long (0: one file a window), each its own
  // segment, without closing the gate (WindowEndReason::Rotated).
  int64_t segmentNs = 0;
};

class TraceDaemon;

// A window of a windowed daemon: from the gate's open to its close.
struct WindowSpan {
  int64_t begin = 0;  // session clock
  int64_t end = 0;    // session clock; 0 while it runs
  transport::WindowEndReason reason = transport::WindowEndReason::Stopped;
  uint32_t lateProcesses = 0;  // CUDA processes that did not flush CUPTI for the close in time
};

// Where a windowed daemon's files come from and go (the recorder's session): called on the daemon's
// thread, between passes over the rings.
class WindowSink {
 public:
  virtual ~WindowSink() = default;
  // The gate opened at SPAN.begin: the file the window's rows go to. WINDOW comes as trace time 0 and the
  // first time kept at SPAN.begin, kept until the gate closes; the sink may narrow it (--delay, --duration).
  virtual TraceWriter& windowOpened(const WindowSpan& span, CaptureWindow& window) = 0;
  // Every row of the window is in its writer with the process, thread, GPU and stream tables; the sink adds
  // its own tables and finishes the file (or throws it away, for a cancelled window).
  virtual void windowClosed(const WindowSpan& span, const TraceDaemon& daemon) = 0;
  // A flight recorder's: the segment under way has grown past its share of the memory budget, so it ends
  // now rather than at its time (looked at every pass; called on the daemon's thread).
  virtual bool segmentFull() { return false; }
};

// Transport figures for the summary.
struct TransportCounts {
  uint64_t ringDropped = 0;  // records a process dropped (ring full, nested call)
  uint64_t corrupt = 0;      // damaged ring contents skipped
  uint64_t unreadable = 0;   // ring files that could not be opened
  uint32_t processes = 0;    // ring files seen
  uint32_t cudaTraced = 0;   // processes where CUPTI tracing was on
  uint32_t cuptiBusy = 0;    // processes where another profiler held CUPTI
  uint32_t cuptiFailed = 0;  // processes where CUPTI could not be set up (too old, refused): CUDA untraced
};

class TraceDaemon {
 public:
  TraceDaemon(TraceWriter& writer, DaemonOptions options);
  // Windowed: a window opens each time GATE opens and its file closes once the gate closed and every CUDA
  // process flushed CUPTI for it (or kCloseWait passed); SINK makes and finishes the files.
  TraceDaemon(DaemonOptions options, transport::SessionGate& gate, WindowSink& sink);
  // Stops the thread if it runs (without finishing the trace).
  ~TraceDaemon();
  TraceDaemon(const TraceDaemon&) = delete;
  TraceDaemon& operator=(const TraceDaemon&) = delete;

  // Called from the daemon thread for each diagnostic a process sends (CUPTI busy, ...).
  void setDiagnosticHandler(std::function<void(const Diagnostic&)> handler) { onDiagnostic_ = std::move(handler); }
  // Called on the daemon's thread for each NVTX range written (before start()).
  void setRangeHook(TraceAssembler::RangeHook hook) { assembler_.setRangeHook(std::move(hook)); }

  void start();
  // Ends the capture: stops the thread, waits up to GRACE for processes that still run, drains
  // everything once more, closes every process and writes the process, thread, GPU and stream
  // tables through the assembler. The writer can then be finished.
  void stop(std::chrono::milliseconds grace);
  // One synchronous pass over the directory (what the thread does in a loop); returns records read.
  size_t drainOnce();

  const RecordCounts& counts() const { return assembler_.counts(); }
  // Ends the segment under way at once and starts the next (a flight recorder's dump needs it on disk); any
  // thread. segmentsClosed() counts the segments ended so far.
  void requestRotation() { rotationRequested_.store(true, std::memory_order_release); }
  uint64_t segmentsClosed() const { return segmentsClosed_.load(std::memory_order_acquire); }
  // Events kept in the window under way, as of the last pass (any thread).
  uint64_t windowEvents() const { return windowEvents_.load(std::memory_order_relaxed); }
  // Rows for GPUSCOPE_KERNEL_METRICS (`record --metrics roofline`); complete once stop() returned.
  const std::vector<KernelMetrics>& kernelMetrics() const { return assembler_.kernelMetrics(); }
  // The OS-runtime rows' backtraces, by callchainId - 1; complete once stop() returned.
  const std::vector<OsrtBacktrace>& osrtBacktraces() const { return assembler_.osrtBacktraces(); }
  // GPUSCOPE_RANKS rows of the processes that had rank variables (see TraceAssembler::rankRows).
  std::vector<RankRow> rankRows() const { return assembler_.rankRows(); }
  TransportCounts transportCounts() const;
  // True once writing the trace failed (disk full, an unwritable file). From then on the daemon
  // keeps draining the rings and throws their records away, so the program never waits on a ring
  // that nobody empties; failure() says what went wrong.
  bool failed() const { return failed_.load(std::memory_order_acquire); }
  std::string failure() const;
  // Records read and thrown away after the failure.
  uint64_t discarded() const { return discarded_.load(std::memory_order_relaxed); }

 private:
  struct RingSource;
  void run();
  void scanDirectory();
  size_t drain(RingSource& source);
  void retire(RingSource& source);
  bool processGone(const RingSource& source) const;
  void fail(const std::exception& error);
  // Windowed: opens, ends and closes windows as the gate says (before and after each pass).
  void followGate();
  void openWindow(uint64_t generation);
  void rotateSegment();
  bool closeAcknowledged(uint64_t generation) const;
  void closeWindow(transport::WindowEndReason reason);

  TraceWriter* writer_ = nullptr;
  transport::SessionGate* gate_ = nullptr;
  WindowSink* sink_ = nullptr;
  uint64_t windowGeneration_ = 0;  // the gate generation that opened the window under way; 0: none
  uint64_t lastSeenGeneration_ = 0;
  int64_t windowEndLimit_ = 0;      // the open window's end as its sink set it (--duration)
  uint64_t closingGeneration_ = 0;  // the close being waited for; 0: none
  std::chrono::steady_clock::time_point closeDeadline_{};
  WindowSpan span_;
  std::atomic<uint64_t> windowEvents_{0};
  std::atomic<bool> rotationRequested_{false};
  std::atomic<uint64_t> segmentsClosed_{0};
  DaemonOptions options_;
  TraceAssembler assembler_;
  std::function<void(const Diagnostic&)> onDiagnostic_;
  std::map<std::string, std::unique_ptr<RingSource>> sources_;  // by file name
  std::vector<std::string> retired_;
  TransportCounts transport_;
  std::chrono::steady_clock::time_point lastScan_{};
  std::atomic<bool> stopping_{false};
  std::atomic<bool> failed_{false};
  std::atomic<uint64_t> discarded_{0};
  std::string failure_;  // guarded by mutex_
  std::thread thread_;
  mutable std::mutex mutex_;  // guards sources_, transport_ and failure_ between the thread and stop()
};

}  // namespace gpuscope
