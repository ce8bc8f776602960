#pragma once
// TimelineRowKinds: the one object of each row kind that a timeline owns, and the map from a row's
// RowKind to it. The map is a switch with no default, compiled with -Wswitch-enum as an error, so a
// RowKind without a class does not compile; a class that leaves a fact undefined is abstract, so it
// cannot be a member here. timeline_row_kind.h says how to add a kind.
#include <tuple>

#include "ui/timeline/counter_row_kind.h"
#include "ui/timeline/header_row_kinds.h"
#include "ui/timeline/memory_row_kind.h"
#include "ui/timeline/summary_strip.h"
#include "ui/timeline/thread_state_row_kind.h"
#include "ui/timeline/timeline_row_kind.h"
#include "ui/timeline/track_row_kind.h"
#include "ui/timeline/utilization_row_kind.h"

namespace gpuscope::ui {

class TimelineRowKinds {
 public:
  TimelineRowKinds() = default;
  TimelineRowKinds(const TimelineRowKinds&) = delete;  // the header kinds hold a reference to strip_
  TimelineRowKinds& operator=(const TimelineRowKinds&) = delete;

  const TimelineRowKind& of(RowKind kind) const;
  TimelineRowKind& of(RowKind kind);
  const TimelineRowKind& of(const TimelineRow& row) const { return of(row.kind); }
  TimelineRowKind& of(const TimelineRow& row) { return of(row.kind); }

  // A new trace (or none), for every kind in kinds_.
  void onTraceChanged(const Trace* trace);

 private:
  SummaryStrip strip_;  // shared by the headers, so a lane's fold density is built once
  std::tuple<ProcessRowKind, ThreadRowKind, IdleThreadsRowKind, DeviceRowKind, StreamRowKind, TrackRowKind,
             UtilizationRowKind, ThreadStateRowKind, MetricGroupRowKind, CounterRowKind, MemoryRowKind>
      kinds_{strip_,
             strip_,
             strip_,
             strip_,
             strip_,
             TrackRowKind{},
             UtilizationRowKind{},
             ThreadStateRowKind{},
             strip_,
             CounterRowKind{},
             MemoryRowKind{}};
};

}  // namespace gpuscope::ui
