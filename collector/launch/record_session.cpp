#include "collector/launch/record_session.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <functional>
#include <iostream>
#include <optional>
#include <regex>
#include <sstream>
#include <thread>

#include "collector/control/control_channel.h"
#include "collector/control/control_server.h"
#include "collector/daemon/trace_daemon.h"
#include "collector/gpu_metrics/metric_sets.h"
#include "collector/launch/flight_recorder.h"
#include "collector/launch/gpu_metrics_host.h"
#include "collector/launch/group_signal_witness.h"
#include "collector/launch/record_files.h"
#include "collector/launch/recorded_tables.h"
#include "collector/launch/session_control.h"
#include "collector/launch/slow_range_trigger.h"
#include "collector/launch/window_files.h"
#include "collector/transport/session_clock.h"
#include "collector/transport/session_gate.h"
#include "core/error.h"
#include "core/write/trace_writer.h"

extern char** environ;

#ifndef GPUSCOPE_KERNEL_DEMANGLER
#define GPUSCOPE_KERNEL_DEMANGLER "__cxa_demangle"  // built without CMake (tests/gpu/run.sh NO_CMAKE=1)
#endif

namespace gpuscope {
namespace fs = std::filesystem;

namespace {

constexpr std::chrono::milliseconds kGraceForChildren{1000};
constexpr std::chrono::seconds kInterruptWait{5};
constexpr std::chrono::seconds kTerminateWait{3};

bool isExecutableFile(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) && access(path.c_str(), X_OK) == 0;
}

// The program to run, as execvp would find it; a TraceError when there is none.
std::string resolveCommand(const std::string& command) {
  if (command.find('/') != std::string::npos) {
    struct stat info {};
    if (stat(command.c_str(), &info) != 0) throw TraceError("cannot run " + command + ": no such file");
    if (!isExecutableFile(command)) throw TraceError("cannot run " + command + ": it is not an executable file");
    return command;
  }
  const char* path = std::getenv("PATH");
  std::string directories = path ? path : "/usr/local/bin:/usr/bin:/bin";
  std::stringstream stream(directories);
  std::string directory;
  while (std::getline(stream, directory, ':')) {
    std::string candidate = (directory.empty() ? std::string(".") : directory) + "/" + command;
    if (isExecutableFile(candidate)) return candidate;
  }
  throw TraceError("cannot run " + command + ": command not found (looked in PATH)");
}

std::string shellQuote(const std::string& word) {
  bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("-_./=:,+@%", c);
  });
  if (plain) return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string joinCommand(const std::vector<std::string>& words) {
  std::string line;
  for (const std::string& word : words) {
    // Appended piece by piece: `"" + std::string` trips GCC 12's -Wrestrict at -O3.
    if (!line.empty()) line += ' ';
    line += shellQuote(word);
  }
  return line;
}

// The file to write: -o as given (".sqlite" added when it has no extension), reportN.sqlite in the
// working directory without -o, or in the directory -o names.
std::string outputPath(const RecordOptions& options) {
  fs::path directory = ".";
  if (!options.output.empty()) {
    std::error_code error;
    if (!fs::is_directory(options.output, error)) {
      fs::path path(options.output);
      if (!path.has_extension()) path += ".sqlite";
      return path.string();
    }
    directory = options.output;
  }
  for (int n = 1;; ++n) {
    fs::path candidate = directory / ("report" + std::to_string(n) + ".sqlite");
    if (!fs::exists(candidate)) return options.output.empty() ? candidate.filename().string() : candidate.string();
  }
}

std::string executableDirectory() {
  std::error_code error;
  fs::path self = fs::read_symlink("/proc/self/exe", error);
  return error ? std::string() : self.parent_path().string();
}

// What a short-lived child learns about the CUDA driver: it loads libcuda and initializes it, so
// the recorder itself stays free of the driver.
enum ProbeResult { kProbeOk = 0, kProbeNoDriver = 2, kProbeInitFailed = 3, kProbeNoDevice = 4 };

pid_t startCudaProbe() {
  pid_t pid = fork();
  if (pid != 0) return pid;
  int devnull = open("/dev/null", O_WRONLY);
  if (devnull >= 0) {
    dup2(devnull, 1);
    dup2(devnull, 2);
  }
  void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!driver) _exit(kProbeNoDriver);
  using Init = int (*)(unsigned);
  using Count = int (*)(int*);
  auto init = reinterpret_cast<Init>(dlsym(driver, "cuInit"));
  auto count = reinterpret_cast<Count>(dlsym(driver, "cuDeviceGetCount"));
  if (!init || !count) _exit(kProbeNoDriver);
  if (init(0) != 0) _exit(kProbeInitFailed);
  int devices = 0;
  if (count(&devices) != 0 || devices == 0) _exit(kProbeNoDevice);
  _exit(kProbeOk);
}

// What keeps CUDA from working here, or nothing.
std::string probeProblem(int status) {
  if (!WIFEXITED(status)) return {};
  switch (WEXITSTATUS(status)) {
    case kProbeNoDriver:
      return "no CUDA driver (libcuda.so.1) on this machine";
    case kProbeInitFailed:
      return "the CUDA driver did not initialize (no usable GPU?)";
    case kProbeNoDevice:
      return "no CUDA GPU is visible";
    default:
      return {};
  }
}

