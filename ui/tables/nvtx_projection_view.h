#pragma once
// NvtxProjectionView: the layer-by-layer latency view: per NVTX range, the GPU time and operation count of
// the work launched inside it (nsys's nvtx_gpu_proj_sum), its ranges grouped by name with the digits read as one
// ("step 0" ... "step 39": "step N", 40 instances). Double-clicking a range selects its first instance.
#include <QWidget>
#include <optional>

#include "core/model/trace.h"
#include "core/stats/summary_sources.h"

namespace gpuscope::ui {

class RangeBar;
class ReportPane;
class TraceSession;

// GROUPS with the ranges of each domain whose names differ only in their numbers made one, named as the verdict
// names a repeated range (stepGroupName: "step 3" -> "step N"). The table's own grouping: `gpuscope stats` and
// the Stats Reports tab keep nsys's one row per name.
NvtxProjectionGroups groupedByStepName(const NvtxProjectionGroups& groups);

class NvtxProjectionView : public QWidget {
  Q_OBJECT
 public:
  NvtxProjectionView(TraceSession* session, QWidget* parent = nullptr);

  ReportPane* pane() const { return pane_; }
  RangeBar* rangeBar() const { return rangeBar_; }
  // The earliest NVTX range of the report's row ROW (its "Range" cell: "domain:name").
  std::optional<EventRef> firstInstance(int row) const;

 private:
  void focusRange(int row);

  TraceSession* session_;
  ReportPane* pane_;
  RangeBar* rangeBar_ = nullptr;
};

}  // namespace gpuscope::ui
