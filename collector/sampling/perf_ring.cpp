#include "collector/sampling/perf_ring.h"

#include <linux/perf_event.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>

#include "core/error.h"

namespace gpuscope::sampling {
namespace {

constexpr uint64_t kSampleType =
    PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_CALLCHAIN;

perf_event_attr samplingAttributes(const PerfRingOptions& options) {
  perf_event_attr attr{};
  attr.size = sizeof(attr);
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = options.samples ? PERF_COUNT_SW_CPU_CLOCK : PERF_COUNT_SW_DUMMY;
  // cpu-clock counts nanoseconds: a fixed period gives exactly FREQUENCY samples per second of running,
  // where frequency mode would start slow and adapt.
  attr.sample_period = 1'000'000'000ull / static_cast<uint64_t>(options.frequencyHz);
  attr.sample_type = kSampleType;
  attr.disabled = 1;
  attr.enable_on_exec = 1;
  attr.inherit = 1;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  attr.exclude_callchain_kernel = 1;
  attr.mmap = 1;
  attr.comm = 1;
  attr.task = 1;
  attr.mmap2 = 1;
  attr.sample_id_all = 1;
  attr.context_switch = options.contextSwitches ? 1 : 0;
  attr.use_clockid = 1;
  attr.clockid = CLOCK_MONOTONIC;  // the session clock of every other source
  // Woken for each sample, so that Python stacks are read while the sampled code still runs.
  attr.wakeup_events = 1;
  return attr;
}

int openEvent(perf_event_attr& attr, pid_t pid, int cpu) {
  return static_cast<int>(syscall(SYS_perf_event_open, &attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC));
}

std::string refusalSentence(int error) {
  std::string why = std::strerror(error);
  std::string paranoid = "?";
  std::ifstream level("/proc/sys/kernel/perf_event_paranoid");
  if (level) level >> paranoid;
  if (error == EACCES || error == EPERM)
    return "the kernel refused CPU sampling (" + why + "; kernel.perf_event_paranoid is " + paranoid +
           ", and 2 or less is needed; a container's seccomp profile can refuse it too)";
  if (error == ENOSYS) return "this kernel has no perf_event_open (CPU sampling): " + why;
  return "CPU sampling could not be set up: perf_event_open failed (" + why + ")";
}

// The CPUs the kernel knows (online or not); an offline one refuses its event and is skipped.
int possibleCpus() {
  long count = sysconf(_SC_NPROCESSORS_CONF);
  return count > 0 ? static_cast<int>(count) : 1;
}

template <typename T>
T readAt(const uint8_t* at) {
  T value;
  std::memcpy(&value, at, sizeof(T));
  return value;
}

// The sample_id fields appended to every non-sample record (sample_id_all): pid, tid, time, cpu.
struct SampleId {
  uint32_t pid, tid;
  uint64_t time;
  uint32_t cpu;
};
constexpr size_t kSampleIdSize = 8 + 8 + 8;
SampleId trailingSampleId(const uint8_t* record, uint16_t size) {
  const uint8_t* at = record + size - kSampleIdSize;
  return {readAt<uint32_t>(at), readAt<uint32_t>(at + 4), readAt<uint64_t>(at + 8), readAt<uint32_t>(at + 16)};
}

}  // namespace

PerfRings::PerfRings(pid_t pid, const PerfRingOptions& options) {
  pageSize_ = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  perf_event_attr attr = samplingAttributes(options);
  int firstError = 0;
  for (int cpu = 0; cpu < possibleCpus(); ++cpu) {
    int fd = openEvent(attr, pid, cpu);
    if (fd < 0) {
      if (errno != ENODEV && firstError == 0) firstError = errno;
      continue;
    }
    Ring ring;
    ring.fd = fd;
    ring.size = (1 + options.dataPages) * pageSize_;
    ring.base = mmap(nullptr, ring.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (ring.base == MAP_FAILED) {
      firstError = errno;
      close(fd);
      continue;
    }
    rings_.push_back(ring);
  }
  if (rings_.empty()) throw TraceError(refusalSentence(firstError ? firstError : ENODEV));
}

PerfRings::~PerfRings() {
  for (Ring& ring : rings_) {
    munmap(ring.base, ring.size);
    close(ring.fd);
  }
}

void PerfRings::drain(int timeoutMs, const RecordHandlers& handlers) {
  std::vector<pollfd> fds;
  for (const Ring& ring : rings_) fds.push_back({ring.fd, POLLIN, 0});
  poll(fds.data(), fds.size(), timeoutMs);
  for (Ring& ring : rings_) drainRing(ring, handlers);
}

void PerfRings::drainRing(Ring& ring, const RecordHandlers& handlers) {
  auto* page = static_cast<perf_event_mmap_page*>(ring.base);
  uint64_t head = __atomic_load_n(&page->data_head, __ATOMIC_ACQUIRE);
  uint64_t tail = page->data_tail;
  auto* data = static_cast<uint8_t*>(ring.base) + pageSize_;
  uint64_t dataSize = ring.size - pageSize_;
  while (tail < head) {
    uint64_t offset = tail % dataSize;
    perf_event_header header;
    // A record may wrap around the end of the buffer: copy it out whole first.
    auto copyOut = [&](uint8_t* into, uint64_t from, size_t length) {
      size_t first = std::min<uint64_t>(length, dataSize - from);
      std::memcpy(into, data + from, first);
      std::memcpy(into + first, data, length - first);
    };
    copyOut(reinterpret_cast<uint8_t*>(&header), offset, sizeof(header));
    if (header.size < sizeof(header)) break;  // never written by the kernel; stop rather than loop
    scratch_.resize(header.size);
    copyOut(scratch_.data(), offset, header.size);
    dispatch(scratch_.data(), handlers);
    tail += header.size;
  }
  __atomic_store_n(&page->data_tail, tail, __ATOMIC_RELEASE);
}

void PerfRings::dispatch(const uint8_t* record, const RecordHandlers& handlers) {
  auto header = readAt<perf_event_header>(record);
  const uint8_t* body = record + sizeof(header);
  switch (header.type) {
    case PERF_RECORD_SAMPLE: {
      SampleRecord sample;
      // IP, TID, TIME, CPU, CALLCHAIN: the order of the sample_type bits.
      sample.pid = readAt<uint32_t>(body + 8);
      sample.tid = readAt<uint32_t>(body + 12);
      sample.time = readAt<uint64_t>(body + 16);
      sample.cpu = readAt<uint32_t>(body + 24);
      uint64_t count = readAt<uint64_t>(body + 32);
      size_t room = (header.size - sizeof(header) - 40) / sizeof(uint64_t);
      if (count > room) count = room;
      chain_.clear();
      for (uint64_t i = 0; i < count; ++i) {
        uint64_t ip = readAt<uint64_t>(body + 40 + i * 8);
        if (ip >= static_cast<uint64_t>(PERF_CONTEXT_MAX)) continue;  // PERF_CONTEXT_USER and the like
        chain_.push_back(ip);
      }
      if (chain_.empty()) chain_.push_back(readAt<uint64_t>(body));
      sample.chain = chain_;
      if (handlers.sample) handlers.sample(sample);
      break;
    }
    case PERF_RECORD_SWITCH: {
      SampleId id = trailingSampleId(record, header.size);
      SwitchRecord change{id.pid,
                          id.tid,
                          id.cpu,
                          id.time,
                          (header.misc & PERF_RECORD_MISC_SWITCH_OUT) != 0,
                          (header.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) != 0};
      if (handlers.contextSwitch) handlers.contextSwitch(change);
      break;
    }
    case PERF_RECORD_MMAP2: {
      MmapRecord map;
      map.pid = readAt<uint32_t>(body);
      map.start = readAt<uint64_t>(body + 8);
      map.length = readAt<uint64_t>(body + 16);
      map.pageOffset = readAt<uint64_t>(body + 24);
      // maj, min, ino, ino_generation (or a build id): 24 bytes; prot, flags: 8; then the file name.
      const char* name = reinterpret_cast<const char*>(body + 64);
      size_t limit = header.size - sizeof(header) - 64;
      map.path.assign(name, strnlen(name, limit));
      map.time = trailingSampleId(record, header.size).time;
      if (handlers.mmap) handlers.mmap(map);
      break;
    }
    case PERF_RECORD_COMM: {
      TaskRecord task;
      task.kind = TaskRecord::Comm;
      task.pid = readAt<uint32_t>(body);
      task.tid = readAt<uint32_t>(body + 4);
      const char* name = reinterpret_cast<const char*>(body + 8);
      task.comm.assign(name, strnlen(name, header.size - sizeof(header) - 8));
      task.time = trailingSampleId(record, header.size).time;
      task.exec = (header.misc & PERF_RECORD_MISC_COMM_EXEC) != 0;
      if (handlers.task) handlers.task(task);
      break;
    }
    case PERF_RECORD_FORK:
    case PERF_RECORD_EXIT: {
      TaskRecord task;
      task.kind = header.type == PERF_RECORD_FORK ? TaskRecord::Fork : TaskRecord::Exit;
      task.pid = readAt<uint32_t>(body);
      task.parentPid = readAt<uint32_t>(body + 4);
      task.tid = readAt<uint32_t>(body + 8);
      task.time = readAt<uint64_t>(body + 16);
      if (handlers.task) handlers.task(task);
      break;
    }
    case PERF_RECORD_LOST:
      lost_ += readAt<uint64_t>(body + 8);
      break;
    case PERF_RECORD_THROTTLE:
      ++throttles_;
      break;
    default:
      break;
  }
}

std::string samplingUnavailableReason() {
  PerfRingOptions options;
  perf_event_attr attr = samplingAttributes(options);
  attr.enable_on_exec = 0;
  int fd = openEvent(attr, 0, -1);
  if (fd < 0) return refusalSentence(errno);
  close(fd);
  return {};
}

}  // namespace gpuscope::sampling