std::string probeMessage(int status) {
  std::string problem = probeProblem(status);
  return problem.empty() ? problem : problem + ": CUDA is not traced; NVTX and OS runtime calls are";
}

// The probe's verdict, waiting for it (5 s at most: a driver that hangs in cuInit must not hang us).
std::string waitForProbe(pid_t probe) {
  int status = 0;
  pid_t reaped = 0;
  for (int i = 0; i < 100 && (reaped = waitpid(probe, &status, WNOHANG)) == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (reaped == probe) return probeProblem(status);
  kill(probe, SIGKILL);
  waitpid(probe, &status, 0);
  return "the CUDA driver did not answer within 5 s";
}

bool profilesMetrics(const RecordOptions& options) { return options.metrics == "roofline"; }

bool hasTrace(const RecordOptions& options, std::string_view name) {
  return std::find(options.traces.begin(), options.traces.end(), name) != options.traces.end();
}

bool osrtBacktracesWanted(const RecordOptions& options) {
  return hasTrace(options, "osrt") && options.osrtBacktraceDepth > 0;
}

// The program's environment: ours plus what it needs to be recorded and to pass it on.
std::vector<std::string> childEnvironment(const RecordOptions& options, const InjectionLibraries& libraries,
                                          const std::string& sessionDir) {
  std::vector<std::string> entries;
  // Without the OS-runtime trace the lock wrappers would only call through; NVTX must load the very file
  // that was preloaded, or the process would hold two recorders.
  const std::string& preloaded = hasTrace(options, "osrt") || libraries.injectWithoutLocks.empty()
                                     ? libraries.inject
                                     : libraries.injectWithoutLocks;
  std::string preload = preloaded;
  auto starts = [](const char* entry, std::string_view name) { return std::string_view(entry).starts_with(name); };
  for (char** entry = environ; entry && *entry; ++entry) {
    if (starts(*entry, "LD_PRELOAD=")) {
      std::string theirs = *entry + std::strlen("LD_PRELOAD=");
      if (!theirs.empty()) preload += ":" + theirs;
      continue;
    }
    if (starts(*entry, "GPUSCOPE_SESSION_DIR=") || starts(*entry, "GPUSCOPE_TRACE=") ||
        starts(*entry, "GPUSCOPE_OSRT_THRESHOLD_NS=") || starts(*entry, "GPUSCOPE_OSRT_BACKTRACE_") ||
        starts(*entry, "GPUSCOPE_METRICS=") || starts(*entry, "GPUSCOPE_KERNEL_REGEX=") ||
        starts(*entry, "GPUSCOPE_KERNEL_COUNT=") || starts(*entry, "GPUSCOPE_RECORDER_PID=") ||
        starts(*entry, "GPUSCOPE_WHEN_FULL=") || starts(*entry, "GPUSCOPE_OSRT_FORK_CHILDREN=") ||
        starts(*entry, "GPUSCOPE_CUDA_SYNC=") || starts(*entry, "GPUSCOPE_FLIGHT_SIGNAL=")) {
      continue;
    }
    bool injection = starts(*entry, "CUDA_INJECTION64_PATH=") || starts(*entry, "NVTX_INJECTION64_PATH=");
    if (injection) {
      std::cerr << "gpuscope: replacing " << *entry << " (another tool's injection library) with gpuscope's\n";
      continue;
    }
    entries.emplace_back(*entry);
  }
  std::string traces;
  for (const std::string& trace : options.traces) traces += (traces.empty() ? "" : ",") + trace;
  entries.push_back("LD_PRELOAD=" + preload);
  entries.push_back("GPUSCOPE_SESSION_DIR=" + sessionDir);
  entries.push_back("GPUSCOPE_TRACE=" + traces);
  entries.push_back("GPUSCOPE_OSRT_THRESHOLD_NS=" + std::to_string(options.osrtThresholdNs));
  entries.push_back(std::string("GPUSCOPE_OSRT_FORK_CHILDREN=") + (options.osrtForkChildren ? "1" : "0"));
  entries.push_back("GPUSCOPE_OSRT_BACKTRACE_THRESHOLD_NS=" + std::to_string(options.osrtBacktraceThresholdNs));
  entries.push_back("GPUSCOPE_OSRT_BACKTRACE_DEPTH=" + std::to_string(options.osrtBacktraceDepth));
  entries.push_back(std::string("GPUSCOPE_CUDA_SYNC=") + (options.cudaSync ? "1" : "0"));
  entries.push_back("GPUSCOPE_RECORDER_PID=" + std::to_string(getpid()));
  entries.push_back(std::string("GPUSCOPE_WHEN_FULL=") + (options.dropWhenFull ? "drop" : "wait"));
  if (hasTrace(options, "cuda") && !libraries.cuda.empty())
    entries.push_back("CUDA_INJECTION64_PATH=" + libraries.cuda);
  if (hasTrace(options, "nvtx")) entries.push_back("NVTX_INJECTION64_PATH=" + preloaded);
  // CPython 3.12+ then names its Python functions in /tmp/perf-PID.map (its perf trampoline), which the
  // sampler reads where it has no layout of the interpreter to read stacks with.
  if (options.sampling.cpu && !std::getenv("PYTHONPERFSUPPORT")) entries.push_back("PYTHONPERFSUPPORT=1");
  if (options.cudaMemoryUsage) entries.push_back("GPUSCOPE_CUDA_MEMORY_USAGE=1");
  // A flight recorder's program writes its window on SIGUSR1 (collector/inject/capture_gate.cpp).
  if (!options.flightRecorder.empty()) entries.push_back("GPUSCOPE_FLIGHT_SIGNAL=1");
  if (profilesMetrics(options)) {
    entries.push_back("GPUSCOPE_METRICS=roofline");
    if (!options.kernelRegex.empty()) entries.push_back("GPUSCOPE_KERNEL_REGEX=" + options.kernelRegex);
    if (options.kernelCount > 0) entries.push_back("GPUSCOPE_KERNEL_COUNT=" + std::to_string(options.kernelCount));
  }
  return entries;
}

}  // namespace

