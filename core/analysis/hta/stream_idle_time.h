#pragma once
// Why a CUDA stream sat idle: every gap between two consecutive operations of a stream, classified
// as Holistic Trace Analysis's idle time breakdown does. The `idle_time_breakdown` rule sums these;
// other analyses call classifyStreamIdleTime for the intervals themselves, for example to find where
// the GPU waited on the host (HostWait) and what the launching thread was doing meanwhile.
//
// The operations of a stream are taken in start order on HTA's microsecond grid (see hta_trace.h).
// The gap before an operation is its start minus the end of the operation before it, and it is
//   HostWait   when the API call that launched the operation started after the previous operation had
//              ended: the stream was idle because the host had not yet asked for more work;
//   KernelWait otherwise, when the gap is shorter than the kernel-wait threshold (HTA's
//              consecutive_kernel_delay, 30 us by default): the overhead of back-to-back launches;
//   Other      otherwise (waiting on an event or another stream, for instance).
// As in HTA, the gap can be 0 or negative where operations touch or overlap on the grid, and an
// operation whose launch call is not in the trace is never a host wait.
#include <cstdint>
#include <optional>
#include <vector>

#include "core/analysis/analysis_window.h"
#include "core/analysis/hta/hta_trace.h"

namespace gpuscope {

enum class StreamIdleCategory { HostWait, KernelWait, Other };

// "host_wait", "kernel_wait", "other", as HTA prints them.
const char* streamIdleCategoryName(StreamIdleCategory category);

// HTA's default consecutive_kernel_delay, in microseconds.
inline constexpr int64_t kHtaKernelWaitUs = 30;

struct StreamIdleInterval {
  int64_t rank = 0;
  int64_t globalPid = 0;
  uint32_t deviceId = 0;
  uint32_t contextId = 0;
  uint32_t streamId = 0;
  TimeNs startNs = 0;  // the previous operation's recorded end
  TimeNs endNs = 0;    // this operation's recorded start
  int64_t idleUs = 0;  // HTA's length of the gap, on its microsecond grid
  StreamIdleCategory category = StreamIdleCategory::Other;
  uint32_t correlationId = 0;           // of the operation that ended the gap
  std::optional<HtaLaunchCall> launch;  // the call that launched it: its thread, and when the host got there
};

// The gaps of every stream of RANKS: rank by rank, streams by id, each stream's gaps in time order
// (one before each operation but the stream's first).
std::vector<StreamIdleInterval> classifyStreamIdleTime(const std::vector<HtaRank>& ranks,
                                                       int64_t kernelWaitUs = kHtaKernelWaitUs);

// The same for the GPU work of DB inside WINDOW (loadHtaRanks).
std::vector<StreamIdleInterval> classifyStreamIdleTime(const Database& db, const AnalysisWindow& window = {},
                                                       int64_t kernelWaitUs = kHtaKernelWaitUs);

}  // namespace gpuscope
