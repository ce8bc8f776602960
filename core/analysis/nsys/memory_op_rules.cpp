// cuda_memcpy_async, cuda_memcpy_sync and cuda_memset_sync: memory operations that stall the host
// or the copy engine, found by the API that issued them.
#include <string>

#include "core/analysis/analysis_window.h"
#include "core/analysis/nsys/rule_rows.h"
#include "core/model/global_id.h"
#include "core/schema/nsys_enums.h"
#include "core/schema/trace_schema.h"
#include "core/stats/stats_common.h"

namespace gpuscope {
namespace {

// Host-to-device copies of at most 64,000 bytes return before the copy is done (the
// driver stages them), so the synchronous-copy rule leaves them out, as nsys does.
constexpr int64_t kStagedHostToDeviceBytes = 64000;

std::string apiJoin(const std::string& alias) {
  return " JOIN " + std::string(table::kRuntime) + " r ON r.correlationId = " + alias + ".correlationId AND " +
         global_id::sqlSameProcess("r.globalTid", alias + ".globalPid") + " JOIN StringIds s ON s.id = r.nameId";
}

ReportCell greenContextCell(const Statement& statement, int column) {
  if (statement.isNull(column) || statement.int64(column) == 0) return {};
  return statement.int64(column);
}

class MemcpyRule : public AnalysisRule {
 public:
  explicit MemcpyRule(bool async) : async_(async) {}
  std::string_view id() const override { return async_ ? "cuda_memcpy_async" : "cuda_memcpy_sync"; }
  std::string_view title() const override {
    return async_ ? "Asynchronous memcpy with pageable memory" : "Synchronous memcpy";
  }
  std::string_view description() const override {
    return async_ ? "An asynchronous memcpy to or from pageable (not page-locked) host memory is staged by the "
                    "driver and does not overlap with the host: it behaves as a synchronous one. Allocate the "
                    "host buffer with cudaMallocHost or cudaHostRegister (pin_memory=True in a DataLoader)."
                  : "A synchronous memcpy blocks the host thread until the copy is done, so the host cannot queue "
                    "more work meanwhile. Use cudaMemcpyAsync with pinned host memory and synchronize only where "
                    "the result is needed. Host-to-device copies of at most 64,000 bytes are left out: the "
                    "driver stages them and returns at once.";
  }
  Finding run(const Database& db, const RuleOptions& options) const override {
    Finding finding = startFinding(*this, Severity::Warning, "Bytes (MB)");
    if (!db.hasTable(table::kMemcpy) || !db.hasTable(table::kRuntime)) return finding;
    AnalysisWindow window = analysisWindow(db, options);
    const std::string m = std::string(table::kMemcpy);
    std::string condition =
        async_ ? "s.value LIKE '%async%' AND (m.srcKind = " + std::to_string(nsys_enum::kMemPageable) +
                     " OR m.dstKind = " + std::to_string(nsys_enum::kMemPageable) + ")"
               : "s.value NOT LIKE '%async%' AND NOT (m.copyKind = " + std::to_string(nsys_enum::kCopyHtoD) +
                     " AND m.bytes <= " + std::to_string(kStagedHostToDeviceBytes) + ")";
    auto labels = enumLabels(db, "ENUM_CUDA_MEM_KIND", builtinMemoryKindLabels());
    auto statement = db.prepare("SELECT m.end - m.start AS duration, m.start, m.srcKind, m.dstKind, m.bytes, " +
                                global_id::sqlPid("m.globalPid") + ", m.deviceId, m.contextId, " +
                                columnOr(db, table::kMemcpy, "greenContextId") + ", m.streamId, s.value FROM " + m +
                                " m" + apiJoin("m") + " WHERE m.start > 0 AND " + window.sqlCondition("m.") + " AND " +
                                condition + " ORDER BY duration DESC, m.start ASC" + rowLimit(options));
    while (statement.step()) {
      auto kind = [&](int column) -> ReportCell {
        if (statement.isNull(column)) return {};
        auto label = labels.find(statement.int64(column));
        return label != labels.end() ? ReportCell(label->second) : ReportCell(std::to_string(statement.int64(column)));
      };
      finding.evidence.rows.push_back({statement.int64(0), statement.int64(1), kind(2), kind(3),
                                       static_cast<double>(statement.int64(4)) / 1e6, statement.int64(5),
                                       statement.int64(6), statement.int64(7), greenContextCell(statement, 8),
                                       statement.int64(9), std::string(statement.text(10))});
      finding.ranges.push_back(gpuRange(statement.int64(1), statement.int64(0), statement.int64(5), statement.int64(6),
                                        statement.int64(7), statement.int64(9)));
    }
    return finding;
  }

