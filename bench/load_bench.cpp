// load_bench: loads a synthetic nsys-shaped trace of N events and compares loadTrace with a plain SQLite scan.
//
//   load_bench [--events N] [--file PATH] [--keep]
//
// Without --file, or when PATH does not exist, it first writes the trace with TraceWriter: CUDA
// runtime/driver calls on three threads of each of two processes, the kernels they launch on four
// streams of two GPUs (matching correlation ids), memcpy/memset, nested NVTX push/pop ranges and
// OS-runtime calls on all threads, in nearly time-sorted order as nsys writes them. Targets: load
// <= 1.2x the single-threaded scan of the columns the loader reads, and <= 48 resident bytes/event.
#include <malloc.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bench/column_scan.h"
#include "core/error.h"
#include "core/model/global_id.h"
#include "core/model/trace_loader.h"
#include "core/schema/nsys_enums.h"
#include "core/write/trace_writer.h"

namespace {

using namespace gpuscope;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// splitmix64: fast and good enough to shape a workload.
struct Random {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  int below(int n) { return static_cast<int>(next() % static_cast<uint64_t>(n)); }
  int64_t range(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }
  // Log-uniform in [lo, hi]: many short, a few long, as real call durations are.
  int64_t logUniform(double lo, double hi) { return static_cast<int64_t>(lo * std::pow(hi / lo, uniform())); }
};

struct KernelKind {
  std::string demangled, shortName, mangled;
  int gridX, blockX, registers;
  double meanNs;
};

struct Stream {
  uint32_t id;
  TimeNs free = 0;  // when the stream's last queued work ends
};

struct Process {
  uint32_t pid;
  int64_t globalPid;
  uint32_t device;
  std::vector<Stream> streams{};
  uint32_t nextCorrelation = 1;
};

struct OpenRange {
  TimeNs start;
  const char* text;
  std::optional<uint32_t> color;
};

struct Thread {
  size_t process;
  int64_t globalTid;
  bool cuda;  // launches CUDA work; the others are data-loader-like workers
  TimeNs now = 0;
  std::vector<OpenRange> ranges{};
};

struct OsCall {
  const char* name;
  double minNs, maxNs;
};
// clang-format off
constexpr OsCall kOsCalls[] = {
    {"pthread_mutex_lock", 1e3, 2e4}, {"pthread_cond_wait", 1e4, 5e6}, {"poll", 1e3, 2e6},   {"read", 1e3, 1e5},
    {"write", 1e3, 5e4},              {"ioctl", 1e3, 5e4},             {"sem_wait", 2e3, 1e6}, {"nanosleep", 5e4, 1e6},
    {"stat64", 1e3, 2e4},             {"open64", 2e3, 5e4},            {"close", 1e3, 1e4},    {"mmap64", 2e3, 3e4},
    {"munmap", 2e3, 3e4},             {"epoll_wait", 1e4, 3e6},        {"recvmsg", 1e3, 4e4},  {"fstat64", 1e3, 1e4},
};
const char* const kRangeNames[4][4] = {{"train_step", "eval_step", "data_wait", "checkpoint_save"},
                                       {"forward", "backward", "optimizer.step", "loss"},
                                       {"layer", "embedding", "head", "all_reduce"},
                                       {"attention", "mlp", "layer_norm", "dropout"}};
// clang-format on

// Writes a synthetic trace of about EVENTS events (kernels, memcpy, memset, CUDA API, NVTX, OS runtime).
class WorkloadGenerator {
 public:
  WorkloadGenerator(TraceWriter& writer, int64_t events) : w_(writer), target_(events) {
    const char* bases[] = {"sgemm_128x64_nn",
                           "elementwise_kernel",
                           "reduce_kernel",
                           "softmax_warp_forward",
                           "layer_norm_kernel",
                           "vectorized_elementwise_kernel",
                           "index_select_kernel",
                           "implicit_convolve_sgemm",
                           "nchwToNhwcKernel",
                           "transposeShared",
                           "saxpy",
                           "dropout_kernel",
                           "multi_tensor_apply_kernel",
                           "cat_batched_copy",
                           "fused_adam_kernel",
                           "flash_fwd_kernel",
                           "flash_bwd_kernel",
                           "splitKreduce_kernel",
                           "gemv2T_kernel",
                           "ncclDevKernel_AllReduce_Sum_f32_RING_LL"};
    for (const char* base : bases) {
      for (int variant = 0; variant < 6; ++variant) {
        std::string name(base);
        std::string templ = std::to_string(32 << (variant % 4)) + ", " + (variant < 3 ? "float" : "c10::Half");
        kinds_.push_back(
            {"void " + name + "<" + templ + ">(float *, const float *, int)", name,
             "_Z" + std::to_string(name.size()) + name + "ILi" + std::to_string(32 << (variant % 4)) + "EEvPfPKfi",
             1 << rnd_.range(4, 16), 32 << rnd_.below(4), static_cast<int>(rnd_.range(16, 128)),
             static_cast<double>(rnd_.logUniform(2e3, 3e4))});
      }
    }
    for (uint32_t p = 0; p < 2; ++p) {
      Process process{1000 + 1000 * p, global_id::make(0, 1, 1000 + 1000 * p, 0), p, {}};
      for (uint32_t s : {7u, 13u, 14u, 15u}) process.streams.push_back({s});
      processes_.push_back(process);
      for (uint32_t t = 0; t < 4; ++t) {
        threads_.push_back({p, global_id::make(0, 1, process.pid, process.pid + t), t < 3});
        threads_.back().now = 1'000'000 + rnd_.range(0, 50'000);
      }
    }
  }

  void run() {
    writeTargetInfo();
    while (written_ < target_) {
      // Weights per 63 actions: 37 launches (74 rows), 5 memory ops (10), 1 other call, 10 NVTX (5 ranges), 10 OSRT.
      int action = rnd_.below(63);
      if (action < 10) {
        osCall(pickThread(false));
      } else {
        Thread& thread = pickThread(true);
        if (action < 47)
          launch(thread);
        else if (action < 52)
          memoryOp(thread);
        else if (action < 53)
          otherCall(thread);
        else
          nvtx(thread);
      }
    }
    for (Thread& thread : threads_) {
      while (!thread.ranges.empty()) popRange(thread);
    }
  }

  int64_t written() const { return written_; }

 private:
  Thread& pickThread(bool cuda) {
    Thread* best = nullptr;
    for (Thread& thread : threads_) {
      if ((thread.cuda || !cuda) && (!best || thread.now < best->now)) best = &thread;
    }
    return *best;
  }

  // A CUDA API call at the thread's time; returns its correlation id.
  uint32_t apiCall(Thread& thread, const char* name, TimeNs duration, CudaApiKind kind = CudaApiKind::Runtime) {
    uint32_t correlation = processes_[thread.process].nextCorrelation++;
    w_.addCudaApi({thread.now, thread.now + duration, kind, thread.globalTid, correlation, name, 0, std::nullopt});
    ++written_;
    return correlation;
  }

  // Blocks the thread on a stream that has fallen too far behind, as cudaStreamSynchronize does.
  Stream& streamFor(Thread& thread) {
    Process& process = processes_[thread.process];
    Stream& stream = process.streams[static_cast<size_t>(rnd_.below(static_cast<int>(process.streams.size())))];
    if (stream.free > thread.now + 2'000'000) {
      TimeNs start = thread.now;
      uint32_t correlation = apiCall(thread, "cudaStreamSynchronize_v3020", stream.free + 3'000 - start);
      w_.addSync({start, stream.free, process.device, 1, std::nullopt, stream.id, correlation, process.globalPid, 3});
      thread.now = stream.free + 3'500;
    }
    return stream;
  }

  void launch(Thread& thread) {
    Process& process = processes_[thread.process];
    Stream& stream = streamFor(thread);
    const KernelKind& kind = kinds_[static_cast<size_t>(rnd_.below(static_cast<int>(kinds_.size())))];
    TimeNs callDuration = rnd_.range(2'000, 8'000);
    uint32_t correlation = apiCall(thread, "cudaLaunchKernel_v7000", callDuration);
    KernelRow k;
    k.start = std::max(stream.free + rnd_.range(500, 2'000), thread.now + rnd_.range(3'000, 6'000));
    k.end = k.start + static_cast<TimeNs>(kind.meanNs * (0.5 + rnd_.uniform()));
    k.deviceId = process.device;
    k.contextId = 1;
    k.streamId = stream.id;
    k.correlationId = correlation;
    k.globalPid = process.globalPid;
    k.demangledName = kind.demangled;
    k.shortName = kind.shortName;
    k.mangledName = kind.mangled;
    k.launchType = 0;
    k.registersPerThread = kind.registers;
    k.gridX = kind.gridX;
    k.blockX = kind.blockX;
    k.gridId = ++gridId_;
    w_.addKernel(k);
    ++written_;
    stream.free = k.end;
    thread.now += callDuration + rnd_.range(300, 3'000);
  }

  void memoryOp(Thread& thread) {
    Process& process = processes_[thread.process];
    Stream& stream = streamFor(thread);
    int64_t bytes = rnd_.logUniform(4096, 64 << 20);
    TimeNs callDuration = rnd_.range(3'000, 10'000);
    TimeNs gpuStart = std::max(stream.free + 1'000, thread.now + 4'000);
    if (rnd_.below(10) < 3) {
      TimeNs gpuEnd = gpuStart + 1'000 + bytes / 2'000;
      uint32_t correlation = apiCall(thread, "cudaMemsetAsync_v3020", callDuration);
      w_.addMemset({gpuStart, gpuEnd, process.device, 1, 0, stream.id, correlation, process.globalPid, 0, bytes,
                    nsys_enum::kMemDevice, std::nullopt});
      stream.free = gpuEnd;
    } else {
      int direction = rnd_.below(10);
      int copyKind = direction < 4 ? nsys_enum::kCopyHtoD : direction < 8 ? nsys_enum::kCopyDtoH : nsys_enum::kCopyDtoD;
      bool synchronous = rnd_.below(10) < 3;
      int host = synchronous ? nsys_enum::kMemPageable : nsys_enum::kMemPinned;
      TimeNs gpuEnd = gpuStart + 1'500 + bytes / (copyKind == nsys_enum::kCopyDtoD ? 1'000 : 25);
      if (synchronous) callDuration = gpuEnd + 2'000 - thread.now;
      uint32_t correlation = apiCall(thread, synchronous ? "cudaMemcpy_v3020" : "cudaMemcpyAsync_v3020", callDuration);
      MemcpyRow m;
      m.start = gpuStart;
      m.end = gpuEnd;
      m.deviceId = process.device;
      m.contextId = 1;
      m.streamId = stream.id;
      m.correlationId = correlation;
      m.globalPid = process.globalPid;
      m.bytes = bytes;
      m.copyKind = copyKind;
      m.srcKind = copyKind == nsys_enum::kCopyHtoD ? host : nsys_enum::kMemDevice;
      m.dstKind = copyKind == nsys_enum::kCopyDtoH ? host : nsys_enum::kMemDevice;
      w_.addMemcpy(m);
      stream.free = gpuEnd;
    }
    ++written_;
    thread.now += callDuration + rnd_.range(300, 3'000);
  }

  void otherCall(Thread& thread) {
    static constexpr std::pair<const char*, CudaApiKind> kCalls[] = {
        {"cudaEventRecord_v3020", CudaApiKind::Runtime},        {"cudaStreamWaitEvent_v3020", CudaApiKind::Runtime},
        {"cudaStreamIsCapturing_v10000", CudaApiKind::Runtime}, {"cuKernelGetName", CudaApiKind::Driver},
        {"cuGetProcAddress_v2", CudaApiKind::Driver},           {"cudaGetLastError_v3020", CudaApiKind::Runtime}};
    const auto& [name, kind] = kCalls[rnd_.below(6)];
    TimeNs duration = rnd_.range(500, 4'000);
    apiCall(thread, name, duration, kind);
    thread.now += duration + rnd_.range(300, 2'000);
  }

  void nvtx(Thread& thread) {
    size_t depth = thread.ranges.size();
    if (depth == 0 || (depth < 4 && rnd_.below(2) == 0)) {
      std::optional<uint32_t> color;
      if (depth == 2) color = 0xFF000000u | static_cast<uint32_t>(rnd_.next() & 0xFFFFFF);
      thread.ranges.push_back({thread.now, kRangeNames[depth][rnd_.below(4)], color});
      thread.now += rnd_.range(200, 800);
    } else {
      popRange(thread);
    }
  }

  void popRange(Thread& thread) {
    const OpenRange& range = thread.ranges.back();
    NvtxRow row;
    row.start = range.start;
    row.end = thread.now;
    row.globalTid = thread.globalTid;
    row.text = range.text;
    row.color = range.color;
    w_.addNvtxPushPopRange(row);
    ++written_;
    thread.ranges.pop_back();
    thread.now += rnd_.range(200, 800);
  }

  void osCall(Thread& thread) {
    const OsCall& call = kOsCalls[rnd_.below(static_cast<int>(std::size(kOsCalls)))];
    TimeNs duration = rnd_.logUniform(call.minNs, call.maxNs);
    w_.addOsRuntime({thread.now, thread.now + duration, thread.globalTid, call.name, 0, 0, std::nullopt});
    ++written_;
    thread.now += duration + rnd_.range(500, thread.cuda ? 3'000 : 30'000);
  }

  void writeTargetInfo() {
    w_.setSessionStart(1'795'318'592'513'940'587);
    for (const Process& process : processes_) {
      w_.addProcess({process.globalPid, process.pid, "python3"});
      for (const Stream& stream : process.streams)
        w_.addCudaStream({stream.id, 0, 1, process.pid, 1, stream.id == 7 ? 0 : 4294967291, 1});
      GpuInfoRow gpu;
      gpu.vmId = int64_t{1} << 48;
      gpu.id = process.device;
      gpu.name = "NVIDIA H100 80GB HBM3";
      gpu.chipName = "GH100";
      gpu.busLocation = process.device == 0 ? "0000:00:06.0" : "0000:00:07.0";
      gpu.totalMemory = 85017493504;
      gpu.memoryBandwidth = 3352320000000;
      gpu.clockRate = 1980000000;
      gpu.l2CacheSize = 52428800;
      gpu.smCount = 132;
      gpu.threadsPerWarp = 32;
      gpu.maxWarpsPerSm = 64;
      gpu.maxBlocksPerSm = 32;
      gpu.maxThreadsPerBlock = 1024;
      gpu.maxRegistersPerSm = 65536;
      gpu.maxShmemPerSm = 233472;
      gpu.computeMajor = 9;
      gpu.computeMinor = 0;
      w_.addGpu(gpu);
    }
    for (const Thread& thread : threads_) {
      bool main = global_id::tid(thread.globalTid) == processes_[thread.process].pid;
      w_.addThreadName({thread.globalTid, main ? "python3" : thread.cuda ? "pt_autograd_0" : "pt_data_worker", 20});
    }
  }

  TraceWriter& w_;
  int64_t target_;
  int64_t written_ = 0;
  int64_t gridId_ = 0;
  Random rnd_{20251122};
  std::vector<KernelKind> kinds_;
  std::vector<Process> processes_;
  std::vector<Thread> threads_;
};

// A field of /proc/self/status in bytes (VmRSS, VmHWM), 0 where unavailable.
int64_t procStatusBytes(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field + ":", 0) == 0) return std::atoll(line.c_str() + field.size() + 1) * 1024;
  }
  return 0;
}

std::string thousands(int64_t value) {
  std::string digits = std::to_string(value);
  std::string grouped;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && digits[i - 1] != '-' && (digits.size() - i) % 3 == 0) grouped += ',';
    grouped += digits[i];
  }
  return grouped;
}

void row(const char* name, const std::string& value, const std::string& target = "", const char* verdict = "") {
  std::printf("  %-26s %-24s %-10s %s\n", name, value.c_str(), target.c_str(), verdict);
}

std::string format(const char* pattern, double value, double second = 0) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value, second);
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  int64_t events = 10'000'000;
  std::string path;
  bool keep = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--events" && i + 1 < argc) {
      events = std::atoll(argv[++i]);
    } else if (arg == "--file" && i + 1 < argc) {
      path = argv[++i];
    } else if (arg == "--keep") {
      keep = true;
    } else {
      std::fprintf(stderr, "usage: load_bench [--events N] [--file PATH] [--keep]\n");
      return arg == "--help" ? 0 : 2;
    }
  }
  if (events <= 0) {
    std::fprintf(stderr, "load_bench: --events must be a positive number.\n");
    return 2;
  }
  bool generated = false;
  double generateSeconds = 0;
  if (path.empty()) {
    path = (fs::temp_directory_path() / ("gpuscope_load_bench_" + std::to_string(events) + ".sqlite")).string();
    std::error_code ec;
    fs::remove(path, ec);  // without --file the trace is always written afresh
  }
  if (!fs::exists(path)) {
    std::printf("load_bench: writing %s events to %s ...\n", thousands(events).c_str(), path.c_str());
    std::fflush(stdout);
    auto start = Clock::now();
    try {
      TraceWriter writer(path);
      WorkloadGenerator generator(writer, events);
      generator.run();
      writer.finish();
    } catch (const TraceError& error) {
      std::fprintf(stderr, "load_bench: %s\n", error.what());
      return 1;
    }
    generateSeconds = secondsSince(start);
    generated = true;
  }

  bench::ScanResult scan = bench::fastestScan(path);

  malloc_trim(0);
  int64_t rssBefore = procStatusBytes("VmRSS");
  { std::ofstream("/proc/self/clear_refs") << "5"; }  // resets VmHWM to the current RSS
  auto loadStart = Clock::now();
  double loadCpuStart = bench::processCpuSeconds();
  std::unique_ptr<Trace> trace;
  try {
    trace = loadTrace(path);
    trace->buildCorrelationIndexes();  // timed with the load, as before the viewer deferred them
  } catch (const TraceError& error) {
    std::fprintf(stderr, "load_bench: %s\n", error.what());
    return 1;
  }
  double loadSeconds = secondsSince(loadStart);
  double loadCpuSeconds = bench::processCpuSeconds() - loadCpuStart;
  int64_t rssAfter = procStatusBytes("VmRSS");
  int64_t peak = procStatusBytes("VmHWM");
  malloc_trim(0);
  int64_t rssTrimmed = procStatusBytes("VmRSS");

  auto loaded = static_cast<double>(trace->counts().total());
  double ratio = loadSeconds / scan.seconds;
  double resident = static_cast<double>(trace->residentBytes()) / loaded;
  double rssPerEvent = static_cast<double>(rssAfter - rssBefore) / loaded;
  double trimmedPerEvent = static_cast<double>(rssTrimmed - rssBefore) / loaded;

  std::printf("\nload_bench: %s (%s)\n", path.c_str(),
              generated ? format("written in %.1f s", generateSeconds).c_str() : "existing file");
  for (const auto& [table, rows] : scan.rowsPerTable)
    std::printf("  %-34s %14s rows\n", table.c_str(), thousands(rows).c_str());
  std::printf("\n  %-26s %-24s %-10s %s\n", "measure", "value", "target", "");
  row("file size", format("%.2f GiB", static_cast<double>(fs::file_size(path)) / (1 << 30)));
  row("events loaded",
      thousands(static_cast<int64_t>(loaded)) +
          (loaded == static_cast<double>(scan.eventRows) ? "" : " (scan: " + thousands(scan.eventRows) + ")"));
  row("sqlite scan, 1 thread",
      format("%.2f s  %.2f M ev/s", scan.seconds, static_cast<double>(scan.eventRows) / scan.seconds / 1e6));
  row("  CPU time", format("%.2f s", scan.cpuSeconds));
  row("loadTrace", format("%.2f s  %.2f M ev/s", loadSeconds, loaded / loadSeconds / 1e6));
  row("  CPU time, all threads", format("%.2f s", loadCpuSeconds));
  row("load / scan", format("%.2f x", ratio), "<= 1.20", ratio <= 1.2 ? "ok" : "MISSED");
  row("  CPU time load / scan", format("%.2f x", loadCpuSeconds / scan.cpuSeconds));
  row("resident bytes / event", format("%.1f B", resident), "<= 48", resident <= 48 ? "ok" : "MISSED");
  row("RSS delta / event", format("%.1f B", rssPerEvent), "<= 48", rssPerEvent <= 48 ? "ok" : "MISSED");
  row("  after malloc_trim", format("%.1f B", trimmedPerEvent));
  if (peak > rssBefore) row("peak RSS delta / event", format("%.1f B", static_cast<double>(peak - rssBefore) / loaded));
  std::printf("  (scan checksum %llu)\n", static_cast<unsigned long long>(scan.checksum));

  trace.reset();
  if (generated && !keep) fs::remove(path);
  return 0;
}
