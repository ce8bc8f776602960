#pragma once
// KinetoEvent: the fields of one traceEvents entry that gpuscope reads, flattened by the SAX reader.
#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "core/model/trace_types.h"

namespace gpuscope::kineto {

// pid and tid are numbers in most events and strings in a few (Kineto's "Spans" rows).
struct KinetoId {
  std::optional<int64_t> number;
  std::string text;
  bool isNumber() const { return number.has_value(); }
};

struct KinetoEvent {
  std::string ph;
  std::string cat;
  std::string name;
  KinetoId pid;
  KinetoId tid;
  std::optional<TimeNs> ts;   // ns: round(ts * 1000) of the file's microseconds
  std::optional<TimeNs> dur;  // ns
  // args
  std::optional<int64_t> correlation, device, stream, context, bytes, registers, sharedMemory;
  // args of the profiler's "[memory]" instant events (profile_memory=True): the allocator's device (type 1 is
  // CUDA), the block's address, and its size, negative for a free.
  std::optional<int64_t> memoryDeviceType, memoryDeviceId, memoryAddress, memoryBytes;
  std::array<int64_t, 3> grid{1, 1, 1};
  std::array<int64_t, 3> block{1, 1, 1};
  std::string argName;            // args.name of metadata events (process_name, thread_name)
  std::optional<int64_t> flowId;  // id of flow events (ph "s"/"f"; Kineto's ac2g ids are correlation ids)

  void clear() { *this = KinetoEvent{}; }
};

// The trace-wide fields around traceEvents.
struct KinetoDevice {
  int64_t id = 0;
  std::string name;
  std::optional<int64_t> totalGlobalMem, computeMajor, computeMinor, maxThreadsPerBlock, maxThreadsPerMultiprocessor,
      regsPerBlock, warpSize, sharedMemPerBlock, numSms, regsPerMultiprocessor, sharedMemPerBlockOptin,
      sharedMemPerMultiprocessor;
};

// Microseconds written as decimal text ("4623373863211.518") to integer nanoseconds, rounded half
// away from zero, without going through a double (which loses nanoseconds at these magnitudes).
std::optional<TimeNs> microsecondsTextToNs(std::string_view text);

}  // namespace gpuscope::kineto
