#pragma once
// TimelineRow: one row of the timeline as the layout built it. Its kind names the TimelineRowKind
// (timeline_row_kind.h) that owns everything a kind decides; the row only records the two facts the
// layout needs from its kind (height, header-ness) next to where the row sits in the tree.
#include <QString>
#include <cstdint>
#include <limits>
#include <vector>

namespace gpuscope::ui {

// The kinds of row. Each has one class (timeline_row_kinds.h maps the one to the other).
enum class RowKind : uint8_t {
  Process,
  Thread,
  IdleThreads,
  Device,
  Stream,
  Track,
  Utilization,
  ThreadState,
  MetricGroup,  // "GPU Metrics" under a device: the header of its counter rows
  Counter,      // one GPU metric over time
  Memory,       // the device memory one process held over time
};

struct TimelineRow {
  static constexpr uint32_t kNoTrack = std::numeric_limits<uint32_t>::max();

  RowKind kind = RowKind::Track;
  int depth = 0;                 // indentation level
  int parent = -1;               // the header row holding this one
  uint32_t track = kNoTrack;     // Track rows: index into Trace::tracks()
  uint32_t deviceIndex = 0;      // Device, Utilization, MetricGroup, Counter, Memory rows: index into Trace::devices()
  uint32_t metricDevice = 0;     // Counter rows: index into gpuMetrics(trace).devices
  uint32_t series = 0;           // Counter rows: index into that device's metrics
  uint32_t memoryProcess = 0;    // Memory rows: index into memoryUsage(trace).processes
  int64_t globalTid = 0;         // ThreadState rows: the thread, as hostActivity(trace) finds it
  QString label;                 // "CUDA API", "Stream 7", "python3"
  QString detail;                // greyer text after the label: "pid 469", "tid 482"
  int height = 0;                // pixels, as the row's kind says
  bool header = false;           // collapsible, as the row's kind says
  bool collapsed = false;        // headers only
  bool hidden = false;           // left out with everything below it (the row menu's Hide, the profiler's threads)
  bool pinned = false;           // shown above the unpinned rows with everything below it (the row menu's Pin)
  int64_t weight = 0;            // Thread rows: how much the thread did (thread_groups.h), to pick which stay open
  std::vector<uint32_t> tracks;  // headers: every track below them, for the collapsed summary

  bool isHeader() const { return header; }
};

}  // namespace gpuscope::ui
