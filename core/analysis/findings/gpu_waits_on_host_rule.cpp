// gpu_waits_on_host: the GPU idle while the host thread that feeds it is busy elsewhere (the DataLoader
// case): how long, and which calls the host thread was in meanwhile.
#include <algorithm>
#include <map>

#include "core/analysis/analysis_window.h"
#include "core/analysis/findings/finding_rules.h"
#include "core/analysis/nsys/rule_rows.h"
#include "core/analysis/verdict/idle_host_samples.h"
#include "core/analysis/verdict/run_activity.h"
#include "core/error.h"
#include "core/schema/trace_schema.h"
#include "core/stats/stats_common.h"
#include "core/text/percent_text.h"
#include "core/text/units.h"

namespace gpuscope {
namespace {

struct HostCall {
  TimeNs start = 0;
  TimeNs end = 0;
  std::string name;
  std::string kind;  // "CUDA API" or "OS runtime"
};

// The outermost CUDA API and OS runtime calls of THREAD, by start.
std::vector<HostCall> outermostCalls(const Database& db, int64_t globalTid) {
  std::vector<HostCall> calls;
  for (auto [table, kind] : {std::pair{table::kRuntime, "CUDA API"}, std::pair{table::kOsrt, "OS runtime"}}) {
    if (!db.hasTable(table) || !db.hasTable(table::kStringIds)) continue;
    auto statement = db.prepare("SELECT c.start, c.end, s.value FROM " + std::string(table) +
                                " c JOIN StringIds s ON s.id = c.nameId WHERE c.globalTid = ?1 AND c.end >= c.start");
    statement.bind(1, globalTid);
    while (statement.step())
      calls.push_back({statement.int64(0), statement.int64(1), displayApiName(statement.text(2)), kind});
  }
  std::sort(calls.begin(), calls.end(), [](const HostCall& a, const HostCall& b) {
    return a.start != b.start ? a.start < b.start : a.end > b.end;
  });
  std::vector<HostCall> outermost;
  for (HostCall& call : calls) {
    if (!outermost.empty() && call.start < outermost.back().end) continue;
    outermost.push_back(std::move(call));
  }
  return outermost;
}

struct Activity {
  std::string kind;
  TimeNs time = 0;
  int64_t calls = 0;
};

// Time the host spent in each call (by name) during GAPS, and outside every traced call.
std::map<std::string, Activity> activityDuring(const std::vector<TimeInterval>& gaps,
                                               const std::vector<HostCall>& calls, const std::string& untraced) {
  std::map<std::string, Activity> byName;
  TimeNs inCalls = 0, idle = 0;
  size_t next = 0;
  for (const TimeInterval& gap : gaps) {
    idle += gap.length();
    while (next < calls.size() && calls[next].end <= gap.start) ++next;
    for (size_t i = next; i < calls.size() && calls[i].start < gap.end; ++i) {
      TimeNs overlap = std::min(calls[i].end, gap.end) - std::max(calls[i].start, gap.start);
      if (overlap <= 0) continue;
      Activity& activity = byName[calls[i].name];
      activity.kind = calls[i].kind;
      activity.time += overlap;
      ++activity.calls;
      inCalls += overlap;
    }
  }
  byName[untraced] = {"untraced", idle - inCalls, 0};
  return byName;
}

// What the thread's CPU samples name in the gaps, where the file has samples.
std::string samplesClause(const IdleHostSamples& samples) {
  if (samples.samples == 0) return "";
  return " Its " + std::to_string(samples.samples) + " CPU samples in those gaps were in " +
         hostFunctionsText(samples) + ".";
}

class GpuWaitsOnHostRule : public AnalysisRule {
 public:
  std::string_view id() const override { return "gpu_waits_on_host"; }
  std::string_view title() const override { return "GPU waiting on the host"; }
  std::string_view description() const override {
    return "Gaps longer than the gap option (ms) in which no GPU ran anything while the program went on: the "
           "GPU waited for the host thread that feeds it (the one with the most CUDA API time). The rows say "
           "what that thread did meanwhile: CUDA and OS runtime calls by name, and time in no traced call "
           "(Python, data loading and preprocessing on the CPU). Reported when the gaps add up to at least the "
           "share option (%) of the run.";
  }
  std::vector<RuleOption> options() const override {
    auto all = AnalysisRule::options();
    all.push_back({"gap", "1", "Shortest GPU idle gap counted, in milliseconds"});
    all.push_back({"share", "10", "Share of the run (%) the gaps must add up to"});
    return all;
  }
  Finding run(const Database& db, const RuleOptions& options) const override {
    Finding finding = emptyFinding(*this, Severity::Warning);
    finding.evidence.columns = {{"Host Thread", 0},           {"Activity", 0}, {"Kind", 0}, {"Time (ns)", 0},
                                {"Share of GPU Idle (%)", 1}, {"Calls", 0}};
    finding.suggestion =
        "Prepare the next batch while the GPU works on this one: in PyTorch give the DataLoader worker "
        "processes (num_workers > 0, persistent_workers=True, pin_memory=True, prefetch_factor), move "
        "decoding and augmentation to the GPU, and avoid host work between steps; elsewhere, do the host "
        "work on another thread or overlap it with asynchronous launches and copies.";
    double gapMs = options.real("gap");
    if (gapMs < 0) throw TraceError("The gap option of gpu_waits_on_host takes milliseconds, 0 or more.");
    AnalysisWindow window = analysisWindow(db, options);
    RunActivity run = loadRunActivity(db, window.processes);
    const HostThread* host = run.drivingThread();
    TimeNs from = std::max(run.first, window.begin), to = std::min(run.last, window.end);
    if (!host || from >= to) return finding;
    std::vector<TimeInterval> gaps;
    for (const TimeInterval& gap : run.gpuBusy.gapsWithin(from, to)) {
      if (static_cast<double>(gap.length()) > gapMs * 1e6) gaps.push_back(gap);
    }
    TimeNs idle = 0;
    for (const TimeInterval& gap : gaps) idle += gap.length();
    double share = static_cast<double>(idle) / static_cast<double>(to - from);
    if (gaps.empty() || 100.0 * share < options.real("share")) return finding;

    std::string untraced = "(no traced call: CPU work)";
    auto byName = activityDuring(gaps, outermostCalls(db, host->globalTid), untraced);
    std::vector<std::pair<std::string, Activity>> sorted(byName.begin(), byName.end());
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
      return a.second.time != b.second.time ? a.second.time > b.second.time : a.first < b.first;
    });
    std::string label = threadLabel(*host);
    for (const auto& [name, activity] : sorted) {
      if (finding.evidence.rows.size() >= rowCount(options)) break;
      finding.evidence.rows.push_back({label, name, activity.kind, activity.time,
                                       100.0 * static_cast<double>(activity.time) / static_cast<double>(idle),
                                       activity.calls});
    }
    finding.severity = share >= 0.5 ? Severity::Critical : Severity::Warning;
    auto busiestCall = std::find_if(sorted.begin(), sorted.end(), [](const auto& a) { return a.second.calls > 0; });
    std::string calls = busiestCall == sorted.end()
                            ? "none"
                            : busiestCall->first + " (" + busiestCall->second.kind + ", " +
                                  percentText(static_cast<double>(busiestCall->second.time) / idle) + ")";
    finding.explanation = "The GPU was idle for " + formatDuration(idle) + " (" + percentText(share) + " of " +
                          formatDuration(to - from) + ") in " + std::to_string(gaps.size()) + " gaps; meanwhile the " +
                          "host thread " + label + " was in no traced call (CPU work) " +
                          percentText(static_cast<double>(byName[untraced].time) / static_cast<double>(idle)) +
                          " of that time, and the call it spent longest in was " + calls + "." +
                          samplesClause(hostSamplesIn(db, *host, gaps)) + " " + finding.explanation;
    std::sort(gaps.begin(), gaps.end(),
              [](const TimeInterval& a, const TimeInterval& b) { return a.length() > b.length(); });
    for (size_t i = 0; i < gaps.size() && i < rowCount(options); ++i) {
      FindingRange range;
      range.start = gaps[i].start;
      range.end = gaps[i].end;
      range.pid = host->pid;
      range.tid = host->tid;
      finding.ranges.push_back(range);
    }
    return finding;
  }
};

}  // namespace

std::unique_ptr<AnalysisRule> makeGpuWaitsOnHostRule() { return std::make_unique<GpuWaitsOnHostRule>(); }

}  // namespace gpuscope
