// blocking_copies: memory copies and sets that hold the host thread: synchronous copy calls, copies to or
// from pageable memory (which the driver stages, so even cudaMemcpyAsync does not return early), and
// synchronous memsets of pinned or managed memory (the ones CUDA makes blocking), summed by call,
// direction and memory kinds, with the share of the run the host spent in them.
#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

#include "core/analysis/analysis_window.h"
#include "core/analysis/findings/finding_rules.h"
#include "core/analysis/nsys/rule_rows.h"
#include "core/analysis/verdict/run_activity.h"
#include "core/identity/cuda_call_kind.h"
#include "core/model/global_id.h"
#include "core/schema/trace_schema.h"
#include "core/stats/stats_common.h"
#include "core/text/percent_text.h"
#include "core/text/units.h"

namespace gpuscope {
namespace {

struct CopyGroup {
  int64_t copies = 0;
  int64_t bytes = 0;
  TimeNs gpuNs = 0;
  TimeNs hostNs = 0;
};
using CopyKey = std::tuple<std::string, std::string, std::string, std::string>;  // api, direction, src, dst

// What the copies and sets found so far add up to.
struct Blocking {
  std::map<CopyKey, CopyGroup> groups;
  TimeNs hostNs = 0;
};

// One blocking operation: GPU [gpuStart, gpuEnd), the call [callStart, callEnd), BYTES moved or set.
void addBlocking(Blocking& blocking, const CopyKey& key, TimeNs gpuStart, TimeNs gpuEnd, TimeNs callStart,
                 TimeNs callEnd, int64_t bytes) {
  CopyGroup& group = blocking.groups[key];
  ++group.copies;
  group.bytes += bytes;
  group.gpuNs += gpuEnd - gpuStart;
  group.hostNs += callEnd - callStart;
  blocking.hostNs += callEnd - callStart;
}

std::string labelOf(const std::unordered_map<int64_t, std::string>& labels, int64_t id) {
  auto found = labels.find(id);
  return found != labels.end() ? found->second : std::to_string(id);
}

// Synchronous memsets of pinned or managed memory, the ones that block the calling thread.
void addBlockingMemsets(const Database& db, const AnalysisWindow& window, const RuleOptions& options,
                        Blocking& blocking, Finding& finding) {
  if (!db.hasTable(table::kMemset) || !db.hasTable(table::kStringIds)) return;
  auto memKinds = enumLabels(db, table::kEnumMemKind, builtinMemoryKindLabels());
  std::string memKind = columnOr(db, table::kMemset, "memKind");
  auto statement = db.prepare("SELECT m.start, m.end, m.bytes, " + memKind + ", r.start, r.end, s.value, " +
                              global_id::sqlPid("m.globalPid") + ", m.deviceId, m.contextId, m.streamId FROM " +
                              std::string(table::kMemset) + " m JOIN " + std::string(table::kRuntime) +
                              " r ON r.correlationId = m.correlationId AND " +
                              global_id::sqlSameProcess("r.globalTid", "m.globalPid") +
                              " JOIN StringIds s ON s.id = r.nameId WHERE m.start > 0 AND " +
                              window.sqlCondition("m.") + " ORDER BY m.end - m.start DESC, m.start");
  while (statement.step()) {
    std::string api = displayApiName(statement.text(6));
    if (!memsetBlocksHost(api, statement.int64(3))) continue;
    addBlocking(blocking, {api, "Memset", labelOf(memKinds, statement.int64(3)), ""}, statement.int64(0),
                statement.int64(1), statement.int64(4), statement.int64(5), statement.int64(2));
    if (finding.ranges.size() < rowCount(options))
      finding.ranges.push_back(gpuRange(statement.int64(0), statement.int64(1) - statement.int64(0), statement.int64(7),
                                        statement.int64(8), statement.int64(9), statement.int64(10)));
  }
}

class BlockingCopiesRule : public AnalysisRule {
 public:
  std::string_view id() const override { return "blocking_copies"; }
  std::string_view title() const override { return "Copies and memsets that block the host"; }
  std::string_view description() const override {
    return "Synchronous copies (cudaMemcpy without Async) hold the calling thread until the copy is done, "
           "copies to or from pageable (not page-locked) host memory are staged by the driver, so even "
           "cudaMemcpyAsync waits, and a cudaMemset of pinned or managed memory blocks likewise. While the "
           "thread waits it queues no work. Reported when the host spent at least the share option (%) of the "
           "run in such calls.";
  }
  std::vector<RuleOption> options() const override {
    auto all = AnalysisRule::options();
    all.push_back({"share", "1", "Share of the run (%) spent in blocking copy calls to report them"});
    return all;
  }
  Finding run(const Database& db, const RuleOptions& options) const override {
    Finding finding = emptyFinding(*this, Severity::Warning);
    finding.evidence.columns = {{"Host Time (ns)", 0}, {"Share of Run (%)", 1}, {"Copies", 0},
                                {"Bytes (MB)", 3},     {"GPU Time (ns)", 0},    {"Direction", 0},
                                {"Src Kind", 0},       {"Dst Kind", 0},         {"API Name", 0}};
    finding.suggestion =
        "Copy from page-locked memory with asynchronous calls: allocate host buffers with cudaMallocHost or "
        "register them with cudaHostRegister (in PyTorch, DataLoader(pin_memory=True) or tensor.pin_memory()), "
        "copy with cudaMemcpyAsync on a stream (tensor.to(device, non_blocking=True)), and read results back "
        "(.item(), .cpu()) only where they are needed, not every step.";
    if (!db.hasTable(table::kMemcpy) || !db.hasTable(table::kRuntime)) return finding;
    AnalysisWindow window = analysisWindow(db, options);
    RunActivity run = loadRunActivity(db, window.processes);
    TimeNs span = std::min(run.last, window.end) - std::max(run.first, window.begin);
    if (span <= 0) return finding;
    auto copyKinds = enumLabels(db, table::kEnumMemcpyOper, builtinMemcpyKindLabels());
    auto memKinds = enumLabels(db, table::kEnumMemKind, builtinMemoryKindLabels());
    auto statement = db.prepare(
        "SELECT m.start, m.end, m.bytes, m.copyKind, m.srcKind, m.dstKind, r.start, r.end, s.value, " +
        global_id::sqlPid("m.globalPid") + ", m.deviceId, m.contextId, m.streamId FROM " + std::string(table::kMemcpy) +
        " m JOIN " + std::string(table::kRuntime) + " r ON r.correlationId = m.correlationId AND " +
        global_id::sqlSameProcess("r.globalTid", "m.globalPid") +
        " JOIN StringIds s ON s.id = r.nameId WHERE m.start > 0 AND " + window.sqlCondition("m.") +
        " ORDER BY m.end - m.start DESC, m.start");
    Blocking blocking;
    while (statement.step()) {
      std::string api = displayApiName(statement.text(8));
      if (!copyBlocksHost(api, statement.int64(4), statement.int64(5))) continue;
      addBlocking(blocking,
                  {api, labelOf(copyKinds, statement.int64(3)), labelOf(memKinds, statement.int64(4)),
                   labelOf(memKinds, statement.int64(5))},
                  statement.int64(0), statement.int64(1), statement.int64(6), statement.int64(7), statement.int64(2));
      if (finding.ranges.size() < rowCount(options))
        finding.ranges.push_back(gpuRange(statement.int64(0), statement.int64(1) - statement.int64(0),
                                          statement.int64(9), statement.int64(10), statement.int64(11),
                                          statement.int64(12)));
    }
    addBlockingMemsets(db, window, options, blocking, finding);
    const auto& groups = blocking.groups;
    TimeNs hostNs = blocking.hostNs;
    double share = static_cast<double>(hostNs) / static_cast<double>(span);
    if (groups.empty() || 100.0 * share < options.real("share")) {
      finding.ranges.clear();
      return finding;
    }
    std::vector<std::pair<CopyKey, CopyGroup>> sorted(groups.begin(), groups.end());
    std::sort(sorted.begin(), sorted.end(),
              [](const auto& a, const auto& b) { return a.second.hostNs > b.second.hostNs; });
    for (const auto& [key, group] : sorted) {
      if (finding.evidence.rows.size() >= rowCount(options)) break;
      const auto& [api, direction, src, dst] = key;
      finding.evidence.rows.push_back({group.hostNs, 100.0 * static_cast<double>(group.hostNs) / span, group.copies,
                                       static_cast<double>(group.bytes) / 1e6, group.gpuNs, direction, src, dst, api});
    }
    finding.explanation = "The host spent " + formatDuration(hostNs) + " (" + percentText(share) +
                          " of the run) in copy and memset calls that block it. " + finding.explanation;
    return finding;
  }
};

}  // namespace

std::unique_ptr<AnalysisRule> makeBlockingCopiesRule() { return std::make_unique<BlockingCopiesRule>(); }

}  // namespace gpuscope
