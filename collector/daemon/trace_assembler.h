#pragma once
// TraceAssembler: turns the ring records of every recorded process into trace rows. It resolves
// process-local string, domain and range ids, pairs NVTX push/pop and start/end ranges, maps pids
// and tids to nsys globalPid/globalTid, and writes everything through a TraceWriter.
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "collector/daemon/row_pipeline.h"
#include "collector/transport/ring_reader.h"
#include "core/model/rank_table.h"
#include "core/roofline/kernel_metrics.h"

namespace gpuscope {

class TraceWriter;

// Times are on the session clock; ORIGIN becomes trace time 0. Events starting outside
// [begin, end] (--delay, --duration) are left out.
struct CaptureWindow {
  int64_t origin = 0;
  int64_t begin = std::numeric_limits<int64_t>::min();
  int64_t end = std::numeric_limits<int64_t>::max();
};

// What was written and what was lost, for the summary.
struct RecordCounts {
  uint64_t kernels = 0, memcpys = 0, memsets = 0, syncs = 0, cudaApi = 0, nvtx = 0, osrt = 0;
  uint64_t records = 0;               // ring records read
  uint64_t outsideWindow = 0;         // left out by --delay / --duration
  uint64_t unendedRanges = 0;         // NVTX ranges still open when their process ended (closed there)
  uint64_t unmatched = 0;             // pops without a push, ends without a start
  uint64_t cuptiDropped = 0;          // activity records CUPTI dropped
  uint64_t malformed = 0;             // records too short for their type
  uint64_t processes = 0;             // PROCESSES rows (set by finish)
  uint64_t threads = 0;               // ThreadNames rows (set by finish)
  uint64_t profiledKernels = 0;       // launches profiled by `record --metrics roofline`
  uint64_t osrtBacktraces = 0;        // OS-runtime rows with a backtrace (table::kOsrtCallchains)
  int64_t profilingNs = 0;            // what profiling them held the programs up, summed
  uint64_t gpuMetricSamples = 0;      // PM samples written (`record --gpu-metrics`), all GPUs
  uint64_t gpuMetricSamplesLost = 0;  // PM samples the GPU or CUPTI lost (a full hardware buffer)
  uint64_t memoryUsageEvents = 0;     // CUDA_GPU_MEMORY_USAGE_EVENTS rows (`record --cuda-memory-usage`)
  uint64_t events() const { return kernels + memcpys + memsets + syncs + cudaApi + nvtx + osrt; }
};

// The backtrace an OS-runtime call carried (record --osrt-backtrace-threshold): addresses, leaf first, of
// process PID at TIME (session clock), for the recorder to name once the processes have ended.
struct OsrtBacktrace {
  uint32_t pid = 0;
  int64_t time = 0;
  std::vector<uint64_t> frames;
};

struct Diagnostic {
  uint32_t pid = 0;
  transport::DiagnosticLevel level = transport::DiagnosticLevel::Info;
  std::string message;
};

class ProcessTrace;

class TraceAssembler {
 public:
  // THREADED: rows are written by a thread of their own (see RowPipeline); else at once. The window is
  // open from the start, into WRITER.
  TraceAssembler(TraceWriter& writer, CaptureWindow window, bool threaded = false);
  // No window yet: records are read (definitions kept) and left out until openWindow.
  explicit TraceAssembler(bool threaded);
  ~TraceAssembler();
  TraceAssembler(const TraceAssembler&) = delete;
  TraceAssembler& operator=(const TraceAssembler&) = delete;

  // The state of one ring file (one process image), valid until closeProcess().
  ProcessTrace& openProcess(uint32_t pid, uint32_t ppid);
  void add(ProcessTrace& process, const transport::RecordView& record);
  // The process will send nothing more: its open ranges are closed at its last timestamp.
  void closeProcess(ProcessTrace& process);
  // Closes every process still open, then writes PROCESSES, ThreadNames, TARGET_INFO_GPU and
  // TARGET_INFO_CUDA_STREAM into the open window's file, if any. Nothing may be added afterwards.
  void finish();

  // Windows (`record --capture-range`, `gpuscope start`/`stop`): events from here on that start inside
  // WINDOW go to WRITER. The counts, kernel metrics and backtraces start afresh for the window's file;
  // names, domains, threads, GPUs and streams carry over.
  void openWindow(TraceWriter& writer, CaptureWindow window);
  // Where the open window ends (its gate closed then); later events are left out.
  void setWindowEnd(int64_t end);
  // Writes the ranges still open (as ending at the window's end, unless !WRITEOPEN: a segment's, whose ranges
  // go into the segment where they end) and the process, thread, GPU and stream tables into the window's
  // file; the writer may then be finished. Records are left out until the next.
  void closeWindow(bool writeOpen = true);
  bool hasWindow() const { return rows_ != nullptr; }
  // Called for each NVTX range written (its text and session-clock times): a flight recorder's trigger.
  using RangeHook = std::function<void(std::string_view text, int64_t start, int64_t end)>;
  void setRangeHook(RangeHook hook) { rangeHook_ = std::move(hook); }
  // Commits every row so far to the file, without waiting (see RowPipeline::checkpoint).
  void checkpoint() {
    if (rows_) rows_->checkpoint();
  }

