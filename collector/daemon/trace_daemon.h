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
  // Stops the thread if it runs (without finishing the trace).
  ~TraceDaemon();
  TraceDaemon(const TraceDaemon&) = delete;
  TraceDaemon& operator=(const TraceDaemon&) = delete;

  // Called from the daemon thread for each diagnostic a process sends (CUPTI busy, ...).
  void setDiagnosticHandler(std::function<void(const Diagnostic&)> handler) { onDiagnostic_ = std::move(handler); }

  void start();
  // Ends the capture: stops the thread, waits up to GRACE for processes that still run, drains
  // everything once more, closes every process and writes the process, thread, GPU and stream
  // tables through the assembler. The writer can then be finished.
  void stop(std::chrono::milliseconds grace);
  // One synchronous pass over the directory (what the thread does in a loop); returns records read.
  size_t drainOnce();

  const RecordCounts& counts() const { return assembler_.counts(); }
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

  TraceWriter& writer_;
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