void checkGpuMetricsOptions(const RecordOptions& options) {
  std::string problem = gpu_metrics::gpuMetricsOptionsProblem(options.gpuMetricsFrequencyHz, options.gpuMetricsSet);
  if (!problem.empty()) throw TraceError(problem);
  bool sets = options.gpuMetricsFrequencyHz != gpu_metrics::kDefaultFrequencyHz ||
              options.gpuMetricsSet != gpu_metrics::kDefaultSet;
  if (sets && !options.gpuMetrics)
    throw TraceError("--gpu-metrics-frequency and --gpu-metrics-set shape the GPU metrics: add --gpu-metrics");
  if ((options.gpuMetrics || options.cudaMemoryUsage) && !hasTrace(options, "cuda"))
    throw TraceError(std::string(options.gpuMetrics ? "--gpu-metrics" : "--cuda-memory-usage") +
                     " needs the CUDA trace: add cuda to -t");
  // The range profiler and PM sampling both hold the GPU's performance monitors; CUPTI allows one at a time.
  if (options.gpuMetrics && profilesMetrics(options))
    throw TraceError("--gpu-metrics and --metrics roofline both need the GPU's counters: record them in two runs");
}

void checkMetricsOptions(const RecordOptions& options) {
  if (!options.metrics.empty() && options.metrics != "none" && options.metrics != "roofline")
    throw TraceError("unknown --metrics '" + options.metrics + "': the one metric set is roofline");
  bool selects = !options.kernelRegex.empty() || options.kernelCount != 0;
  if (selects && !profilesMetrics(options))
    throw TraceError("--kernel-regex and --kernel-count choose the launches to profile: add --metrics roofline");
  if (options.kernelCount < 0) throw TraceError("--kernel-count takes a number of launches, 1 or more");
  if (!options.kernelRegex.empty()) {
    try {
      std::regex check(options.kernelRegex);
    } catch (const std::regex_error& error) {
      throw TraceError("--kernel-regex '" + options.kernelRegex + "' is not a valid regular expression (" +
                       error.what() + ")");
    }
  }
  if (profilesMetrics(options) && !hasTrace(options, "cuda"))
    throw TraceError("--metrics roofline needs the CUDA trace: add cuda to -t");
  checkGpuMetricsOptions(options);
}

InjectionLibraries findInjectionLibraries() {
  std::vector<std::string> directories;
  if (const char* dir = std::getenv("GPUSCOPE_LIB_DIR"); dir && *dir) directories.emplace_back(dir);
  std::string exeDir = executableDirectory();
  if (!exeDir.empty()) {
    directories.push_back(exeDir + "/../lib/gpuscope");
    directories.push_back(exeDir);
  }
#ifdef GPUSCOPE_BUILD_LIB_DIR
  directories.emplace_back(GPUSCOPE_BUILD_LIB_DIR);
#endif
  InjectionLibraries libraries;
  for (const std::string& directory : directories) {
    fs::path inject = fs::path(directory) / "libgpuscope_inject.so";
    std::error_code error;
    if (!fs::exists(inject, error)) continue;
    libraries.inject = fs::canonical(inject, error).string();
    fs::path withoutLocks = fs::path(directory) / "libgpuscope_inject_nolocks.so";
    if (fs::exists(withoutLocks, error)) libraries.injectWithoutLocks = fs::canonical(withoutLocks, error).string();
    fs::path cuda = fs::path(directory) / "libgpuscope_cuda.so";
    if (fs::exists(cuda, error)) libraries.cuda = fs::canonical(cuda, error).string();
    fs::path metricsHost = fs::path(directory) / "gpuscope-gpu-metrics";
    if (fs::exists(metricsHost, error)) libraries.gpuMetricsHost = fs::canonical(metricsHost, error).string();
    break;
  }
  return libraries;
}

namespace {

// Blocks the signals `record` handles (they arrive through sigtimedwait), in the calling thread
// and so in every thread started after it: the TraceWriter's lane, the daemon, the row pipeline.
// Created first, before any thread exists, so no signal can kill a helper thread. Restores the
// previous mask on destruction. SIGXFSZ is ignored meanwhile, so a file-size limit makes a write
// fail (reported as one sentence) instead of killing the recorder and orphaning the program.
class HandledSignals {
 public:
  HandledSignals() {
    sigemptyset(&set_);
    for (int signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGCHLD, SIGWINCH}) sigaddset(&set_, signal);
    pthread_sigmask(SIG_BLOCK, &set_, &previous_);
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGXFSZ, &ignore, &previousFileSize_);
  }
  ~HandledSignals() { restore(); }
  HandledSignals(const HandledSignals&) = delete;
  HandledSignals& operator=(const HandledSignals&) = delete;
  const sigset_t& set() const { return set_; }
  // Puts the mask and SIGXFSZ back as they were (also in a forked child, before exec).
  void restore() const {
    sigaction(SIGXFSZ, &previousFileSize_, nullptr);
    pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
  }

 private:
  sigset_t set_{};
  sigset_t previous_{};
  struct sigaction previousFileSize_ {};
};

