// cuda_gpu_trace: every kernel, memcpy and memset on the GPU, by start time.
#include <algorithm>
#include <tuple>

#include "core/schema/nsys_enums.h"
#include "core/schema/trace_schema.h"
#include "core/stats/stats_common.h"
#include "core/stats/stats_reports.h"

namespace gpuscope {
namespace {

constexpr int kColumns = 21;
enum Column {
  kStart,
  kDuration,
  kCorrelation,
  kGridX,
  kBlockX = 6,
  kRegisters = 9,
  kStaticShared,
  kDynamicShared,
  kBytes,
  kThroughput,
  kSourceKind,
  kDestinationKind,
  kDevice,
  kContext,
  kGreenContext,
  kStream,
  kName
};

struct TraceRow {
  int64_t start;
  int64_t correlationId;
  std::vector<ReportCell> cells;
};

ReportCell integerOrEmpty(const Statement& stmt, int column) {
  return optionalCell(!stmt.isNull(column), stmt.int64(column));
}

class GpuTraceBuilder {
 public:
  explicit GpuTraceBuilder(const Database& db)
      : db_(db),
        memcpyKinds_(enumLabels(db, table::kEnumMemcpyOper, builtinMemcpyKindLabels())),
        memoryKinds_(enumLabels(db, table::kEnumMemKind, builtinMemoryKindLabels())) {
    if (db.hasTable(table::kTargetGpu) && hasColumn(db, table::kTargetGpu, "name")) {
      auto stmt = db.prepare("SELECT id, name FROM TARGET_INFO_GPU WHERE name IS NOT NULL");
      while (stmt.step()) gpuNames_.try_emplace(stmt.int64(0), stmt.text(1));
    }
  }

  // Start, duration, correlation, device, context, green context and stream: the columns every row has.
  std::string commonSelect(std::string_view table) const {
    return "start, end - start, correlationId, deviceId, contextId, " + columnOr(db_, table, "greenContextId") +
           ", streamId";
  }

  void addKernels() {
    auto k = [&](std::string_view column) { return columnOr(db_, table::kKernel, column); };
    auto stmt =
        db_.prepare("SELECT " + commonSelect(table::kKernel) + ", " + k("gridX") + ", " + k("gridY") + ", " +
                    k("gridZ") + ", " + k("blockX") + ", " + k("blockY") + ", " + k("blockZ") + ", " +
                    k("registersPerThread") + ", " + k("staticSharedMemory") + ", " + k("dynamicSharedMemory") +
                    ", s.value FROM CUPTI_ACTIVITY_KIND_KERNEL LEFT JOIN StringIds AS s ON s.id = demangledName");
    while (stmt.step()) {
      auto& row = addRow(stmt);
      for (int i = 0; i < 7; ++i) row.cells[kGridX + i] = integerOrEmpty(stmt, 7 + i);
      row.cells[kStaticShared] = megabytesOrEmpty(stmt, 14);
      row.cells[kDynamicShared] = megabytesOrEmpty(stmt, 15);
      row.cells[kName] = std::string(stmt.text(16));
    }
  }

  void addMemcpys() {
    auto m = [&](std::string_view column) { return columnOr(db_, table::kMemcpy, column); };
    auto stmt = db_.prepare("SELECT " + commonSelect(table::kMemcpy) + ", bytes, copyKind, " + m("srcKind") + ", " +
                            m("dstKind") + " FROM CUPTI_ACTIVITY_KIND_MEMCPY");
    while (stmt.step()) {
      auto& row = addRow(stmt);
      setBytes(row, stmt, 7);
      row.cells[kSourceKind] = label(memoryKinds_, stmt, 9);
      row.cells[kDestinationKind] = label(memoryKinds_, stmt, 10);
      auto kind = label(memcpyKinds_, stmt, 8);
      row.cells[kName] = nsys_enum::memcpyOperationName(kind);
    }
  }

