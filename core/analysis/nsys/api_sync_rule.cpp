// cuda_api_sync: calls that wait for the GPU (cudaDeviceSynchronize, cudaStreamSynchronize).
#include "core/analysis/analysis_window.h"
#include "core/analysis/nsys/rule_rows.h"
#include "core/model/global_id.h"
#include "core/schema/trace_schema.h"

namespace gpuscope {
namespace {

class ApiSyncRule : public AnalysisRule {
 public:
  std::string_view id() const override { return "cuda_api_sync"; }
  std::string_view title() const override { return "Synchronization APIs"; }
  std::string_view description() const override {
    return "cudaDeviceSynchronize and cudaStreamSynchronize block the host thread until the GPU has finished "
           "the work queued before them; while it waits, the host queues nothing, and the GPU may go idle "
           "after. Synchronize only where a result is needed, or wait on an event of the one stream that "
           "produces it.";
  }
  Finding run(const Database& db, const RuleOptions& options) const override {
    Finding finding = emptyFinding(*this, Severity::Info);
    finding.evidence.columns = {{"Duration (ns)", 0}, {"Start (ns)", 0}, {"PID", 0}, {"TID", 0}, {"API Name", 0}};
    if (!db.hasTable(table::kRuntime)) return finding;
    AnalysisWindow window = analysisWindow(db, options);
    auto statement =
        db.prepare("SELECT r.end - r.start AS duration, r.start, " + global_id::sqlPid("r.globalTid") + ", " +
                   global_id::sqlTid("r.globalTid") + ", s.value FROM " + std::string(table::kRuntime) +
                   " r JOIN StringIds s ON s.id = r.nameId WHERE r.start > 0 "
                   "AND " +
                   window.sqlCondition("r.", "globalTid") +
                   " AND (s.value LIKE 'cudaDeviceSynchronize%' OR s.value LIKE "
                   "'cudaStreamSynchronize%') ORDER BY duration DESC, r.start ASC" +
                   rowLimit(options));
    while (statement.step()) {
      finding.evidence.rows.push_back({statement.int64(0), statement.int64(1), statement.int64(2), statement.int64(3),
                                       std::string(statement.text(4))});
      FindingRange range;
      range.start = statement.int64(1);
      range.end = range.start + statement.int64(0);
      range.pid = static_cast<uint32_t>(statement.int64(2));
      range.tid = static_cast<uint32_t>(statement.int64(3));
      finding.ranges.push_back(range);
    }
    return finding;
  }
};

}  // namespace

std::unique_ptr<AnalysisRule> makeApiSyncRule() { return std::make_unique<ApiSyncRule>(); }

}  // namespace gpuscope
