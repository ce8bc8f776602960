#pragma once
// TimelineLayout: the timeline's rows (process > thread > tracks, device > stream > tracks), which
// are collapsed, and where each shown row sits vertically.
#include <cstdint>
#include <vector>

#include "core/model/trace.h"
#include "ui/timeline/timeline_row.h"

namespace gpuscope::ui {

class TimelineRowKinds;

class TimelineLayout {
 public:
  // A shown row and its top, in content coordinates (0 = top of the first row).
  struct Placement {
    int row = -1;
    int top = 0;
    int height = 0;
    int bottom() const { return top + height; }
  };

  // Rebuilds the rows of TRACE, each as tall as KINDS says its kind is and a header where its kind
  // is one; threads with only OS-runtime calls start collapsed.
  void build(const Trace& trace, const TimelineRowKinds& kinds);
  void clear();

  const std::vector<TimelineRow>& rows() const { return rows_; }
  const TimelineRow& row(int index) const { return rows_[static_cast<size_t>(index)]; }
  const std::vector<Placement>& shown() const { return shown_; }
  int contentHeight() const { return shown_.empty() ? 0 : shown_.back().bottom(); }

  void setCollapsed(int row, bool collapsed);
  void toggle(int row) { setCollapsed(row, !rows_[static_cast<size_t>(row)].collapsed); }
  void expandAll();
  // Expands every header above ROW so that it is shown.
  void reveal(int row);
  // The row menu's Hide and Pin: a hidden row is left out with the rows below it; a pinned one is shown
  // above the others, with the rows below it, as Perfetto pins a track to the top.
  void setHidden(int row, bool hidden);
  void setPinned(int row, bool pinned);
  int hiddenCount() const;
  void showHidden();
  // Height of the pinned rows at the top of shown() (0 without any).
  int pinnedHeight() const { return pinnedHeight_; }
  // On opening a trace: closes the least busy thread rows, one by one, until the first GPU's rows (its
  // header, utilization and first stream) fit in VISIBLE_HEIGHT, keeping the busiest thread open.
  void fitGpuInView(int visibleHeight);

  int rowOfTrack(uint32_t track) const;  // -1 when the track has no row
  int rowOfUtilization(uint32_t deviceIndex) const;
  // Where ROW is drawn: its own placement, or that of its nearest shown (collapsed) ancestor.
  Placement placementOf(int row) const;
  // Position in shown() of the first row whose bottom is below Y (shown().size() when none).
  size_t firstShownBelow(int y) const;
  // The shown row at content coordinate Y, or -1.
  int rowAt(int y) const;

 private:
  int add(TimelineRow row, const Trace& trace, const TimelineRowKinds& kinds);
  void addMemoryAndMetrics(const Trace& trace, const TimelineRowKinds& kinds, size_t deviceIndex, int deviceRow);
  void place();

  std::vector<TimelineRow> rows_;
  std::vector<Placement> shown_;
  std::vector<int> shownIndexOfRow_;  // -1 when hidden
  std::vector<int> rowOfTrack_;
  std::vector<int> rowOfUtilization_;
  int pinnedHeight_ = 0;
};

}  // namespace gpuscope::ui
