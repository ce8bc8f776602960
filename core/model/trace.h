#pragma once
// Trace: the in-memory, time-sorted, per-track columns the viewer and the CLI read.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <typeindex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/model/trace_types.h"

namespace gpuscope {

class CorrelationIndex;
class Database;
class TraceLoader;

// Events that never overlap, sorted by start and therefore also by end: one depth level of a track.
struct Lane {
  // An event's end is kept as its length after start, in 32 bits: 4 bytes per event less than a second
  // time column. The rare event of 4.29 s or longer has kLongLength there and its end in longEnds.
  static constexpr uint32_t kLongLength = UINT32_MAX;
  std::vector<TimeNs> start;
  std::vector<uint32_t> length;                       // end - start, or kLongLength
  std::vector<std::pair<uint32_t, TimeNs>> longEnds;  // (index, end) where length is kLongLength, by index
  std::vector<StringId> name;
  std::vector<uint32_t> correlation;  // 0 when the event has none
  std::vector<uint32_t> row;          // rowid in the source table: details are fetched on demand
  std::vector<uint32_t> style;        // NVTX: ARGB colour (0: none); memory: copyKind or kMemsetStyle;
                                      // kernels: the demangled name's StringId (the short name's without one)

  size_t size() const { return start.size(); }
  TimeNs end(size_t i) const {
    uint32_t l = length[i];
    return l != kLongLength ? start[i] + static_cast<TimeNs>(l) : longEnd(i);
  }
  // Appends the start and end of an event (END >= START); the other columns are the caller's.
  void pushInterval(TimeNs s, TimeNs e);
  void reserveIntervals(size_t n) {
    start.reserve(n);
    length.reserve(n);
  }
  TimeNs longEnd(size_t i) const;  // the end of an event of kLongLength
  // The first index in [lo, hi) whose event does not end before LIMIT (ends are sorted), else hi.
  size_t firstEndAtOrAfter(size_t lo, size_t hi, TimeNs limit) const;
};

inline constexpr uint32_t kMemsetStyle = 0xFFFF;

// One row of the timeline: a thread's CUDA API / NVTX / OS runtime calls, or a stream's kernels / memory ops.
struct Track {
  TrackKind kind = TrackKind::CudaApi;
  uint32_t pid = 0;
  uint32_t tid = 0;        // CPU tracks
  int64_t globalTid = 0;   // CPU tracks; the process' globalPid for GPU tracks
  uint32_t deviceId = 0;   // GPU tracks
  uint32_t contextId = 0;  // GPU tracks
  uint32_t streamId = 0;   // GPU tracks
  int64_t nvtxDomain = 0;  // NVTX tracks: the domain id (0: default domain)
  std::string label;
  std::vector<Lane> lanes;  // lane i holds the events at nesting depth i
  TimeNs first = 0;
  TimeNs last = 0;

  size_t eventCount() const;
  bool isGpu() const { return kind == TrackKind::GpuKernels || kind == TrackKind::GpuMemory; }
};

struct ThreadInfo {
  int64_t globalTid = 0;
  uint32_t tid = 0;
  std::string name;
  std::vector<uint32_t> tracks;  // indexes into Trace::tracks(), CUDA API / NVTX / OS runtime order
};

struct ProcessInfo {
  int64_t globalPid = 0;
  uint32_t pid = 0;
  std::string name;
  std::vector<ThreadInfo> threads;  // main thread first, then by tid
  // In a file that holds ranks (GPUSCOPE_RANKS, as gpuscope merge and gpuscope record write): the process's rank
  // and host.
  std::optional<int64_t> rank;
  std::string host;
};

struct StreamInfo {
  uint32_t pid = 0;
  uint32_t contextId = 0;
  uint32_t streamId = 0;
  std::vector<uint32_t> tracks;  // kernels, then memory
};

// A GPU as TARGET_INFO_GPU describes it; zero where the file does not say.
struct DeviceInfo {
  uint32_t id = 0;
  std::string name;
  std::string chipName;
  int64_t totalMemory = 0;
  int64_t memoryBandwidth = 0;  // bytes per second
  int64_t clockRate = 0;        // Hz
  int64_t l2CacheSize = 0;
  int smCount = 0;
  int computeMajor = 0;
  int computeMinor = 0;
  int threadsPerWarp = 0;
  int maxWarpsPerSm = 0;
  int maxBlocksPerSm = 0;
  int maxThreadsPerBlock = 0;
  int maxRegistersPerSm = 0;
  int maxRegistersPerBlock = 0;
  int64_t maxShmemPerSm = 0;
  int64_t maxShmemPerBlock = 0;
  int64_t maxShmemPerBlockOptin = 0;
  std::vector<StreamInfo> streams;
};

struct EventCounts {
  size_t kernels = 0;
  size_t memcpys = 0;
  size_t memsets = 0;
  size_t syncs = 0;
  size_t cudaApi = 0;
  size_t nvtx = 0;
  size_t osrt = 0;
  size_t total() const { return kernels + memcpys + memsets + cudaApi + nvtx + osrt; }
};

class Trace {
 public:
  Trace();
  ~Trace();
  Trace(const Trace&) = delete;
  Trace& operator=(const Trace&) = delete;