// The option checks that need no file system: each problem throws TraceError with one sentence.
void checkOptions(const RecordOptions& options) {
  for (const std::string& trace : options.traces) {
    if (trace != "cuda" && trace != "nvtx" && trace != "osrt" && trace != "none") {
      throw TraceError("unknown trace '" + trace + "': choose from cuda, nvtx, osrt, none");
    }
  }
  if (options.command.empty() || options.command.front().empty()) {
    throw TraceError("no command to record: give it after --, as in: gpuscope record -o run.sqlite -- ./app args");
  }
  if (options.osrtThresholdNs < 0) throw TraceError("--osrt-threshold must be 0 or more nanoseconds");
  if (options.osrtBacktraceThresholdNs < 0)
    throw TraceError("--osrt-backtrace-threshold must be 0 or more nanoseconds");
  if (options.osrtBacktraceDepth < 0 || options.osrtBacktraceDepth > 127)
    throw TraceError("--osrt-backtrace-depth must be 0 to 127 frames, not " +
                     std::to_string(options.osrtBacktraceDepth));
  checkMetricsOptions(options);
  checkSamplingOptions(options.sampling);
  if (options.delaySeconds < 0 || options.durationSeconds < 0 || !std::isfinite(options.delaySeconds) ||
      !std::isfinite(options.durationSeconds)) {
    throw TraceError("--delay and --duration take a number of seconds, 0 or more");
  }
}

// The output path, checked: it may exist only with --force-overwrite, and its directory must.
std::string checkedOutputPath(const RecordOptions& options) {
  std::string path = outputPath(options);
  if (fs::exists(path) && !options.forceOverwrite) {
    throw TraceError(path + " already exists: choose another name with -o, or add --force-overwrite to replace it");
  }
  if (fs::is_directory(path)) throw TraceError(path + " is a directory: give a file name with -o");
  if (!fs::is_directory(fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path())) {
    throw TraceError("cannot write " + path + ": its directory does not exist");
  }
  return path;
}

InjectionLibraries checkedInjectionLibraries(const RecordOptions& options) {
  InjectionLibraries libraries = findInjectionLibraries();
  if (libraries.inject.empty()) {
    throw TraceError(
        "cannot find libgpuscope_inject.so (looked in $GPUSCOPE_LIB_DIR, next to gpuscope and in ../lib/gpuscope)");
  }
  if (hasTrace(options, "cuda") && libraries.cuda.empty()) {
    std::cerr << "gpuscope: this gpuscope was built without CUPTI: CUDA is not traced; NVTX and OS runtime calls are\n";
  }
#ifndef GPUSCOPE_INJECT_HAS_NVTX
  if (hasTrace(options, "nvtx")) {
    std::cerr << "gpuscope: this gpuscope was built without the NVTX headers: NVTX is not traced\n";
  }
#endif
  return libraries;
}

std::string recordedOptionsText(const RecordOptions& options) {
  std::string traces;
  for (const std::string& trace : options.traces) traces += (traces.empty() ? "" : ",") + trace;
  std::ostringstream text;
  text << "--trace=" << traces << " --osrt-threshold=" << options.osrtThresholdNs
       << (options.osrtForkChildren ? " --osrt-fork-children" : "") << (options.cudaSync ? " --cuda-sync" : "")
       << " --delay=" << options.delaySeconds << " --duration=" << options.durationSeconds
       << " --when-full=" << (options.dropWhenFull ? "drop" : "wait");
  if (profilesMetrics(options)) {
    text << " --metrics=roofline";
    if (!options.kernelRegex.empty()) text << " --kernel-regex=" << shellQuote(options.kernelRegex);
    if (options.kernelCount > 0) text << " --kernel-count=" << options.kernelCount;
  }
  if (options.gpuMetrics)
    text << " --gpu-metrics --gpu-metrics-frequency=" << options.gpuMetricsFrequencyHz
         << " --gpu-metrics-set=" << options.gpuMetricsSet;
  if (options.cudaMemoryUsage) text << " --cuda-memory-usage";
  text << " --osrt-backtrace-threshold=" << options.osrtBacktraceThresholdNs
       << " --osrt-backtrace-depth=" << options.osrtBacktraceDepth;
  text << " --sample=" << (options.sampling.cpu ? "cpu" : "none")
       << " --sampling-frequency=" << options.sampling.frequencyHz
       << " --cpuctxsw=" << (options.sampling.contextSwitches ? "process-tree" : "none");
  return text.str();
}

