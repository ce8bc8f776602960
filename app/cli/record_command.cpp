#include "app/cli/record_command.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>

#include "app/cli/stats_command.h"
#include "collector/gpu_metrics/metric_sets.h"
#include "collector/launch/output_name.h"
#include "collector/launch/record_files.h"
#include "collector/launch/record_session.h"
#include "core/error.h"
#include "core/text/units.h"

namespace gpuscope::cli {
namespace {

namespace fs = std::filesystem;

std::string signalName(int signal) {
  const char* description = strsignal(signal);
  return description ? description : "signal " + std::to_string(signal);
}

// The sampling line: samples only where they were asked for, so that --sample none does not read as a
// sampler that found nothing.
void printSamplingLine(std::ostream& out, const sampling::SamplerCounts& samples, bool cpuSamples) {
  if (cpuSamples) {
    out << "  CPU samples " << formatCount(samples.samples) << " (" << formatCount(samples.pythonSamples)
        << " with Python frames), thread switches " << formatCount(samples.switches);
  } else {
    out << "  CPU samples: not taken (--sample none); thread switches " << formatCount(samples.switches);
  }
  if (samples.lost) out << "; " << formatCount(samples.lost) << " sampling records lost (the kernel's rings were full)";
  out << "\n";
}

void printSummary(const RecordResult& result, bool cpuSamples) {
  const std::string& command = result.commandLine;
  int exitCode = result.exitCode;
  bool signaled = result.signal != 0;
  int signal = result.signal;
  double seconds = result.seconds;
  const RecordCounts& counts = result.counts;
  const TransportCounts& transport = result.transport;
  std::ostringstream out;
  char elapsed[32];
  std::snprintf(elapsed, sizeof elapsed, "%.2f s", seconds);
  out << "gpuscope: recorded " << command << " for " << elapsed;
  if (signaled) {
    out << "; it was ended by " << signalName(signal) << " (exit status " << exitCode << ")\n";
  } else {
    out << "; it exited with status " << exitCode << "\n";
  }
  out << "  processes " << counts.processes << ", threads " << counts.threads << "\n";
  out << "  events: CUDA API " << formatCount(counts.cudaApi) << ", kernels " << formatCount(counts.kernels)
      << ", memcpy " << formatCount(counts.memcpys) << ", memset " << formatCount(counts.memsets) << ", sync "
      << formatCount(counts.syncs) << ", NVTX " << formatCount(counts.nvtx) << ", OS runtime "
      << formatCount(counts.osrt) << "\n";
  uint64_t dropped = transport.ringDropped + counts.cuptiDropped;
  out << "  records dropped: " << formatCount(dropped);
  if (dropped) {
    out << " (" << formatCount(transport.ringDropped) << " with full rings, " << formatCount(counts.cuptiDropped)
        << " by CUPTI)";
  }
  out << "\n";
  if (result.sampled) printSamplingLine(out, result.samples, cpuSamples);
  if (counts.unendedRanges)
    out << "  NVTX ranges left open at process exit: " << formatCount(counts.unendedRanges) << "\n";
  if (counts.outsideWindow && result.files.size() <= 1 && !result.windowed) {
    out << "  events outside --delay/--duration, left out: " << formatCount(counts.outsideWindow) << "\n";
  }
  if (transport.corrupt || counts.malformed) {
    out << "  damaged records skipped: " << formatCount(transport.corrupt + counts.malformed) << "\n";
  }
  if (result.windowed && result.files.empty())
    out << "  no window was recorded (no capture range began, no gpuscope start): no file was written\n";
  if (result.windowed && !result.files.empty()) out << "  the counts above are the last window's\n";
  for (const std::string& file : result.files) {
    std::error_code error;
    uintmax_t size = fs::file_size(file, error);
    fs::path absolute = fs::absolute(file, error);
    out << "  file: " << absolute.string() << " (" << formatBytes(error ? 0 : static_cast<int64_t>(size)) << ")\n";
  }
  std::cerr << out.str() << std::flush;
}

// The roofline part of the summary: what was profiled and what it cost the run.
void printMetricsSummary(const RecordCounts& counts, double seconds) {
  char line[160];
  double profiling = static_cast<double>(counts.profilingNs) * 1e-9;
  double rest = std::max(seconds - profiling, 1e-9);
  std::snprintf(line, sizeof line,
                "  roofline metrics: %s of %s kernel launches profiled; profiling took %.2f s of the "
                "run's %.2f s (%.1fx the run without it)\n",
                formatCount(counts.profiledKernels).c_str(), formatCount(counts.kernels).c_str(), profiling, seconds,
                seconds / rest);
  std::cerr << line;
}

// The reports `gpuscope stats FILE` prints, after the summary (--stats).
void printStats(const std::string& path) {
  std::cerr << std::flush;
  try {
    printStatsReports(path);
  } catch (const std::exception& error) {
    std::cerr << "gpuscope: " << error.what() << "\n";
    std::cerr << "gpuscope: the stats reports could not be printed (gpuscope stats " << path << " failed)\n";
  }
  std::cout << std::flush;
}

// The options record and launch share: what is traced, and how.
void addRecordingOptions(CLI::App& command, const std::shared_ptr<RecordOptions>& options) {
  command.add_option(
      "-o,--output", options->output,
      "Trace file to write (default: reportN.sqlite; .sqlite is added when the name has no extension; "
      "numbered run.1.sqlite, run.2.sqlite, ... for each window of launch and of --capture-range-end repeat). "
      "As nsys's: %q{VAR} is the value of environment variable VAR (unset: refused), %h the host "
      "name, %p the pid of gpuscope record, %% a %; under a launcher, -o 'run.%q{RANK}.sqlite' "
      "writes one file per rank");
  command.add_option("-t,--trace", options->traces, "What to trace: a comma-separated list of cuda, nvtx, osrt, none")
      ->delimiter(',')
      ->capture_default_str();
  command
      .add_option("--osrt-threshold", options->osrtThresholdNs,
                  "Record OS runtime calls lasting at least this many nanoseconds")
      ->capture_default_str();
  command
      .add_option("--osrt-backtrace-threshold", options->osrtBacktraceThresholdNs,
                  "OS runtime calls lasting at least this many nanoseconds carry their backtrace (as nsys)")
      ->capture_default_str();
  command
      .add_option("--osrt-backtrace-depth", options->osrtBacktraceDepth,
                  "Frames kept of each OS runtime call's backtrace, up to 127; 0 takes none")
      ->capture_default_str();
  command.add_flag("--osrt-fork-children", options->osrtForkChildren,
                   "Also record the OS runtime calls of child processes created by fork before they execute a "
                   "program (DataLoader workers, multiprocessing fork). Off by default, as nsys's "
                   "--trace-fork-before-exec=false; CUDA and NVTX are recorded in such children either way");
  command.add_flag("--cuda-sync", options->cudaSync,
                   "Also record CUPTI's synchronization records (stream, event and context waits). Off by default: "
                   "on, every kernel launch costs about 0.3 us more. nsys's default trace keeps stream-wait-event "
                   "ones only");
  command.add_option("--delay", options->delaySeconds, "Seconds to wait after the start before recording events");
  command.add_option("--duration", options->durationSeconds,
                     "Seconds to record; the program is then ended with SIGTERM (0: until it exits)");
  command.add_option("--metrics", options->metrics,
                     "Also collect per-launch counters: roofline (FLOPs per precision, DRAM/L2/L1 bytes, duration, "
                     "with CUPTI's range profiler and kernel replay, as Nsight Compute counts them)");
  command.add_option("--kernel-regex", options->kernelRegex,
                     "With --metrics: profile only launches whose demangled kernel name matches this regex");
  command.add_option("--kernel-count", options->kernelCount,
                     "With --metrics: profile at most this many launches in all (default: every launch)");
  command.add_flag("--gpu-metrics", options->gpuMetrics,
                   "Sample the GPUs' own counters (SMs Active, SM Issue, Tensor Active, warps in flight, DRAM and PCIe "
                   "throughput, clocks) with CUPTI's PM sampling on every GPU the program uses, into GPU_METRICS with "
                   "nsys's metric names, as nsys's --gpu-metrics-devices=all");
  command
      .add_option("--gpu-metrics-frequency", options->gpuMetricsFrequencyHz,
                  "With --gpu-metrics: samples per second, 10 to 200000 (nsys's range and default)")
      ->capture_default_str();
  command
      .add_option("--gpu-metrics-set", options->gpuMetricsSet,
                  "With --gpu-metrics: the metric set, one of " + gpu_metrics::metricSetsHelp())
      ->capture_default_str();
  command.add_flag("--cuda-memory-usage", options->cudaMemoryUsage,
                   "Record every device allocation and free (CUPTI's memory activity) into "
                   "CUDA_GPU_MEMORY_USAGE_EVENTS, as nsys's --cuda-memory-usage=true");
  auto* sample = command.add_option_function<std::string>(
      "--sample",
      [options](const std::string& value) {
        if (value != "cpu" && value != "none") throw TraceError("--sample takes cpu or none, not '" + value + "'");
        options->sampling.cpu = value == "cpu";
      },
      "Sample the call stacks of every thread of the program and its children (cpu, the default, as nsys's "
      "--sample=process-tree) or not (none). User-space stacks by frame pointers, with Python functions and "
      "lines read from CPython 3.11's frames, or named by CPython 3.12's perf trampoline");
  sample->default_str("cpu");
  command.add_option("--sampling-frequency", options->sampling.frequencyHz, "Samples per second of each thread")
      ->capture_default_str();
  auto* switches = command.add_option_function<std::string>(
      "--cpuctxsw",
      [options](const std::string& value) {
        if (value != "process-tree" && value != "none")
          throw TraceError("--cpuctxsw takes process-tree or none, not '" + value + "'");
        options->sampling.contextSwitches = value == "process-tree";
      },
      "Record when each thread of the program goes on and off a CPU, and whether it was preempted or "
      "blocked (process-tree, the default, as nsys) or not (none)");
  switches->default_str("process-tree");
  command.add_flag("-f,--force-overwrite", options->forceOverwrite, "Replace the output file if it exists");
  auto* whenFull = command.add_option_function<std::string>(
      "--when-full",
      [options](const std::string& value) {
        if (value != "wait" && value != "drop") throw TraceError("--when-full takes wait or drop, not '" + value + "'");
        options->dropWhenFull = value == "drop";
      },
      "When a thread's ring is full: wait for the recorder to drain it (default; nothing is lost, the "
      "program slows down) or drop the record (counted in the summary and GPUSCOPE_META)");
  whenFull->default_str("wait");
  command.add_option("--capture-range", options->captureRange,
                     "Record only inside capture ranges, as nsys: cudaProfilerApi (from cudaProfilerStart to "
                     "cudaProfilerStop, torch.cuda.profiler.start/stop) or nvtx (the range --nvtx-capture names). "
                     "Outside them CUPTI's activity kinds are off and no NVTX or OS runtime call is kept");
  command.add_option("--nvtx-capture", options->nvtxCapture,
                     "With --capture-range nvtx: the range's message NAME, or NAME@DOMAIN (NAME@* any domain). "
                     "Plain and registered strings both match (nsys needs NSYS_NVTX_PROFILER_REGISTER_ONLY=0 for "
                     "plain ones)");
  command
      .add_option("--capture-range-end", options->captureRangeEnd,
                  "What a capture range's end does: stop (write the file; the program runs on, later ranges are "
                  "ignored), stop-shutdown (write it and end the program), repeat[:N] (each range, N at most, "
                  "writes its own numbered file: run.1.sqlite, run.2.sqlite, ...), none (record on to the end)")
      ->capture_default_str();
  command.add_option("--session", options->sessionName,
                     "The session's name for gpuscope start/stop/cancel/sessions (default gpuscope-PID); %q{VAR}, "
                     "%h and %p as in -o, so under a launcher --session 'train.%q{RANK}' names each rank");
}

// Windows (capture ranges, launch) take no CPU samples in this version: off unless asked for (then refused).
void sampleWholeRunsOnly(CLI::App& command, RecordOptions& options) {
  if (command.count("--sample") == 0) options.sampling.cpu = false;
  if (command.count("--cpuctxsw") == 0) options.sampling.contextSwitches = false;
}

}  // namespace

void registerRecordCommand(CLI::App& app) {
  auto options = std::make_shared<RecordOptions>();
  auto* command = app.add_subcommand(
      "record",
      "Run a program and record its CUDA API calls and GPU work (CUPTI), NVTX ranges and OS runtime calls, in every "
      "process it starts, into one trace file. Exits with the program's exit status.");
  addRecordingOptions(*command, options);
  auto stats = std::make_shared<bool>(false);
  command->add_flag("--stats", *stats, "Print the stats reports of the trace at the end");
  auto recover = std::make_shared<std::string>();
  command->add_option("--recover", *recover,
                      "Instead of recording: make FILE.<pid>.recording, the trace of a recorder that was killed "
                      "(SIGKILL: it commits every half second), a trace file named FILE, and exit");
  command->footer(
      "Put the program after --, for example:\n"
      "  gpuscope record -o run.sqlite -- python train.py --epochs 1\n"
      "  mpirun -np 4 gpuscope record -o 'run.%q{OMPI_COMM_WORLD_RANK}.sqlite' -- ./app\n"
      "Each process's rank, local rank and world size (RANK, LOCAL_RANK, WORLD_SIZE and the Open MPI, PMI and\n"
      "Slurm spellings in its environment) and host go into GPUSCOPE_RANKS, so `gpuscope record -- torchrun ...`\n"
      "writes one file whose processes know their ranks.\n"
      "The collector libraries are found in $GPUSCOPE_LIB_DIR, next to gpuscope, or in ../lib/gpuscope.");
  // After --, CLI11 hands every word to COMMAND in order. Without --, words that look like options
  // end up among the extras, out of order: ask for the -- then.
  command->add_option("COMMAND", options->command, "The program to record and its arguments (after --)");
  command->allow_extras();
  command->callback([options, command, stats, recover] {
    if (!recover->empty()) {
      if (!options->command.empty()) throw TraceError("--recover runs no program: give it the file alone");
      std::string path = recoverRecording(*recover);
      std::error_code error;
      std::cerr << "gpuscope: recovered " << *recover << " as " << fs::absolute(path, error).string() << "\n";
      std::exit(0);
    }
    std::vector<std::string> extras = command->remaining();
    if (!extras.empty() && extras.front() == "--") extras.erase(extras.begin());
    if (!extras.empty()) {
      throw TraceError("put the program and its arguments after --, as in: gpuscope record -o run.sqlite -- " +
                       (options->command.empty() ? std::string("./app") : options->command.front()) + " ...");
    }
    // Once, before anything is created: every later step names the expanded file.
    options->output = expandOutputName(options->output);
    options->sessionName = expandOutputName(options->sessionName);
    if (!options->captureRange.empty() && options->captureRange != "none") sampleWholeRunsOnly(*command, *options);
    RecordResult result = recordProgram(*options);
    printSummary(result, options->sampling.cpu);
    if (result.profiledMetrics) printMetricsSummary(result.counts, result.seconds);
    if (result.transport.cuptiBusy) {
      std::cerr << "gpuscope: in " << result.transport.cuptiBusy
                << " process(es) CUDA was not traced: another profiler already held CUPTI\n";
    }
    if (result.transport.cuptiFailed) {
      std::cerr << "gpuscope: in " << result.transport.cuptiFailed
                << " process(es) CUDA was not traced: CUPTI could not be set up (the reason is printed above)\n";
    }
    if (*stats && !result.path.empty()) printStats(result.path);
    std::cout << std::flush;
    std::cerr << std::flush;
    std::exit(result.exitCode);
  });
}

void registerLaunchCommand(CLI::App& app) {
  auto options = std::make_shared<RecordOptions>();
  auto* command = app.add_subcommand(
      "launch",
      "Run a program under the collector as a session, recording nothing until `gpuscope start`: each "
      "start/stop writes one trace file of that window. Exits with the program's exit status.");
  addRecordingOptions(*command, options);
  command->add_option("--flight-recorder", options->flightRecorder,
                      "Record all along but keep only the last SPAN (60s, 2m, ...), in segments of a twelfth of it, "
                      "and write it on gpuscope dump, on SIGUSR1 to the program, when the program crashes, or on a "
                      "--trigger; the dumps are the launch's -o, numbered");
  command->add_option("--flight-memory", options->flightMemory,
                      "With --flight-recorder: the most the kept segments may take in memory (tmpfs), as in 512M "
                      "(the default) or 2G; the oldest go first");
  command->add_option("--trigger", options->trigger,
                      "With --flight-recorder: slow:NVTX_NAME:FACTORx writes the kept span when an instance of that "
                      "NVTX range (digits read as one: 'step' watches 'step 812') takes more than FACTOR times the "
                      "running median of its name; that range is the file's judged window");
  command->footer(
      "For example, in one shell:\n"
      "  gpuscope launch --session train -o train.sqlite -- python train.py\n"
      "and in another, as often as wanted:\n"
      "  gpuscope start --session train; sleep 20; gpuscope stop --session train   # writes train.1.sqlite\n"
      "Under a launcher, --session 'train.%q{RANK}' names each rank and `gpuscope start --session 'train.*'`\n"
      "starts them all. CPU samples are not taken in sessions in this version.\n"
      "A flight recorder: gpuscope launch --flight-recorder 60s --trigger 'slow:step:2x' -o crash -- python train.py\n"
      "writes crash.1.sqlite with the last 60 s up to the first step that takes over twice the median.");
  command->add_option("COMMAND", options->command, "The program to run and its arguments (after --)");
  command->allow_extras();
  command->callback([options, command] {
    std::vector<std::string> extras = command->remaining();
    if (!extras.empty() && extras.front() == "--") extras.erase(extras.begin());
    if (!extras.empty())
      throw TraceError("put the program and its arguments after --, as in: gpuscope launch --session train -- ./app");
    options->output = expandOutputName(options->output);
    options->sessionName = expandOutputName(options->sessionName);
    options->launched = true;
    sampleWholeRunsOnly(*command, *options);
    RecordResult result = recordProgram(*options);
    printSummary(result, false);
    std::cout << std::flush;
    std::cerr << std::flush;
    std::exit(result.exitCode);
  });
}

}  // namespace gpuscope::cli