  const std::string& path() const { return path_; }
  const std::vector<Track>& tracks() const { return tracks_; }
  const Track& track(uint32_t index) const { return tracks_.at(index); }
  const std::vector<ProcessInfo>& processes() const { return processes_; }
  const std::vector<DeviceInfo>& devices() const { return devices_; }
  const DeviceInfo* device(uint32_t id) const;
  const EventCounts& counts() const { return counts_; }
  TimeNs startTime() const { return start_; }
  // Where shown times count from in BASE: the trace start, or zero for session time.
  TimeNs timeOrigin(TimeBase base) const { return base == TimeBase::Trace ? start_ : 0; }
  TimeNs endTime() const { return end_; }

  const std::string& string(StringId id) const;
  size_t stringCount() const { return strings_.size(); }

  // Event accessors through a reference.
  TimeNs start(EventRef ref) const { return lane(ref).start[ref.index]; }
  TimeNs end(EventRef ref) const { return lane(ref).end(ref.index); }
  const std::string& name(EventRef ref) const { return string(lane(ref).name[ref.index]); }
  // A kernel's demangled name (its short name where the file has none); other events' name().
  StringId longNameId(EventRef ref) const;
  const std::string& longName(EventRef ref) const { return string(longNameId(ref)); }
  const Lane& lane(EventRef ref) const { return tracks_[ref.track].lanes[ref.lane]; }

  // The CUDA API call that launched a piece of GPU work, and the GPU work an API call launched. The
  // first of these calls builds the correlation indexes (about 0.2 s of two threads at 10M events).
  std::optional<EventRef> launchingCall(EventRef gpuWork) const;
  std::vector<EventRef> launchedWork(EventRef apiCall) const;
  // The CUDA API call of process PID with CORRELATION (a memory usage event's, for one), through the same index.
  std::optional<EventRef> apiCallByCorrelation(uint32_t pid, uint32_t correlation) const;
  // Builds the correlation indexes now, once, whichever thread asks first: opening a trace does not
  // wait for them, and the viewer builds them on a worker once the window is up.
  void buildCorrelationIndexes() const;

  // A T that a layer above the model reads from this trace's file (core/samples' hostActivity(trace)): made
  // by MAKE on the first call for T, once, whichever thread asks first, then kept as long as the trace.
  template <class T, class Make>
  const T& memo(Make make) const {
    MemoSlot& slot = memoSlot(std::type_index(typeid(T)));
    std::call_once(slot.made, [&] { slot.value = std::make_shared<T>(make()); });
    return *static_cast<const T*>(slot.value.get());
  }

  // The open file, for details and reports that read columns drawing does not need.
  bool hasDatabase() const { return db_ != nullptr; }
  const Database& database() const { return *db_; }
  // Bytes held by the columns, strings and indexes (what the benchmark reports per event).
  size_t residentBytes() const;

 private:
  friend class TraceLoader;
  struct MemoSlot {
    std::once_flag made;
    std::shared_ptr<void> value;
  };
  MemoSlot& memoSlot(std::type_index type) const;

  std::string path_;
  std::unique_ptr<Database> db_;
  std::vector<std::string> strings_;
  std::vector<Track> tracks_;
  std::vector<ProcessInfo> processes_;
  std::vector<DeviceInfo> devices_;
  mutable std::once_flag correlationBuilt_;
  mutable std::unique_ptr<CorrelationIndex> apiByCorrelation_;
  mutable std::unique_ptr<CorrelationIndex> gpuByCorrelation_;
  mutable std::mutex memoMutex_;
  mutable std::unordered_map<std::type_index, std::unique_ptr<MemoSlot>> memos_;
  EventCounts counts_;
  TimeNs start_ = 0;
  TimeNs end_ = 0;
};

}  // namespace gpuscope