  const RecordCounts& counts() const { return counts_; }
  // Diagnostics the processes sent since the last call.
  std::vector<Diagnostic> takeDiagnostics();
  // Pids of every process that sent a record.
  std::vector<uint32_t> pids() const;
  // GPUSCOPE_KERNEL_METRICS rows of the launches profiled so far (`record --metrics roofline`).
  const std::vector<KernelMetrics>& kernelMetrics() const { return kernelMetrics_; }
  // GPUSCOPE_RANKS rows of the processes whose environment named their rank, one per process (its last
  // image's), by pid; the session start and source path are the recorder's to fill in.
  std::vector<RankRow> rankRows() const;
  // The backtraces of the OS-runtime rows written: element i is the rows' callchainId i + 1.
  const std::vector<OsrtBacktrace>& osrtBacktraces() const { return osrtBacktraces_; }

 private:
  struct ThreadName {
    std::string name;
    bool fromNvtx = false;
  };
  struct StreamKey {
    uint32_t pid, contextId, streamId;
    auto operator<=>(const StreamKey&) const = default;
  };
  struct StreamInfo {
    uint32_t priority = 0;
    uint32_t flag = 0;
  };
  // A TARGET_INFO_GPU row with its own copies of the text, written by finish().
  struct GpuEntry {
    GpuInfoRow row;
    std::string name, uuid, busLocation, chipName;
  };

  void addNvtx(ProcessTrace& process, const transport::RecordView& record);
  void addCuda(ProcessTrace& process, const transport::RecordView& record);
  // One per CUDA record type; false when the record is too short for its body.
  bool addCudaApi(ProcessTrace& process, const transport::RecordView& record);
  bool addKernel(ProcessTrace& process, const transport::RecordView& record);
  bool addMemcpy(ProcessTrace& process, const transport::RecordView& record);
  bool addMemset(ProcessTrace& process, const transport::RecordView& record);
  bool addSync(ProcessTrace& process, const transport::RecordView& record);
  bool addGpu(const transport::RecordView& record);
  bool addContext(ProcessTrace& process, const transport::RecordView& record);
  bool addStream(ProcessTrace& process, const transport::RecordView& record);
  void addDefinition(ProcessTrace& process, const transport::RecordView& record);
  void addKernelMetrics(ProcessTrace& process, const transport::RecordView& record);
  void addOsRuntime(ProcessTrace& process, const transport::RecordView& record);
  bool addRank(ProcessTrace& process, const transport::RecordView& record);
  // `record --gpu-metrics` and `--cuda-memory-usage` (trace_assembler_gpu_metrics.cpp).
  bool addGpuMetricSample(const transport::RecordView& record);
  bool addMemoryUsage(ProcessTrace& process, const transport::RecordView& record);
  bool addGpuMetricsState(ProcessTrace& process, const transport::RecordView& record);
  // TARGET_INFO_GPU_METRICS of every sampled GPU and what became of the sampling, in GPUSCOPE_META.
  void finishGpuMetrics();
  bool inWindow(int64_t start);
  void writeOpenRanges(ProcessTrace& process, int64_t end);
  void writeTables();
  int64_t traceTime(int64_t sessionTime) const { return sessionTime - window_.origin; }
  void nameThread(int64_t globalTid, std::string_view name, bool fromNvtx);
  void noteThread(ProcessTrace& process, uint32_t tid);
  void noteStream(uint32_t pid, uint32_t contextId, uint32_t streamId);
  // The file-wide id of the NVTX domain NAME, and the name as the assembler keeps it.
  std::pair<int64_t, std::string_view> globalDomain(std::string_view name);

  bool threaded_ = false;
  TraceWriter* writer_ = nullptr;      // the open window's file; null between windows
  std::unique_ptr<RowPipeline> rows_;  // null between windows
  CaptureWindow window_;
  std::vector<NvtxDomainRow> domainRows_;
  RangeHook rangeHook_;  // every domain named so far, for each window's file
  RecordCounts counts_;
  std::map<uint64_t, std::unique_ptr<ProcessTrace>> processes_;
  uint64_t nextProcessKey_ = 1;
  std::map<uint32_t, std::string> processNames_;
  std::map<uint32_t, RankRow> ranks_;
  std::map<int64_t, ThreadName> threadNames_;
  std::map<uint32_t, GpuEntry> gpus_;
  std::map<StreamKey, StreamInfo> streams_;
  std::map<std::string, int64_t, std::less<>> domains_;
  int64_t nextRangeId_ = 1;
  std::vector<Diagnostic> diagnostics_;
  std::vector<KernelMetrics> kernelMetrics_;
  std::vector<OsrtBacktrace> osrtBacktraces_;
  std::map<uint32_t, uint16_t> gpuMetricSets_;   // device -> index of the metric set its samples carry
  std::vector<std::string> gpuMetricsRefusals_;  // why a GPU was not sampled, once each
  bool finished_ = false;
};

}  // namespace gpuscope
