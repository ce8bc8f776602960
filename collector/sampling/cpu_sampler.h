#pragma once
// CpuSampler: samples a program's threads while `gpuscope record` runs it (PerfRings on a thread of the
// recorder, not in the program), reads each sampled Python thread's stack as the sample arrives, and at
// the end names every address (ELF symbols, perf maps) into SampleRows for the trace file.
#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "collector/sampling/address_spaces.h"
#include "collector/sampling/perf_ring.h"
#include "collector/sampling/python_stacks.h"
#include "core/samples/sample_rows.h"

namespace gpuscope::sampling {

struct SamplerOptions {
  bool samples = true;  // false: context switches and mappings only
  int frequencyHz = 1000;
  bool contextSwitches = true;
};

struct SamplerCounts {
  uint64_t samples = 0;
  uint64_t switches = 0;
  uint64_t lost = 0;               // records the kernel could not write (the rings were full)
  uint64_t pythonSamples = 0;      // samples that got Python frames
  uint64_t pythonFailedReads = 0;  // Python stacks that could not be read whole
  int64_t pythonReadLagP50Ns = 0;  // from a sample to the reading of its Python stack
  int64_t pythonReadLagP99Ns = 0;
};

class CpuSampler {
 public:
  // Opens the events on PID, which must not have executed its program yet. Throws TraceError when the
  // kernel refuses.
  CpuSampler(pid_t pid, const SamplerOptions& options);
  ~CpuSampler();
  CpuSampler(const CpuSampler&) = delete;
  CpuSampler& operator=(const CpuSampler&) = delete;

  void start();
  // Reads what is left and stops the thread.
  void stop();

  // Every sample and switch in [BEGIN, END) (CLOCK_MONOTONIC), named, at trace times relative to ORIGIN.
  SampleRows rows(int64_t origin, int64_t begin, int64_t end) const;
  // Names each address chain (leaf first: an exact address, then return addresses) of process PID as
  // mapped at TIME, as the samples' are named: for the backtraces of OS-runtime calls.
  struct AddressChain {
    uint32_t pid = 0;
    uint64_t time = 0;
    std::span<const uint64_t> frames;
  };
  std::vector<std::vector<NamedFrame>> nameChains(const std::vector<AddressChain>& chains) const;
  // The processes sampled.
  std::vector<uint32_t> pids() const;
  SamplerCounts counts() const;

 private:
  struct RawSample {
    uint64_t time;
    uint32_t pid, tid, cpu;
    uint32_t nativeStack;  // index into nativeStacks_
    uint32_t pythonStack;  // index into pythonStacks_, kNoStack when none
  };
  struct NativeStack {
    uint32_t pid;
    std::vector<uint64_t> chain;
    uint64_t firstSeen;
  };
  class NameCache;  // cpu_sampler_naming.cpp
  static constexpr uint32_t kNoStack = UINT32_MAX;

  void run();
  void onSample(const SampleRecord& sample);
  void onMapping(const MmapRecord& map);
  void onTask(const TaskRecord& task);
  uint32_t internNative(uint32_t pid, std::span<const uint64_t> chain, uint64_t time);
  uint32_t internPython(const std::vector<PythonFrame>& frames);
  std::vector<NamedFrame> nameNative(const NativeStack& stack, NameCache& cache) const;
  std::vector<NamedFrame> withPython(const std::vector<NamedFrame>& native, uint32_t pid, uint32_t python) const;

  std::unique_ptr<PerfRings> rings_;
  std::thread thread_;
  std::atomic<bool> stopping_{false};

  AddressSpaces spaces_;
  PythonStacks python_;
  std::unordered_map<uint32_t, std::string> interpreterOf_;  // pid -> the CPython file it runs
  std::vector<RawSample> samples_;
  std::vector<SchedSwitch> switches_;  // times still CLOCK_MONOTONIC
  std::vector<NativeStack> nativeStacks_;
  std::map<std::pair<uint32_t, std::vector<uint64_t>>, uint32_t> nativeIds_;
  std::vector<std::vector<PythonFrame>> pythonStacks_;
  std::map<std::vector<std::pair<uint32_t, int>>, uint32_t> pythonIds_;
  std::vector<int64_t> pythonLags_;
  uint64_t pythonSamples_ = 0;
};

}  // namespace gpuscope::sampling