// Forks and execs the program with ENVIRONMENT, its signal mask restored. Returns its pid. The child waits
// before its execve until SAMPLING has opened its events on it, so that they follow it from its first
// instruction.
pid_t startProgram(const std::string& program, const RecordOptions& options, std::vector<std::string> environment,
                   const HandledSignals& signals, RecordSampling& sampling) {
  std::vector<char*> envp;
  for (std::string& entry : environment) envp.push_back(entry.data());
  envp.push_back(nullptr);
  std::vector<std::string> arguments = options.command;
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);
  int gate[2] = {-1, -1};
  if (sampling.wanted() && pipe2(gate, O_CLOEXEC) != 0)
    throw TraceError(std::string("cannot start the program: ") + std::strerror(errno));
  pid_t child = fork();
  if (child < 0) throw TraceError(std::string("cannot start the program: ") + std::strerror(errno));
  if (child == 0) {
    signals.restore();
    if (gate[0] >= 0) {
      close(gate[1]);
      char released = 0;
      // Returns at the parent's close (0 bytes) or its death; either way the program runs.
      while (read(gate[0], &released, 1) < 0 && errno == EINTR) {
      }
    }
    execve(program.c_str(), argv.data(), envp.data());
    // Only async-signal-safe calls here: the daemon thread may hold locks we inherited.
    const char* reason = strerrordesc_np(errno);
    for (const char* part : {"gpuscope: cannot run ", program.c_str(), ": ", reason ? reason : "error", "\n"}) {
      ssize_t ignored = write(2, part, std::strlen(part));
      (void)ignored;
    }
    _exit(127);
  }
  if (gate[0] >= 0) {
    close(gate[0]);
    sampling.attach(child);
    close(gate[1]);
  }
  return child;
}

// Reaps the CUDA probe if it ended, and says what it found.
void reapProbe(pid_t& probe, bool wait) {
  if (probe <= 0) return;
  int probeStatus = 0;
  pid_t reaped = waitpid(probe, &probeStatus, WNOHANG);
  // A driver that hangs in cuInit must not hang the recording: give the probe 5 s more at the end.
  for (int i = 0; wait && reaped == 0 && i < 100; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    reaped = waitpid(probe, &probeStatus, WNOHANG);
  }
  if (reaped == probe) {
    std::string message = probeMessage(probeStatus);
    if (!message.empty()) std::cerr << "gpuscope: " << message << "\n";
    probe = -1;
  } else if (wait) {
    kill(probe, SIGKILL);
    waitpid(probe, &probeStatus, 0);
    probe = -1;
  }
}

struct ProgramEnd {
  int status = 0;  // as waitpid reports it
  double seconds = 0;
};

// Waits for the program to end, passing signals on: one sent to the whole process group (a Ctrl-C
// from the terminal) reaches the program by itself and is not sent again (see GroupSignalWitness);
// a second Ctrl-C kills it. Ends the program when --duration is over
// or when the trace can no longer be written (the daemon failed: disk full).
ProgramEnd superviseProgram(pid_t child, pid_t& probe, const RecordOptions& options, const HandledSignals& signals,
                            GroupSignalWitness& witness, const TraceDaemon& daemon,
                            std::chrono::steady_clock::time_point started, const std::function<bool()>& rangeOver) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point never{};
  auto runFor = std::chrono::nanoseconds(static_cast<int64_t>((options.delaySeconds + options.durationSeconds) * 1e9));
  bool durationOver = options.durationSeconds <= 0;
  bool failureSeen = false;
  bool rangeEnded = false;
  int interrupts = 0;
  Clock::time_point terminateAt = never, killAt = never;
  ProgramEnd end;
  for (;;) {
    timespec timeout{0, 50'000'000};
    siginfo_t info{};
    int signal = sigtimedwait(&signals.set(), &info, &timeout);
    auto now = Clock::now();
    if (signal == SIGCHLD || signal < 0) {
      if (waitpid(child, &end.status, WNOHANG) == child) break;
      reapProbe(probe, false);
    } else if (signal == SIGINT) {
      ++interrupts;
      if (mustPassOn(witness, info, child)) kill(child, SIGINT);
      if (interrupts == 1) {
        std::cerr << "gpuscope: interrupted: waiting for the program to end (Ctrl-C again to kill it)\n";
        terminateAt = now + kInterruptWait;
      } else {
        kill(child, SIGKILL);
      }
    } else if (signal > 0) {
      if (mustPassOn(witness, info, child)) kill(child, signal);
    }
    if (!durationOver && now - started >= runFor) {
      durationOver = true;
      std::cerr << "gpuscope: --duration reached: ending the program with SIGTERM\n";
      kill(child, SIGTERM);
      killAt = now + kTerminateWait;
    }
    if (!rangeEnded && rangeOver()) {
      rangeEnded = true;
      std::cerr << "gpuscope: the capture range ended: ending the program with SIGTERM (--capture-range-end "
                   "stop-shutdown)\n";
      kill(child, SIGTERM);
      killAt = now + kTerminateWait;
    }
    if (!failureSeen && daemon.failed()) {
      failureSeen = true;
      std::cerr << "gpuscope: the trace can no longer be written (" << daemon.failure()
                << "): ending the program with SIGTERM\n";
      kill(child, SIGTERM);
      killAt = now + kTerminateWait;
    }
    if (terminateAt != never && now >= terminateAt) {
      terminateAt = never;
      kill(child, SIGTERM);
      killAt = now + kTerminateWait;
    }
    if (killAt != never && now >= killAt) {
      killAt = never;
      kill(child, SIGKILL);
    }
  }
  end.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return end;
}

}  // namespace

