#pragma once
// HtaRank: the GPU work of one rank as Holistic Trace Analysis (HTA) 0.5.0 sees it, read from any trace
// file (nsys export, gpuscope recording, imported PyTorch profiler trace). HTA analyzes one trace
// file per rank; here a rank is one process that ran GPU work. Each kernel, memcpy and memset comes
// with the CUDA API call that launched it (same process, same correlation id).
//
// HTA moves every event onto a microsecond grid before it computes anything: the start is rounded up
// and the end down (its parser does this to keep nanosecond-resolution events from overlapping), so
// an operation shorter than a microsecond can last 0 or even -1 us. The breakdowns are defined on
// those integers, so they are kept here beside the recorded nanoseconds.
#include <cstdint>
#include <optional>
#include <vector>

#include "core/analysis/analysis_window.h"
#include "core/db/sqlite_database.h"
#include "core/identity/hta_kernel_type.h"
#include "core/model/trace_types.h"

namespace gpuscope {

// HTA's microsecond grid: a start rounds up, an end rounds down.
int64_t htaStartUs(TimeNs start);
int64_t htaEndUs(TimeNs end);

// Which launch calls HTA's kernel launch statistics look at.
enum class HtaLaunchKind {
  KernelLaunch,  // cudaLaunchKernel, cudaLaunchKernelExC
  MemoryAsync,   // cudaMemcpyAsync, cudaMemsetAsync
  Other          // any other runtime or driver call (cuLaunchKernel included, as in HTA)
};

// The API name without nsys's version tag ("cudaLaunchKernel_v7000" -> "cudaLaunchKernel") sorted into a kind.
HtaLaunchKind htaLaunchKind(std::string_view apiName);

struct HtaLaunchCall {
  TimeNs startNs = 0;
  TimeNs endNs = 0;
  int64_t startUs = 0;
  int64_t endUs = 0;
  uint32_t tid = 0;
  HtaLaunchKind kind = HtaLaunchKind::Other;
};

struct HtaGpuOp {
  TimeNs startNs = 0;  // as recorded
  TimeNs endNs = 0;
  int64_t startUs = 0;  // on HTA's grid
  int64_t endUs = 0;
  uint32_t deviceId = 0;
  uint32_t contextId = 0;
  uint32_t streamId = 0;
  uint32_t correlationId = 0;
  HtaKernelType type = HtaKernelType::Computation;
  std::optional<HtaLaunchCall> launch;
};

struct HtaRank {
  int64_t rank = 0;
  int64_t globalPid = 0;      // the process, as nsys numbers it (hw, vm and pid bits)
  std::vector<HtaGpuOp> ops;  // by startUs, then startNs, then endNs
};

// The ranks of DB with GPU work inside WINDOW, in process order. In a merge of rank files each process has
// the rank GPUSCOPE_RANKS gives it. Otherwise a file with one such process is the rank its PyTorch profiler
// trace recorded (distributedInfo.rank), or 0; with several they are numbered 0, 1, ... by process.
std::vector<HtaRank> loadHtaRanks(const Database& db, const AnalysisWindow& window);

}  // namespace gpuscope
