#pragma once
// NvtxProjectionView: the layer-by-layer latency view: per NVTX range, the GPU time and operation count of
// the work launched inside it (nsys's nvtx_gpu_proj_sum). Double-clicking a range selects its first instance.
#include <QWidget>
#include <optional>

#include "core/model/trace.h"

namespace gpuscope::ui {

class RangeBar;
class ReportPane;
class TraceSession;

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