namespace {

struct CaptureSettings {
  transport::CaptureTrigger trigger = transport::CaptureTrigger::Recorder;
  transport::CaptureRangeEnd rangeEnd = transport::CaptureRangeEnd::StopShutdown;
  int32_t ranges = 1;  // -1: no limit
  std::string nvtxName, nvtxDomain;
};

CaptureSettings captureSettings(const RecordOptions& options) {
  CaptureSettings settings;
  if (options.captureRange == "cudaProfilerApi") settings.trigger = transport::CaptureTrigger::CudaProfilerApi;
  if (options.captureRange == "nvtx") settings.trigger = transport::CaptureTrigger::Nvtx;
  const std::string& end = options.captureRangeEnd;
  if (end == "stop") settings.rangeEnd = transport::CaptureRangeEnd::Stop;
  if (end == "none") settings.rangeEnd = transport::CaptureRangeEnd::None;
  if (end.starts_with("repeat")) {
    settings.rangeEnd = transport::CaptureRangeEnd::Repeat;
    settings.ranges = end.size() > 7 ? std::stoi(end.substr(7)) : -1;
  }
  // NAME@DOMAIN; a name without @ is in the default domain, as nsys reads it.
  size_t at = options.nvtxCapture.rfind('@');
  settings.nvtxName = options.nvtxCapture.substr(0, at);
  if (at != std::string::npos) settings.nvtxDomain = options.nvtxCapture.substr(at + 1);
  return settings;
}

std::string triggerText(const RecordOptions& options) {
  if (options.captureRange == "nvtx") return "nvtx:" + options.nvtxCapture;
  if (!options.captureRange.empty()) return options.captureRange;
  return options.launched ? "start" : "record";
}

// How the windows' files are named: -o as given for one window; numbered for repeated ranges and sessions.
WindowNaming windowNaming(const RecordOptions& options, const std::string& sessionName) {
  WindowNaming naming;
  naming.forceOverwrite = options.forceOverwrite;
  bool repeats = options.captureRangeEnd.starts_with("repeat");
  if (options.launched) {
    naming.path = options.output.empty() ? sessionName + ".sqlite" : options.output;
    naming.numbered = true;
  } else if (repeats && !options.captureRange.empty()) {
    naming.path = outputPath(options);
    naming.numbered = true;
  } else {
    naming.path = checkedOutputPath(options);
  }
  // Numbers go before .sqlite: a session named for its rank (p.0) keeps its dot (p.0.1.sqlite).
  if (naming.numbered && fs::path(naming.path).extension() != ".sqlite") naming.path += ".sqlite";
  fs::path directory = fs::path(naming.path).parent_path();
  if (!directory.empty() && !fs::is_directory(directory))
    throw TraceError("cannot write " + naming.path + ": its directory does not exist");
  return naming;
}

std::string defaultSessionName() { return "gpuscope-" + std::to_string(getpid()); }

// The control channel of the session, or nothing when this user's control directory is unusable (then
// `record` goes on without it; `launch`, which is nothing without it, refuses).
std::unique_ptr<control::ControlServer> startControlServer(const RecordOptions& options, const std::string& name,
                                                           SessionControl& control) {
  try {
    return std::make_unique<control::ControlServer>(
        control::socketPath(name), [&control](const control::Request& request) { return control.handle(request); });
  } catch (const TraceError& error) {
    if (options.launched) throw;
    std::cerr << "gpuscope: session " << name << " takes no start/stop requests: " << error.what() << "\n";
    return nullptr;
  }
}

}  // namespace

void checkCaptureOptions(const RecordOptions& options) {
  const std::string& range = options.captureRange;
  if (!range.empty() && range != "none" && range != "cudaProfilerApi" && range != "nvtx")
    throw TraceError("unknown --capture-range '" + range + "': choose cudaProfilerApi or nvtx");
  bool capturing = !range.empty() && range != "none";
  if (range == "nvtx" && options.nvtxCapture.empty())
    throw TraceError("--capture-range nvtx needs the range's name: add --nvtx-capture NAME[@DOMAIN]");
  if (!options.nvtxCapture.empty() && range != "nvtx")
    throw TraceError("--nvtx-capture names the range of --capture-range nvtx: add it");
  if (range == "nvtx" && !hasTrace(options, "nvtx"))
    throw TraceError("--capture-range nvtx needs the NVTX trace: add nvtx to -t");
  if (range == "cudaProfilerApi" && !hasTrace(options, "cuda"))
    throw TraceError("--capture-range cudaProfilerApi needs the CUDA trace: add cuda to -t");
  static const std::regex ends("stop|stop-shutdown|none|repeat(:[1-9][0-9]{0,8})?");
  if (!std::regex_match(options.captureRangeEnd, ends))
    throw TraceError("--capture-range-end takes stop, stop-shutdown, repeat, repeat:N (N 1 or more) or none, not '" +
                     options.captureRangeEnd + "'");
  if (options.captureRangeEnd != "stop-shutdown" && !capturing && !options.launched)
    throw TraceError("--capture-range-end says what ends a capture range: add --capture-range");
  if (capturing && options.launched)
    throw TraceError(
        "a launched session is started by gpuscope start, not by capture ranges: leave out --capture-range");
  bool windowed = capturing || options.launched;
  if (windowed && (options.sampling.cpu || options.sampling.contextSwitches))
    throw TraceError(
        std::string("CPU samples and thread switches are recorded only over a whole run in this version: ") +
        "add --sample none --cpuctxsw none to " + (options.launched ? "launch" : "--capture-range"));
  if (windowed && (options.delaySeconds > 0 || options.durationSeconds > 0))
    throw TraceError(
        std::string("--delay and --duration time a whole-run recording: ") +
        (options.launched ? "gpuscope start and stop time a session" : "the capture range times this one"));
  if (windowed && profilesMetrics(options))
    throw TraceError("--metrics roofline profiles whole runs: record it without capture ranges");
  bool flight = !options.flightRecorder.empty();
  if (flight && !options.launched) throw TraceError("--flight-recorder is an option of gpuscope launch");
  if (!flight && (!options.flightMemory.empty() || !options.trigger.empty()))
    throw TraceError("--flight-memory and --trigger shape a flight recorder: add --flight-recorder SPAN");
  if (flight) {
    parseFlightDuration(options.flightRecorder);
    if (!options.flightMemory.empty()) parseFlightMemory(options.flightMemory);
    if (!options.trigger.empty()) parseSlowRangeRule(options.trigger);
  }
}