  void addMemsets() {
    auto stmt = db_.prepare("SELECT " + commonSelect(table::kMemset) + ", bytes, " +
                            columnOr(db_, table::kMemset, "memKind") + " FROM CUPTI_ACTIVITY_KIND_MEMSET");
    while (stmt.step()) {
      auto& row = addRow(stmt);
      setBytes(row, stmt, 7);
      row.cells[kSourceKind] = label(memoryKinds_, stmt, 8);
      row.cells[kName] = std::string(nsys_enum::kMemsetOperationName);
    }
  }

  std::vector<TraceRow> takeRows() { return std::move(rows_); }

 private:
  TraceRow& addRow(const Statement& stmt) {
    auto& row = rows_.emplace_back(TraceRow{stmt.int64(0), stmt.int64(2), std::vector<ReportCell>(kColumns)});
    row.cells[kStart] = stmt.int64(0);
    row.cells[kDuration] = stmt.int64(1);
    row.cells[kCorrelation] = integerOrEmpty(stmt, 2);
    int64_t device = stmt.int64(3);
    auto gpu = gpuNames_.find(device);
    row.cells[kDevice] =
        (gpu == gpuNames_.end() ? std::string("Device") : gpu->second) + " (" + std::to_string(device) + ")";
    row.cells[kContext] = stmt.int64(4);
    // A green context id of 0 means none.
    if (!stmt.isNull(5) && stmt.int64(5) != 0) row.cells[kGreenContext] = stmt.int64(5);
    row.cells[kStream] = stmt.int64(6);
    return row;
  }

  static ReportCell megabytesOrEmpty(const Statement& stmt, int column) {
    return optionalCell(!stmt.isNull(column), static_cast<double>(stmt.int64(column)) / 1e6);
  }

  // Bytes in MB and throughput in MB/s, the latter from whole bytes per second as nsys computes it
  // (bytes * (10^9 / duration) with integer division), empty for a zero duration.
  static void setBytes(TraceRow& row, const Statement& stmt, int column) {
    int64_t bytes = stmt.int64(column);
    int64_t duration = stmt.int64(1);
    row.cells[kBytes] = static_cast<double>(bytes) / 1e6;
    if (duration != 0)
      row.cells[kThroughput] = static_cast<double>(bytes) * static_cast<double>(1000000000 / duration) / 1e6;
  }

  static std::string label(const std::unordered_map<int64_t, std::string>& labels, const Statement& stmt, int column) {
    if (stmt.isNull(column)) return {};
    auto it = labels.find(stmt.int64(column));
    return it == labels.end() ? std::string() : it->second;
  }

  const Database& db_;
  std::unordered_map<int64_t, std::string> memcpyKinds_, memoryKinds_, gpuNames_;
  std::vector<TraceRow> rows_;
};

}  // namespace

ReportTable cudaGpuTrace(const Database& db) {
  bool kernels = db.hasTable(table::kKernel), memcpys = db.hasTable(table::kMemcpy);
  bool memsets = db.hasTable(table::kMemset);
  if (!kernels && !memcpys && !memsets) requireReportTable(db, table::kKernel);
  if (kernels) requireReportTable(db, table::kStringIds);
  GpuTraceBuilder builder(db);
  if (kernels) builder.addKernels();
  if (memcpys) builder.addMemcpys();
  if (memsets) builder.addMemsets();
  auto rows = builder.takeRows();
  std::stable_sort(rows.begin(), rows.end(), [](const TraceRow& a, const TraceRow& b) {
    return std::tie(a.start, a.correlationId) < std::tie(b.start, b.correlationId);
  });

  ReportTable table{"cuda_gpu_trace", "CUDA GPU Trace", {}, {}};
  for (const char* title :
       {"Start (ns)", "Duration (ns)", "CorrId",  "GrdX",         "GrdY",         "GrdZ",       "BlkX",
        "BlkY",       "BlkZ",          "Reg/Trd", "StcSMem (MB)", "DymSMem (MB)", "Bytes (MB)", "Throughput (MB/s)",
        "SrcMemKd",   "DstMemKd",      "Device",  "Ctx",          "GreenCtx",     "Strm",       "Name"})
    table.columns.push_back({title, 3});
  for (auto& row : rows) table.rows.push_back(std::move(row.cells));
  return table;
}

}  // namespace gpuscope
