#pragma once
// RecordSession: what `gpuscope record` does. Starts the daemon, runs the program with the
// collector injected, follows its children, forwards signals, and writes one trace file.
#include <cstdint>
#include <string>
#include <vector>

#include "collector/daemon/trace_assembler.h"
#include "collector/daemon/trace_daemon.h"
#include "collector/launch/record_sampling.h"

namespace gpuscope {

struct RecordOptions {
  std::string output;                                       // empty: reportN.sqlite in the working directory
  std::vector<std::string> traces{"cuda", "nvtx", "osrt"};  // or "none"
  int64_t osrtThresholdNs = 1000;
  // OS-runtime calls lasting at least this long carry their backtrace, of at most osrtBacktraceDepth
  // frames (0: none), as nsys's --osrt-backtrace-threshold (80 us by default).
  int64_t osrtBacktraceThresholdNs = 80'000;
  int osrtBacktraceDepth = 64;
  // OS-runtime calls of a fork child before it executes a program: left out by default, as nsys's
  // --trace-fork-before-exec=false; CUDA and NVTX are recorded in fork children either way.
  bool osrtForkChildren = false;
  // CUPTI's synchronization records (a stream, event or context waited on): off by default, as turning
  // the kind on costs every kernel launch about 0.3 us on an H100 (nsys's default keeps stream-wait-event
  // rows only).
  bool cudaSync = false;
  double delaySeconds = 0;
  double durationSeconds = 0;  // 0: until the program ends
  bool forceOverwrite = false;
  // What a thread of the program does when its ring is full: wait for the recorder to drain it
  // (the default: nothing is lost, the program slows down) or drop the record and count it.
  bool dropWhenFull = false;
  // --metrics roofline: per-launch counters with CUPTI's range profiler into GPUSCOPE_KERNEL_METRICS.
  std::string metrics;      // empty (or "none") or "roofline"
  std::string kernelRegex;  // profile only launches whose demangled kernel name this matches (ncu's -k)
  int64_t kernelCount = 0;  // profile at most this many launches, across processes (ncu's -c); 0: all
  // --gpu-metrics: the GPUs' own counters sampled with CUPTI's PM sampling into GPU_METRICS, as nsys's
  // --gpu-metrics-devices=all; --gpu-metrics-frequency and --gpu-metrics-set (collector/gpu_metrics).
  bool gpuMetrics = false;
  int64_t gpuMetricsFrequencyHz = 10'000;
  std::string gpuMetricsSet = "gh100";
  // --cuda-memory-usage: every device allocation and free into CUDA_GPU_MEMORY_USAGE_EVENTS, as nsys's.
  bool cudaMemoryUsage = false;
  // --sample, --sampling-frequency, --cpuctxsw: CPU call-stack samples and thread switches (perf_event_open).
  SamplingOptions sampling;
  // Capture ranges, as nsys's --capture-range cudaProfilerApi|nvtx, --nvtx-capture NAME[@DOMAIN] and
  // --capture-range-end stop|stop-shutdown|repeat[:N]|none: only what happens inside a range is recorded.
  std::string captureRange;  // empty: the whole run
  std::string nvtxCapture;
  std::string captureRangeEnd = "stop-shutdown";
  // `gpuscope launch`: the program runs under the collector and nothing is recorded until `gpuscope start`.
  bool launched = false;
  // The session's name on the control channel (--session, patterns expanded); empty: gpuscope-<pid>.
  std::string sessionName;
  // `launch --flight-recorder SPAN [--flight-memory SIZE] [--trigger slow:NAME:Nx]` (collector/launch/
  // flight_recorder.h): record all along, keep the last SPAN, write it on dump, SIGUSR1, a crash or a trigger.
  std::string flightRecorder;
  std::string flightMemory;
  std::string trigger;
  std::vector<std::string> command;
  std::string recorderVersion;  // empty: this build's "gpuscope X.Y.Z"
};

// Where the injection libraries are looked for, in order: $GPUSCOPE_LIB_DIR, <dir of the gpuscope
// executable>/../lib/gpuscope, the executable's own directory, and the build tree it came from.
struct InjectionLibraries {
  std::string inject;              // libgpuscope_inject.so: OS runtime, NVTX, process following (LD_PRELOAD)
  std::string injectWithoutLocks;  // libgpuscope_inject_nolocks.so, preloaded instead when osrt is not traced
  std::string cuda;                // libgpuscope_cuda.so: CUPTI (CUDA_INJECTION64_PATH); empty when not built
  std::string gpuMetricsHost;      // gpuscope-gpu-metrics, beside it: --gpu-metrics's sampler; empty when not built
};
InjectionLibraries findInjectionLibraries();

// The --metrics, --kernel-regex and --kernel-count combination is usable (a valid regex, a count of 0 or
// more, metrics with the CUDA trace); throws TraceError with one sentence otherwise. recordProgram calls it.
void checkMetricsOptions(const RecordOptions& options);
// --gpu-metrics, its frequency and set, and --cuda-memory-usage are usable (nsys's frequency range, a known set,
// the CUDA trace, not with --metrics roofline); throws TraceError with one sentence otherwise.
void checkGpuMetricsOptions(const RecordOptions& options);

// What one recording did, for the caller to print (app/cli/record_summary).
struct RecordResult {
  int exitCode = 0;  // the program's own exit status, 128 + N when signal N ended it
  int signal = 0;    // the signal that ended the program, or 0
  double seconds = 0;
  std::string commandLine;         // the program and its arguments, shell-quoted
  std::string path;                // the trace file written (the last one, when windows wrote several)
  std::vector<std::string> files;  // every trace file written, oldest first
  bool windowed = false;           // capture ranges or launch: files are written per window
  std::string sessionName;
  RecordCounts counts;
  TransportCounts transport;
  bool profiledMetrics = false;  // --metrics roofline
  bool sampled = false;          // CPU samples or switches were recorded
  sampling::SamplerCounts samples;
};

// The --capture-range, --nvtx-capture and --capture-range-end combination is usable; throws TraceError with one
// sentence otherwise.
void checkCaptureOptions(const RecordOptions& options);

// Records OPTIONS.command into one trace file (or one a window: capture ranges, launch). Problems the user can fix (no
// command, a command that does not exist, an output file that exists, a bad option) throw TraceError with one sentence.
RecordResult recordProgram(const RecordOptions& options);

}  // namespace gpuscope
