#pragma once
// PerfRings: the kernel's sampling of one program and every process and thread it starts, through
// perf_event_open: a cpu-clock event per CPU, inherited by children, enabled when the program is executed,
// with user-space call chains (frame pointers, collected by the kernel), context switches, and the
// mmap/comm/fork/exit records needed to name what was sampled. Software events only, so it works where
// the machine offers no hardware PMU (the lent GPU machines, this CI machine).
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace gpuscope::sampling {

struct SampleRecord {
  uint32_t pid = 0, tid = 0, cpu = 0;
  uint64_t time = 0;                // CLOCK_MONOTONIC ns
  std::span<const uint64_t> chain;  // user-space return addresses, leaf first (perf's context markers removed)
};

struct SwitchRecord {
  uint32_t pid = 0, tid = 0, cpu = 0;
  uint64_t time = 0;
  bool out = false;
  bool preempted = false;
};

struct MmapRecord {
  uint32_t pid = 0;
  uint64_t time = 0;
  uint64_t start = 0, length = 0, pageOffset = 0;
  std::string path;
};

struct TaskRecord {  // fork, exit or comm
  enum Kind { Fork, Exit, Comm } kind = Fork;
  uint32_t pid = 0, tid = 0, parentPid = 0;
  uint64_t time = 0;
  bool exec = false;  // a comm record of an execve
  std::string comm;
};

struct RecordHandlers {
  std::function<void(const SampleRecord&)> sample;
  std::function<void(const SwitchRecord&)> contextSwitch;
  std::function<void(const MmapRecord&)> mmap;
  std::function<void(const TaskRecord&)> task;
};

struct PerfRingOptions {
  // False: no samples, only the records beside them (context switches, mappings, forks), from perf's
  // dummy event, for `--sample none` with context switches or OS-runtime backtraces to name.
  bool samples = true;
  int frequencyHz = 1000;
  bool contextSwitches = true;
  size_t dataPages = 128;  // per CPU, a power of two: 512 KiB with 4 KiB pages
};

class PerfRings {
 public:
  // Opens the events on PID (not yet executed: they start at its execve). Throws TraceError with one
  // sentence naming the cause (perf_event_paranoid, seccomp) when the kernel refuses.
  PerfRings(pid_t pid, const PerfRingOptions& options);
  ~PerfRings();
  PerfRings(const PerfRings&) = delete;
  PerfRings& operator=(const PerfRings&) = delete;

  // Waits up to TIMEOUT_MS for records, then hands every record written so far to HANDLERS.
  void drain(int timeoutMs, const RecordHandlers& handlers);

  uint64_t lostRecords() const { return lost_; }
  uint64_t throttles() const { return throttles_; }

 private:
  struct Ring {
    int fd = -1;
    void* base = nullptr;
    size_t size = 0;
  };
  void drainRing(Ring& ring, const RecordHandlers& handlers);
  void dispatch(const uint8_t* record, const RecordHandlers& handlers);

  std::vector<Ring> rings_;
  size_t pageSize_ = 4096;
  std::vector<uint8_t> scratch_;
  std::vector<uint64_t> chain_;
  uint64_t lost_ = 0;
  uint64_t throttles_ = 0;
};

// Whether this kernel lets a process sample its own children (a probe event opened and closed), and why
// not when it does not.
std::string samplingUnavailableReason();

}  // namespace gpuscope::sampling
