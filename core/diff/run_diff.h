#pragma once
// RunDiff: two runs compared kernel by kernel or NVTX range by range, and side by side in a few totals.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/model/time_interval.h"
#include "core/model/trace.h"

namespace gpuscope {

// Kernels by short name (as the timeline labels them), kernels by demangled name (as nsys's cuda_gpu_kern_sum
// groups them: template instances apart), or NVTX ranges.
enum class DiffBy { Kernel, DemangledKernel, Nvtx };

// Whether a name occurs in both runs or in one only.
enum class DiffPresence { Both, OnlyA, OnlyB };

// The instances of one name in one run.
struct DiffSide {
  int64_t count = 0;
  TimeNs total = 0;
  double average() const { return count == 0 ? 0.0 : static_cast<double>(total) / static_cast<double>(count); }
};

// One name compared between run A and run B; deltas are B - A.
struct DiffRow {
  std::string name;          // the short or demangled kernel name; NVTX: "<domain>:<text>" as nvtx_sum names ranges
  std::string timelineName;  // what the timeline's lanes call it: the kernel short name or the NVTX text
  DiffSide a;
  DiffSide b;
  DiffPresence presence = DiffPresence::Both;

  TimeNs deltaTotal() const { return b.total - a.total; }
  int64_t deltaCount() const { return b.count - a.count; }
  double deltaAverage() const { return b.average() - a.average(); }
  // 100 * (B - A) / A of the totals; none when A's total is 0 (a row only in B, or of empty instants).
  std::optional<double> deltaTotalPercent() const;
};

// One figure of the run summary in both runs.
struct SummaryMetric {
  std::string name;  // e.g. "Wall span"
  std::string unit;  // "ns", "bytes", "%" or "" for counts
  double a = 0;
  double b = 0;
  int decimals = 0;  // digits worth printing
  double delta() const { return b - a; }
  std::optional<double> deltaPercent() const;
};

// The totals of one run that the summary compares.
struct RunTotals {
  TimeNs span = 0;     // first event start to last event end
  TimeNs gpuTime = 0;  // sum of kernel, memcpy and memset durations
  TimeNs gpuBusy = 0;  // union of all GPU work, over every device and stream
  TimeNs kernelTime = 0;
  int64_t kernelCount = 0;
  TimeNs memcpyTime = 0;
  int64_t memcpyCount = 0;
  int64_t memcpyBytes = 0;  // from the file's memcpy table
  TimeNs cudaApiTime = 0;   // sum of CUDA runtime and driver call durations
  int64_t cudaApiCount = 0;
  double gpuBusyShare() const;  // gpuBusy / span, in [0, 1]
};

struct RunDiff {
  DiffBy by = DiffBy::Kernel;
  std::vector<DiffRow> rows;  // by |delta total| descending, then the larger total, then name
  std::vector<SummaryMetric> summary;
};

// Rows keyed by name from the per-name sides of each run (any order), sorted by |delta total| descending,
// then by the larger of the two totals (descending), then by name. The building block of diffRuns, exposed for tests.
// KEY, where set, is what pairs sides across runs (kernel identity: core/identity), else the name;
// MANGLED, where every side of both runs has one, pairs them instead (mangled names win).
struct NamedSide {
  std::string name;
  std::string timelineName;
  DiffSide side;
  std::string key;
  std::string mangled;
};
std::vector<DiffRow> matchByName(const std::vector<NamedSide>& a, const std::vector<NamedSide>& b);

// Per-name sides of one run: kernels grouped by short name; closed NVTX ranges (push/pop and start/end)
// grouped by "<domain>:<text>". A file without an NVTX table has no NVTX sides.
std::vector<NamedSide> kernelSides(const Trace& trace, std::optional<TimeInterval> window = std::nullopt);
std::vector<NamedSide> nvtxSides(const Trace& trace, std::optional<TimeInterval> window = std::nullopt);
// Kernels grouped by demangled name, read from the file (the short name where the file has none), keyed by
// kernel identity so that nsys, ncu, PyTorch profiler and gpuscope spellings of one kernel pair up.
std::vector<NamedSide> demangledKernelSides(const Trace& trace, std::optional<TimeInterval> window = std::nullopt);
// The sides BY asks for; with WINDOW, of the instances that start in it only.
std::vector<NamedSide> diffSides(const Trace& trace, DiffBy by, std::optional<TimeInterval> window = std::nullopt);

// The totals of the whole run, or with WINDOW of that stretch: its span, busy time and durations clipped to
// it; counts of the events that start in it.
RunTotals runTotals(const Trace& trace, std::optional<TimeInterval> window = std::nullopt);
std::vector<SummaryMetric> compareTotals(const RunTotals& a, const RunTotals& b);

// The instances of ROW's name in TRACE, by start time: kernels of its short or demangled name, or NVTX
// ranges (and marks) of its text.
std::vector<EventRef> rowInstances(const Trace& trace, const DiffRow& row, DiffBy by);

// The whole comparison of A (the baseline) and B.
RunDiff diffRuns(const Trace& a, const Trace& b, DiffBy by);

std::string_view presenceLabel(DiffPresence presence);  // "both", "only A", "only B"

}  // namespace gpuscope
