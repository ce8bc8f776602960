// daemon_bench: how many events per second the recording daemon turns into trace rows, and how much
// memory it holds while doing so. Producer threads write ring records as recorded processes do (a
// mix of OS-runtime calls, NVTX push/pop pairs, and CUDA API calls with their kernels), while the
// daemon drains the rings into a trace file through TraceWriter.
//
// Usage: daemon_bench [EVENTS=4000000] [PRODUCERS=2] [osrt|nvtx|cuda|mixed]
// Prints the events, the wall time until every event was written (before the indexes), the
// events per second of wall time and per second of the daemon's own CPU time, the time finish()
// took (indexes), and the peak resident memory.
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "collector/daemon/trace_daemon.h"
#include "collector/transport/osrt_functions.h"
#include "collector/transport/ring_writer.h"
#include "collector/transport/session_clock.h"
#include "core/write/trace_writer.h"

namespace {

using namespace gpuscope;
using transport::RecordType;

double threadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

double processCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

long peakRssMiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;
}

enum class Mix { Osrt, Nvtx, Cuda, Mixed };

constexpr int64_t kWaitNs = 10'000'000'000;

// Writes EVENTS events into RING, as one thread of a recorded program would; returns events written.
uint64_t produce(transport::RingFileWriter& file, uint32_t ring, uint32_t tid, uint64_t events, Mix mix,
                 uint64_t kernelName, std::atomic<double>& cpu) {
  double cpuStart = threadCpuSeconds();
  int64_t time = transport::sessionClockNs();
  uint64_t written = 0;
  uint32_t correlation = tid << 20;
  for (uint64_t i = 0; written < events; ++i) {
    Mix kind = mix;
    if (mix == Mix::Mixed) kind = i % 3 == 0 ? Mix::Osrt : (i % 3 == 1 ? Mix::Nvtx : Mix::Cuda);
    time += 2000;
    if (kind == Mix::Osrt) {
      transport::OsRuntimeBody body{time, time + 1500, 0};
      file.write(ring, RecordType::OsRuntime, static_cast<uint16_t>(i % 8), tid, &body, sizeof body, nullptr, 0,
                 kWaitNs);
      written += 1;
    } else if (kind == Mix::Nvtx) {
      static constexpr std::string_view kNames[] = {"forward", "backward", "optimizer step", "data loading"};
      std::string_view text = kNames[i % 4];
      transport::NvtxEventBody push{};
      push.time = time;
      push.text = static_cast<uint8_t>(transport::NvtxText::Inline);
      push.textLength = static_cast<uint32_t>(text.size());
      file.write(ring, RecordType::NvtxPush, 0, tid, &push, sizeof push, &text, 1, kWaitNs);
      transport::NvtxPopBody pop{time + 1800, 0};
      file.write(ring, RecordType::NvtxPop, 0, tid, &pop, sizeof pop, nullptr, 0, kWaitNs);
      written += 2;
    } else {
      transport::CudaApiBody api{time, time + 1200, 1, ++correlation, 0};
      file.write(ring, RecordType::CudaApi, 0, tid, &api, sizeof api, nullptr, 0, kWaitNs);
      transport::KernelBody kernel{};
      kernel.start = time + 5000;
      kernel.end = time + 9000;
      kernel.demangledNameId = kernel.shortNameId = kernel.mangledNameId = kernelName;
      kernel.contextId = 1;
      kernel.streamId = 7;
      kernel.correlationId = correlation;
      kernel.gridX = kernel.gridY = kernel.gridZ = kernel.blockX = kernel.blockY = kernel.blockZ = 1;
      file.write(ring, RecordType::Kernel, 0, 0, &kernel, sizeof kernel, nullptr, 0, kWaitNs);
      written += 2;
    }
  }
  cpu.store(cpu.load() + threadCpuSeconds() - cpuStart);
  return written;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t events = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 4'000'000;
  uint32_t producers = argc > 2 ? static_cast<uint32_t>(std::atoi(argv[2])) : 2;
  std::string mixName = argc > 3 ? argv[3] : "mixed";
  Mix mix = mixName == "osrt" ? Mix::Osrt : mixName == "nvtx" ? Mix::Nvtx : mixName == "cuda" ? Mix::Cuda : Mix::Mixed;
  if (events == 0 || producers == 0 || producers > 64) {
    std::fprintf(stderr, "usage: daemon_bench [EVENTS] [PRODUCERS 1-64] [osrt|nvtx|cuda|mixed]\n");
    return 2;
  }
  namespace fs = std::filesystem;
  std::string session = "/dev/shm/gpuscope-bench-" + std::to_string(getpid());
  fs::create_directories(session);
  std::string output =
      (fs::temp_directory_path() / ("gpuscope-bench-" + std::to_string(getpid()) + ".sqlite")).string();

  long rssBefore = peakRssMiB();
  int64_t origin = transport::sessionClockNs();
  std::unique_ptr<transport::RingFileWriter> file(transport::RingFileWriter::create(
      session.c_str(), {producers + 1, 1 << 20}, static_cast<uint32_t>(getpid()), 0, 0, origin));
  if (!file) {
    std::perror("daemon_bench: cannot create the ring file");
    return 1;
  }
  std::string_view name = "void gemm_kernel<float>(float*, float const*, int)";
  transport::StringBody nameBody{1, static_cast<uint32_t>(name.size()), 0};
  file->write(0, RecordType::String, 0, 0, &nameBody, sizeof nameBody, &name, 1, kWaitNs);

  TraceWriter writer(output);
  DaemonOptions options;
  options.sessionDir = session;
  options.window.origin = origin;
  TraceDaemon daemon(writer, options);
  double cpuStart = processCpuSeconds();
  auto start = std::chrono::steady_clock::now();
  daemon.start();

  std::atomic<double> producerCpu{0};
  std::vector<std::thread> threads;
  std::atomic<uint64_t> produced{0};
  for (uint32_t p = 0; p < producers; ++p) {
    threads.emplace_back([&, p] {
      uint32_t ring = file->claimRing(p + 1);
      produced += produce(*file, ring, 1000 + p, events / producers, mix, 1, producerCpu);
    });
  }
  for (std::thread& thread : threads) thread.join();
  daemon.stop(std::chrono::milliseconds(0));
  auto drained = std::chrono::steady_clock::now();
  double cpuDrained = processCpuSeconds();
  writer.finish();
  auto finished = std::chrono::steady_clock::now();

  const RecordCounts& counts = daemon.counts();
  double ingest = std::chrono::duration<double>(drained - start).count();
  double daemonCpu = (cpuDrained - cpuStart) - producerCpu.load();
  double finish = std::chrono::duration<double>(finished - drained).count();
  uint64_t fileBytes = fs::file_size(output);
  std::printf("daemon_bench: %s mix, %u producer thread(s)\n", mixName.c_str(), producers);
  std::printf("  events (ring records)   %llu (dropped %llu)\n", static_cast<unsigned long long>(counts.records),
              static_cast<unsigned long long>(daemon.transportCounts().ringDropped));
  std::printf("  rows written            %llu\n", static_cast<unsigned long long>(counts.events()));
  std::printf("  ingest wall time        %.3f s   -> %.2f M events/s\n", ingest,
              static_cast<double>(counts.records) / ingest / 1e6);
  std::printf("  daemon CPU time         %.3f s   -> %.2f M events per CPU-second\n", daemonCpu,
              static_cast<double>(counts.records) / daemonCpu / 1e6);
  std::printf("  producers' CPU time     %.3f s\n", producerCpu.load());
  std::printf("  finish (indexes)        %.3f s\n", finish);
  std::printf("  file                    %.1f MiB, %.1f bytes per event\n", static_cast<double>(fileBytes) / 1048576.0,
              static_cast<double>(fileBytes) / static_cast<double>(counts.records));
  std::printf("  peak RSS                %ld MiB (%ld MiB before)\n", peakRssMiB(), rssBefore);
  std::printf("  cores                   %u online\n", std::thread::hardware_concurrency());
  fs::remove_all(session);
  fs::remove(output);

  // The same number of rows straight through TraceWriter (OS-runtime rows, the cheapest kind): what
  // SQLite itself costs, so the daemon's own share can be told apart.
  {
    uint64_t rows = counts.events();
    TraceWriter alone(output);
    double writerCpu = threadCpuSeconds();
    for (uint64_t i = 0; i < rows; ++i) {
      OsRuntimeRow row;
      row.start = static_cast<int64_t>(i) * 2000;
      row.end = row.start + 1500;
      row.globalTid = 0x0001000003E803E8;
      row.name = transport::osrtFunctionName(static_cast<uint16_t>(i % 8));
      alone.addOsRuntime(row);
    }
    writerCpu = threadCpuSeconds() - writerCpu;
    alone.finish();
    fs::remove(output);
    std::printf("  TraceWriter alone       %.3f CPU-s for %llu OS-runtime rows -> %.2f M rows per CPU-second\n",
                writerCpu, static_cast<unsigned long long>(rows), static_cast<double>(rows) / writerCpu / 1e6);
  }
  // The String record defining the kernel name is one record more than the producers' events.
  return produced.load() + 1 == counts.records ? 0 : 1;
}
