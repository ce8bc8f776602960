#pragma once
// MemoryUsage: device memory over a run, from each allocation and free (nsys's CUDA_GPU_MEMORY_USAGE_EVENTS, as
// nsys --cuda-memory-usage, gpuscope record --cuda-memory-usage and the PyTorch profiler's [memory] events give
// them): per GPU and process, the bytes allocated after each event, and the peak.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/model/trace_types.h"
#include "core/schema/nsys_enums.h"

namespace gpuscope {

class Database;
class Trace;

struct MemoryUsageEvent {
  TimeNs time = 0;
  int64_t globalPid = 0;
  int deviceId = 0;
  int memKind = nsys_enum::kMemKindUnknown;  // ENUM_CUDA_MEM_KIND
  bool free = false;                         // a deallocation
  int64_t bytes = 0;                         // as the file says: the size allocated or freed
  int64_t address = 0;
  int64_t correlationId = -1;  // -1 when the file has none
};

// The device memory one process held on one GPU: after event i of the series, allocated[i] bytes.
struct ProcessMemory {
  int64_t globalPid = 0;
  int deviceId = 0;
  uint32_t hw = 0;  // globalPid's hw field: in a merged file, which host's GPU deviceId is
  std::vector<TimeNs> time;
  std::vector<int64_t> allocated;
  std::vector<uint32_t> event;  // index into MemoryUsage::events
  int64_t peak = 0;
  TimeNs peakTime = 0;
  size_t peakStep = 0;  // index into time/allocated/event

  // The step in effect at T (the last event at or before it), or -1 before the first.
  ptrdiff_t stepAt(TimeNs t) const;
};

struct MemoryUsage {
  std::vector<MemoryUsageEvent> events;  // in time order
  std::vector<ProcessMemory> processes;  // by device, then process
  // Rows not kept, and why (a NULL or text cell), and frees of an address with no live allocation whose own
  // size the file did not give: counted, never guessed.
  size_t refusedRows = 0;
  std::string refusedWhy;
  size_t unmatchedFrees = 0;
  std::string unreadable;

  bool empty() const { return events.empty(); }
  // The peak of all processes on the GPU DEVICE_ID of host HW (the hw field of their global ids; 0 in a
  // recording, one per rank in a merged file) together, and when.
  struct Peak {
    int64_t bytes = 0;
    TimeNs time = 0;
  };
  Peak devicePeak(int deviceId, uint32_t hw = 0) const;
};

// Whether an allocation of MEM_KIND (ENUM_CUDA_MEM_KIND) takes device memory: pageable and pinned host memory
// do not, every other kind does (device, array, managed, static).
bool takesDeviceMemory(int memKind);

// Reads DB's memory usage events; a file without the table gives none. Throws TraceError where it cannot query.
MemoryUsage readMemoryUsage(const Database& db);
const MemoryUsage& memoryUsage(const Trace& trace);

}  // namespace gpuscope
