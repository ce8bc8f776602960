#pragma once
// TimelineLayout: the timeline's rows (process > thread > tracks, device > stream > tracks), which
// are collapsed, and where each shown row sits vertically.
#include <QString>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/model/trace.h"

namespace gpuscope::ui {

enum class RowKind : uint8_t { Process, Thread, Device, Stream, Track, Utilization };

struct TimelineRow {
  static constexpr uint32_t kNoTrack = std::numeric_limits<uint32_t>::max();

  RowKind kind = RowKind::Track;
  int depth = 0;                 // indentation level
  int parent = -1;               // the header row holding this one
  uint32_t track = kNoTrack;     // Track rows: index into Trace::tracks()
  uint32_t deviceIndex = 0;      // Device and Utilization rows: index into Trace::devices()
  QString label;                 // "CUDA API", "Stream 7", "python3"
  QString detail;                // greyer text after the label: "pid 469", "tid 482"
  int height = 0;                // pixels
  bool collapsed = false;        // headers only
  std::vector<uint32_t> tracks;  // headers: every track below them, for the collapsed summary

  bool isHeader() const { return kind != RowKind::Track && kind != RowKind::Utilization; }
};

class TimelineLayout {
 public:
  static constexpr int kLaneHeight = 20;
  static constexpr int kTrackPadding = 2;  // above the first lane and below the last
  static constexpr int kHeaderHeight = 22;
  static constexpr int kUtilizationHeight = 30;

  // A shown row and its top, in content coordinates (0 = top of the first row).
  struct Placement {
    int row = -1;
    int top = 0;
    int height = 0;
    int bottom() const { return top + height; }
  };

  // Rebuilds the rows of TRACE; threads with only OS-runtime calls start collapsed.
  void build(const Trace& trace);
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

  int rowOfTrack(uint32_t track) const;  // -1 when the track has no row
  int rowOfUtilization(uint32_t deviceIndex) const;
  // Where ROW is drawn: its own placement, or that of its nearest shown (collapsed) ancestor.
  Placement placementOf(int row) const;
  // Position in shown() of the first row whose bottom is below Y (shown().size() when none).
  size_t firstShownBelow(int y) const;
  // The shown row at content coordinate Y, or -1.
  int rowAt(int y) const;

 private:
  int add(TimelineRow row);
  void place();

  std::vector<TimelineRow> rows_;
  std::vector<Placement> shown_;
  std::vector<int> shownIndexOfRow_;  // -1 when hidden
  std::vector<int> rowOfTrack_;
  std::vector<int> rowOfUtilization_;
};

}  // namespace gpuscope::ui