 private:
  static Finding startFinding(const AnalysisRule& rule, Severity severity, const std::string& bytesTitle) {
    Finding finding = emptyFinding(rule, severity);
    finding.evidence.columns = {{"Duration (ns)", 0},    {"Start (ns)", 0}, {"Src Kind", 0},  {"Dst Kind", 0},
                                {bytesTitle, 3},         {"PID", 0},        {"Device ID", 0}, {"Context ID", 0},
                                {"Green Context ID", 0}, {"Stream ID", 0},  {"API Name", 0}};
    return finding;
  }
  bool async_;
};

class MemsetSyncRule : public AnalysisRule {
 public:
  std::string_view id() const override { return "cuda_memset_sync"; }
  std::string_view title() const override { return "Synchronous memset"; }
  std::string_view description() const override {
    return "A synchronous memset blocks the host thread until the GPU has done it. Use cudaMemsetAsync on a "
           "stream, and synchronize only where the result is needed.";
  }
  // CUDA's synchronous memsets block the host only when they target pinned host memory or managed memory
  // (the CUDA Runtime API's "API synchronization behavior": pinned, managed and managed static kinds). A
  // cudaMemset of device memory is asynchronous, and nsys reports none (tests/fixtures/classes/sync).
  Finding run(const Database& db, const RuleOptions& options) const override {
    Finding finding = emptyFinding(*this, Severity::Warning);
    finding.evidence.columns = {{"Duration (ns)", 0}, {"Start (ns)", 0}, {"Memory Kind", 0}, {"Bytes (MB)", 3},
                                {"PID", 0},           {"Device ID", 0},  {"Context ID", 0},  {"Green Context ID", 0},
                                {"Stream ID", 0},     {"API Name", 0}};
    if (!db.hasTable(table::kMemset) || !db.hasTable(table::kRuntime)) return finding;
    AnalysisWindow window = analysisWindow(db, options);
    auto labels = enumLabels(db, "ENUM_CUDA_MEM_KIND", builtinMemoryKindLabels());
    auto statement = db.prepare(
        "SELECT m.end - m.start AS duration, m.start, " + columnOr(db, table::kMemset, "memKind") + ", m.bytes, " +
        global_id::sqlPid("m.globalPid") + ", m.deviceId, m.contextId, " +
        columnOr(db, table::kMemset, "greenContextId") + ", m.streamId, s.value FROM " + std::string(table::kMemset) +
        " m" + apiJoin("m") + " WHERE m.start > 0 AND " + window.sqlCondition("m.") +
        " AND s.value NOT LIKE '%async%' AND " + columnOr(db, table::kMemset, "memKind") + " IN (" +
        std::to_string(nsys_enum::kMemPinned) + ", " + std::to_string(nsys_enum::kMemManaged) + ", " +
        std::to_string(nsys_enum::kMemManagedStatic) + ") ORDER BY duration DESC, m.start ASC" + rowLimit(options));
    while (statement.step()) {
      ReportCell kind;
      if (!statement.isNull(2)) {
        auto label = labels.find(statement.int64(2));
        kind = label != labels.end() ? ReportCell(label->second) : ReportCell(std::to_string(statement.int64(2)));
      }
      finding.evidence.rows.push_back({statement.int64(0), statement.int64(1), kind,
                                       static_cast<double>(statement.int64(3)) / 1e6, statement.int64(4),
                                       statement.int64(5), statement.int64(6), greenContextCell(statement, 7),
                                       statement.int64(8), std::string(statement.text(9))});
      finding.ranges.push_back(gpuRange(statement.int64(1), statement.int64(0), statement.int64(4), statement.int64(5),
                                        statement.int64(6), statement.int64(8)));
    }
    return finding;
  }
};

}  // namespace

std::unique_ptr<AnalysisRule> makeMemcpyAsyncRule() { return std::make_unique<MemcpyRule>(true); }
std::unique_ptr<AnalysisRule> makeMemcpySyncRule() { return std::make_unique<MemcpyRule>(false); }
std::unique_ptr<AnalysisRule> makeMemsetSyncRule() { return std::make_unique<MemsetSyncRule>(); }

}  // namespace gpuscope
