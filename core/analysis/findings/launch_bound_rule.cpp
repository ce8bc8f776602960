// launch_bound: runs of kernels that take less time on the GPU than their launch call takes on the
// host, so the GPU idles between them waiting for the next launch.
#include <algorithm>
#include <map>

#include "core/analysis/analysis_window.h"
#include "core/analysis/findings/finding_rules.h"
#include "core/analysis/nsys/rule_rows.h"
#include "core/error.h"
#include "core/model/global_id.h"
#include "core/schema/trace_schema.h"
#include "core/stats/stats_common.h"
#include "core/text/percent_text.h"
#include "core/text/units.h"

namespace gpuscope {
namespace {

struct Launch {
  TimeNs kernelStart = 0, kernelEnd = 0, callStart = 0, callEnd = 0;
  std::string name;
  int64_t pid = 0, deviceId = 0, contextId = 0, streamId = 0;
  bool shorterThanCall() const { return kernelEnd - kernelStart < callEnd - callStart; }
};

// Kernels with their launch calls, by device and then GPU start.
std::vector<Launch> readLaunches(const Database& db, const AnalysisWindow& window) {
  std::vector<Launch> launches;
  if (!db.hasTable(table::kKernel) || !db.hasTable(table::kRuntime) || !db.hasTable(table::kStringIds)) return launches;
  auto statement = db.prepare("SELECT k.start, k.end, r.start, r.end, s.value, " + global_id::sqlPid("k.globalPid") +
                              ", k.deviceId, k.contextId, k.streamId FROM " + std::string(table::kKernel) + " k JOIN " +
                              std::string(table::kRuntime) + " r ON r.correlationId = k.correlationId AND " +
                              global_id::sqlSameProcess("r.globalTid", "k.globalPid") +
                              " JOIN StringIds s ON s.id = coalesce(" + columnOr(db, table::kKernel, "demangledName") +
                              ", k.shortName) WHERE k.start > 0 AND k.end >= k.start AND " + window.sqlCondition("k.") +
                              " ORDER BY k.deviceId, k.start");
  while (statement.step()) {
    launches.push_back({statement.int64(0), statement.int64(1), statement.int64(2), statement.int64(3),
                        std::string(statement.text(4)), statement.int64(5), statement.int64(6), statement.int64(7),
                        statement.int64(8)});
  }
  return launches;
}

TimeNs median(std::vector<TimeNs> values) {
  if (values.empty()) return 0;
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

struct IdleSplit {
  TimeNs idle = 0;      // between consecutive kernels of a device, gaps up to the limit
  TimeNs hostWait = 0;  // of which the next launch call had not returned when the GPU went idle
};

IdleSplit idleBetweenKernels(const std::vector<Launch>& launches, TimeNs gapLimit) {
  IdleSplit split;
  TimeNs busyUntil = 0;  // the latest kernel end so far on this device
  for (size_t i = 0; i < launches.size(); ++i) {
    if (i == 0 || launches[i].deviceId != launches[i - 1].deviceId) {
      busyUntil = launches[i].kernelEnd;
      continue;
    }
    TimeNs gap = launches[i].kernelStart - busyUntil;
    busyUntil = std::max(busyUntil, launches[i].kernelEnd);
    if (gap <= 0 || gap > gapLimit) continue;
    split.idle += gap;
    if (launches[i].callEnd >= launches[i].kernelStart - gap) split.hostWait += gap;
  }
  return split;
}

// Stretches of consecutive short kernels on one device, at least MIN_KERNELS long.
std::vector<FindingRange> shortStretches(const std::vector<Launch>& launches, TimeNs gapLimit, size_t minKernels) {
  std::vector<FindingRange> stretches;
  size_t begin = 0;
  auto close = [&](size_t end) {
    if (end - begin >= minKernels) {
      const Launch& first = launches[begin];
      stretches.push_back(gpuRange(first.kernelStart, launches[end - 1].kernelEnd - first.kernelStart, first.pid,
                                   first.deviceId, first.contextId, 0));
    }
  };
  for (size_t i = 0; i < launches.size(); ++i) {
    bool isShort = launches[i].shorterThanCall();
    bool extends = i == begin || (launches[i].deviceId == launches[i - 1].deviceId &&
                                  launches[i].kernelStart - launches[i - 1].kernelEnd <= gapLimit);
    if (isShort && extends) continue;
    close(i);
    begin = isShort ? i : i + 1;
  }
  close(launches.size());
  std::sort(stretches.begin(), stretches.end(),
            [](const FindingRange& a, const FindingRange& b) { return a.end - a.start > b.end - b.start; });
  return stretches;
}

class LaunchBoundRule : public AnalysisRule {
 public:
  std::string_view id() const override { return "launch_bound"; }
  std::string_view title() const override { return "Launch-bound short kernels"; }
  std::string_view description() const override {
    return "Kernels that run shorter on the GPU than their launch call takes on the host: the host cannot "
           "launch them as fast as the GPU finishes them, so the GPU idles between kernels waiting for the "
           "next launch (host wait: the next kernel's launch call had not returned when the GPU went idle). Reported "
           "when at "
           "least the share option (%) of at least the launches option kernel launches are that short and "
           "host wait is most of the idle time between kernels (gaps up to the gap option, ms).";
  }
  std::vector<RuleOption> options() const override {
    auto all = AnalysisRule::options();
    all.push_back({"share", "50", "Share of launches (%) that must be shorter than their launch call"});
    all.push_back({"launches", "100", "Fewest kernel launches for a finding"});
    all.push_back({"gap", "1", "Longest idle gap between kernels counted, in milliseconds"});
    return all;
  }
  Finding run(const Database& db, const RuleOptions& options) const override {
    Finding finding = emptyFinding(*this, Severity::Warning);
    finding.evidence.columns = {
        {"Short Launches", 0}, {"Launches", 0}, {"Med Kernel (ns)", 0}, {"Med Launch Call (ns)", 0}, {"Kernel", 0}};
    finding.suggestion =
        "Launch fewer, larger kernels: capture the step in a CUDA graph (torch.cuda.CUDAGraph, or "
        "torch.compile(mode=\"reduce-overhead\")), fuse elementwise operations (torch.compile, custom or "
        "fused kernels), and give each kernel more work (larger batches); in C++, cudaStreamBeginCapture and "
        "cudaGraphLaunch replay a whole sequence with one launch.";
    double gapMs = options.real("gap");
    if (gapMs < 0) throw TraceError("The gap option of launch_bound takes milliseconds, 0 or more.");
    TimeNs gapLimit = static_cast<TimeNs>(gapMs * 1e6);
    std::vector<Launch> launches = readLaunches(db, analysisWindow(db, options));
    struct Group {
      int64_t launches = 0;
      std::vector<TimeNs> kernel, call;
    };
    std::map<std::string, Group> byName;
    size_t shortCount = 0;
    for (const Launch& launch : launches) {
      Group& group = byName[launch.name];
      ++group.launches;
      if (!launch.shorterThanCall()) continue;
      ++shortCount;
      group.kernel.push_back(launch.kernelEnd - launch.kernelStart);
      group.call.push_back(launch.callEnd - launch.callStart);
    }
    IdleSplit idle = idleBetweenKernels(launches, gapLimit);
    double shortShare = launches.empty() ? 0.0 : static_cast<double>(shortCount) / launches.size();
    double hostWaitShare = idle.idle > 0 ? static_cast<double>(idle.hostWait) / idle.idle : 0.0;
    if (static_cast<int64_t>(launches.size()) < options.integer("launches") ||
        100.0 * shortShare < options.real("share") || hostWaitShare < 0.5)
      return finding;
    std::vector<std::pair<std::string, Group>> sorted(byName.begin(), byName.end());
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
      return a.second.kernel.size() != b.second.kernel.size() ? a.second.kernel.size() > b.second.kernel.size()
                                                              : a.first < b.first;
    });
    for (const auto& [name, group] : sorted) {
      if (group.kernel.empty() || finding.evidence.rows.size() >= rowCount(options)) break;
      finding.evidence.rows.push_back(
          {static_cast<int64_t>(group.kernel.size()), group.launches, median(group.kernel), median(group.call), name});
    }
    finding.explanation = std::to_string(shortCount) + " of " + std::to_string(launches.size()) + " kernel launches (" +
                          percentText(shortShare) +
                          ") ran shorter on the GPU than their launch call; the GPU was idle " +
                          formatDuration(idle.idle) + " between kernels, " + percentText(hostWaitShare) +
                          " of it waiting for the host to launch the next one. " + finding.explanation;
    finding.ranges = shortStretches(launches, gapLimit, 10);
    if (finding.ranges.size() > rowCount(options)) finding.ranges.resize(rowCount(options));
    return finding;
  }
};

}  // namespace

std::unique_ptr<AnalysisRule> makeLaunchBoundRule() { return std::make_unique<LaunchBoundRule>(); }

}  // namespace gpuscope
