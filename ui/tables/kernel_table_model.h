#pragma once
// KernelTableModel: one row per kernel instance of a trace, over the trace's own columns. Rows are KernelIndex
// numbers (4 bytes each); the name filter, the time range and the sort run in core, on a worker thread when
// the trace has more kernels than the inline limit, and the rows change in one reset when they are ready.
#include <QAbstractTableModel>
#include <QFutureWatcher>
#include <QRegularExpression>
#include <array>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "core/metrics/gpu_metric_names.h"
#include "core/model/trace.h"
#include "core/query/kernel_rows.h"
#include "ui/tables/table_proxy.h"

namespace gpuscope::ui {

// What a run of the kernel table's query hands back: the index (built on the first run for a trace), the rows
// in order, and, when asked, the kernels of the range grouped by demangled name.
struct KernelRowsResult {
  std::shared_ptr<const Trace> trace;
  std::shared_ptr<const KernelIndex> index;
  std::shared_ptr<const std::vector<uint32_t>> rows;
  std::optional<std::vector<KernelGroup>> groups;
};

class KernelTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Columns {
    NameColumn,
    DemangledColumn,
    StartColumn,
    DurationColumn,
    DeviceColumn,
    ContextColumn,
    StreamColumn,
    CorrelationColumn,
    RankColumn,  // only in a trace of ranks (ProcessInfo::rank): the rank whose process launched the kernel
    ColumnCount
  };
  // Only in a trace with GPU metrics, after the columns above (Rank included where it shows): the sampled means
  // of gpu_metric::kPerKernel over each kernel, as core's sampledMeans gives them, in that order.
  static constexpr int kMetricColumns = static_cast<int>(std::size(gpu_metric::kPerKernel));
  enum Roles { SortRole = kTableSortRole };
  // Traces with up to this many kernels are queried on the calling thread.
  static constexpr uint32_t kDefaultInlineLimit = 100'000;

  explicit KernelTableModel(QObject* parent = nullptr);
  ~KernelTableModel() override;

  // Replaces every row in one reset; a null trace empties the table.
  void setTrace(std::shared_ptr<const Trace> trace);
  // The file time the Start column shows as zero (TraceSession::timeOrigin).
  void setTimeOrigin(TimeNs origin);
  // Keeps kernels whose short or demangled name contains TEXT (case-insensitive), or matches it as a regular
  // expression with REGEX. Returns the expression's error (every kernel then shows), or an empty string.
  QString setNameFilter(const QString& text, bool regex);
  // Keeps kernels that overlap RANGE (empty: all).
  void setRange(TimeInterval range);
  void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
  void setInlineLimit(uint32_t kernels) { inlineLimit_ = kernels; }

  // True while a query runs on a worker; rowsReady() follows.
  bool isUpdating() const { return running_ || pending_; }
  // Kernels in the trace, whatever the filter.
  int totalCount() const;
  // Whether the trace holds ranks, and so the table its Rank column.
  bool hasRanks() const { return trackRanks_ != nullptr; }
  // Whether the trace has GPU metrics, and so the table its sampled metric columns (the last kMetricColumns).
  bool hasMetrics() const { return hasMetrics_; }
  // The column of gpu_metric::kPerKernel[I], or -1 without metrics.
  int metricColumn(int i) const { return hasMetrics_ ? (hasRanks() ? ColumnCount : RankColumn) + i : -1; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  EventRef eventAt(int row) const;
  // The row of a kernel instance, if EVENT is one and it shows.
  std::optional<int> rowOf(EventRef event) const;

 signals:
  // The rows show the current trace, filter, range and order.
  void rowsReady();
  // The kernels of the current range grouped by demangled name, computed with the rows.
  void groupsReady(std::shared_ptr<const Trace> trace, std::vector<KernelGroup> groups);

 private:
  void requery(bool groups);
  // The current trace, index, filter, range and order as a query run (consumes the pending flags).
  std::function<KernelRowsResult()> takeRequest();
  void runNow();
  void finished();
  void apply(KernelRowsResult result);
  QVariant displayData(EventRef event, int column) const;
  QVariant sortData(EventRef event, int column) const;
  // Which of gpu_metric::kPerKernel COLUMN shows, or -1 for another column.
  int metricOf(int column) const;
  // The sampled means of the kernel at index NUMBER (KernelIndex), computed on first use and kept: a value per
  // metric, kTooShort where fewer than kLeastSamplesForMeans samples fall inside, kNoMetric where its GPU has none.
  static constexpr float kTooShort = -1, kNoMetric = -2;
  const std::array<float, kMetricColumns>& meansOf(uint32_t number) const;
  // A metric column's order, which core's query does not know: the rows sorted here, after it.
  void sortByMetric();

  std::shared_ptr<const Trace> trace_;
  std::shared_ptr<const KernelIndex> index_;
  std::shared_ptr<const std::vector<uint32_t>> rows_;
  // By track: the rank of the process whose GPU work the track holds (-1: none); null in a trace without ranks.
  std::shared_ptr<const std::vector<int64_t>> trackRanks_;
  bool hasMetrics_ = false;
  double metricsHz_ = 0;  // the first GPU's sampling rate, for the header's tooltip
  mutable std::unordered_map<uint32_t, std::array<float, kMetricColumns>> means_;  // by KernelIndex number
  TimeNs origin_ = 0;
  QRegularExpression nameFilter_;  // no pattern: every name
  TimeInterval range_;
  int sortColumn_ = StartColumn;
  Qt::SortOrder sortOrder_ = Qt::AscendingOrder;
  uint32_t inlineLimit_ = kDefaultInlineLimit;
  QFutureWatcher<KernelRowsResult> watcher_;
  bool running_ = false;
  bool pending_ = false;     // a request came while a worker ran: run again when it ends
  bool wantGroups_ = false;  // the pending request needs the groups too
  uint64_t generation_ = 0;  // of the latest request
  uint64_t runningGeneration_ = 0;
};

}  // namespace gpuscope::ui