RecordResult recordProgram(const RecordOptions& options) {
  // Before anything else, and before any thread exists: see HandledSignals.
  HandledSignals signals;
  checkOptions(options);
  checkCaptureOptions(options);
  std::string program = resolveCommand(options.command.front());
  std::string sessionName = options.sessionName.empty() ? defaultSessionName() : options.sessionName;
  WindowNaming naming = windowNaming(options, sessionName);
  InjectionLibraries libraries = checkedInjectionLibraries(options);
  bool traceCuda = hasTrace(options, "cuda");
  pid_t probe = traceCuda && !libraries.cuda.empty() ? startCudaProbe() : -1;
  if (profilesMetrics(options)) {
    // Counters need a GPU: say so before the program runs rather than record a file without them.
    if (libraries.cuda.empty())
      throw TraceError("--metrics roofline needs CUPTI, and this gpuscope was built without it");
    std::string problem = waitForProbe(probe);
    probe = -1;
    if (!problem.empty()) throw TraceError("--metrics roofline needs a CUDA GPU, and here there is " + problem);
  }
  StaleSessions stale = removeStaleSessionDirectories();
  if (stale.removed) {
    std::cerr << "gpuscope: removed " << stale.removed
              << " session folder(s) left in /dev/shm by recorders that were killed\n";
  }
  for (const std::string& trace : stale.traces) {
    std::cerr << "gpuscope: a recorder that was killed left " << trace << ": gpuscope record --recover " << trace
              << " makes a trace file of what it had written\n";
  }

  SessionDirectory session(naming.numbered ? numberedPath(naming.path, 1) : naming.path);
  CaptureSettings capture = captureSettings(options);
  transport::SessionGateFile gateFile(session.path(), capture.trigger, capture.rangeEnd, capture.ranges,
                                      capture.nvtxName, capture.nvtxDomain);
  transport::SessionGate& gate = gateFile.gate();
  std::string commandLine = joinCommand(options.command);
  WindowFileFacts facts;
  facts.writer.recorderVersion = options.recorderVersion.empty() ? GPUSCOPE_RECORDER_VERSION : options.recorderVersion;
  facts.writer.commandLine = commandLine;
  facts.recordOptions = recordedOptionsText(options);
  // Which demangler wrote the kernel names: nsys's own (cu++filt) spells some of them differently.
  if (traceCuda && !libraries.cuda.empty()) facts.kernelNameDemangler = GPUSCOPE_KERNEL_DEMANGLER;
  facts.trigger = triggerText(options);
  facts.profiledMetrics = profilesMetrics(options);
  facts.delayNs = static_cast<int64_t>(options.delaySeconds * 1e9);
  facts.durationNs = static_cast<int64_t>(options.durationSeconds * 1e9);
  RecordSampling sampling(options.sampling, osrtBacktracesWanted(options));
  bool flight = !options.flightRecorder.empty();
  DaemonOptions daemonOptions;
  daemonOptions.sessionDir = session.path();
  std::unique_ptr<WindowFiles> files;
  std::unique_ptr<FlightRecorder> flightRecorder;
  WindowSink* sink = nullptr;
  if (flight) {
    FlightOptions flightOptions;
    flightOptions.keepNs = parseFlightDuration(options.flightRecorder);
    if (!options.flightMemory.empty()) flightOptions.memoryBytes = parseFlightMemory(options.flightMemory);
    if (!options.trigger.empty()) flightOptions.trigger = parseSlowRangeRule(options.trigger);
    daemonOptions.segmentNs = flightSegmentNs(flightOptions.keepNs);
    daemonOptions.commitInterval = std::chrono::milliseconds(kFlightCommitMs);
    flightRecorder = std::make_unique<FlightRecorder>(flightOptions, session.path() + "/flight", naming, facts);
    sink = flightRecorder.get();
  } else {
    files = std::make_unique<WindowFiles>(naming, facts, sampling);
    sink = files.get();
  }
  TraceDaemon daemon(daemonOptions, gate, *sink);
  daemon.setDiagnosticHandler([](const Diagnostic& diagnostic) {
    std::cerr << "gpuscope: process " << diagnostic.pid << ": " << diagnostic.message << "\n";
  });
  if (flightRecorder)
    daemon.setRangeHook([recorder = flightRecorder.get()](std::string_view text, int64_t start, int64_t end) {
      recorder->rangeEnded(text, start, end);
    });
  SessionFacts sessionFacts{sessionName, commandLine, capture.trigger == transport::CaptureTrigger::Recorder,
                            "--capture-range " + options.captureRange};
  SessionControl control(sessionFacts, gate, files.get(), flightRecorder.get(), daemon);
  std::unique_ptr<control::ControlServer> server = startControlServer(options, sessionName, control);
  // `record` is a session that starts at once: the window opens before the program runs (a flight
  // recorder's too: it records all along).
  bool wholeRun = !options.launched && capture.trigger == transport::CaptureTrigger::Recorder;
  if (wholeRun || flight) transport::openGate(gate, transport::sessionClockNs());
  daemon.start();

  GroupSignalWitness witness(signals.set());
  auto started = std::chrono::steady_clock::now();
  pid_t child = -1;
  std::vector<std::string> environment = childEnvironment(options, libraries, session.path());
  std::optional<GpuMetricsHost> metricsHost;
  if (options.gpuMetrics && traceCuda && !libraries.gpuMetricsHost.empty())
    metricsHost.emplace(libraries.gpuMetricsHost, environment, options.gpuMetricsFrequencyHz, options.gpuMetricsSet);
  else if (options.gpuMetrics)
    std::cerr << "gpuscope: GPU metrics are not recorded: this gpuscope was built without CUPTI\n";
  try {
    child = startProgram(program, options, std::move(environment), signals, sampling);
  } catch (const TraceError&) {
    daemon.stop(std::chrono::milliseconds(0));
    throw;
  }
  control.setProgramPid(child);
  if (options.launched)
    std::cerr << "gpuscope: session " << sessionName << " runs " << commandLine << " (pid " << child << "); "
              << (flight ? "write its last " + options.flightRecorder + " with: gpuscope dump --session "
                         : std::string("record it with: gpuscope start --session "))
              << sessionName << "\n";
  // --capture-range-end stop-shutdown: the first range's file is written, then the program is ended.
  bool shutsDown = capture.trigger != transport::CaptureTrigger::Recorder &&
                   capture.rangeEnd == transport::CaptureRangeEnd::StopShutdown;
  auto dumpFlight = [&](const std::string& why, const std::optional<SlowRange>& slow) {
    try {
      std::string path = flightRecorder->dump(daemon, why, slow);
      std::cerr << "gpuscope: flight recorder (" << why << "): wrote " << path << "\n";
    } catch (const std::exception& error) {
      std::cerr << "gpuscope: flight recorder (" << why << "): no file written: " << error.what() << "\n";
    }
  };
  uint64_t dumpRequestsSeen = 0;
  auto tick = [&] {
    if (flightRecorder) {
      if (std::optional<SlowRange> slow = flightRecorder->takeTrigger())
        dumpFlight("--trigger " + options.trigger, slow);
      uint64_t requests = gate.dumpRequests.load(std::memory_order_acquire);
      if (requests > dumpRequestsSeen) {
        dumpRequestsSeen = requests;
        dumpFlight("SIGUSR1 to the program", std::nullopt);
      }
    }
    return shutsDown && files && files->closedWindows() > 0;
  };
  ProgramEnd end = superviseProgram(child, probe, options, signals, witness, daemon, started, tick);
  control.setEnded();
  if (metricsHost) metricsHost->stop();
  reapProbe(probe, true);
  int exitCode = WIFEXITED(end.status) ? WEXITSTATUS(end.status) : 128 + WTERMSIG(end.status);
  if (files) files->setExitStatus(exitCode);
  // A crash (or a SIGKILL) of the program: what the flight recorder kept is written before anything ends.
  if (flightRecorder && WIFSIGNALED(end.status))
    dumpFlight("the program was ended by signal " + std::to_string(WTERMSIG(end.status)) + " (" +
                   sigabbrev_np(WTERMSIG(end.status)) + ")",
               std::nullopt);
  sampling.stop();
  daemon.stop(kGraceForChildren);
  server.reset();

  std::vector<WrittenWindow> written = files ? files->written() : std::vector<WrittenWindow>{};
  if (wholeRun && (written.empty() || daemon.failed())) {
    std::string failure = daemon.failed() ? daemon.failure() : files->lastFailure();
    throw TraceError("the trace could not be written (" + failure +
                     "): the program was stopped and no file was written" +
                     (options.forceOverwrite ? "; the existing file was kept" : ""));
  }
  RecordResult result;
  result.exitCode = exitCode;
  result.signal = WIFSIGNALED(end.status) ? WTERMSIG(end.status) : 0;
  result.seconds = end.seconds;
  result.commandLine = commandLine;
  result.sessionName = sessionName;
  result.windowed = !wholeRun;
  for (const WrittenWindow& window : written) result.files.push_back(window.path);
  if (flightRecorder) result.files = flightRecorder->written();
  if (!result.files.empty()) result.path = result.files.back();
  if (!written.empty()) {
    result.counts = written.back().counts;
    result.transport = written.back().transport;
  } else {
    result.counts = daemon.counts();
    result.transport = daemon.transportCounts();
  }
  result.profiledMetrics = profilesMetrics(options);
  result.sampled = sampling.active();
  result.samples = sampling.counts();
  return result;
}

}  // namespace gpuscope
