#include "ui/timeline/timeline_row_kinds.h"

#include <QtGlobal>
#include <utility>

namespace gpuscope::ui {

// A RowKind with no case here is an error whatever the build's warning flags, and a default would not
// hide it (-Wswitch-enum names the missing enumerator even then).
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch"
#pragma GCC diagnostic error "-Wswitch-enum"

const TimelineRowKind& TimelineRowKinds::of(RowKind kind) const {
  switch (kind) {
    case RowKind::Process:
      return std::get<ProcessRowKind>(kinds_);
    case RowKind::Thread:
      return std::get<ThreadRowKind>(kinds_);
    case RowKind::IdleThreads:
      return std::get<IdleThreadsRowKind>(kinds_);
    case RowKind::Device:
      return std::get<DeviceRowKind>(kinds_);
    case RowKind::Stream:
      return std::get<StreamRowKind>(kinds_);
    case RowKind::Track:
      return std::get<TrackRowKind>(kinds_);
    case RowKind::Utilization:
      return std::get<UtilizationRowKind>(kinds_);
    case RowKind::ThreadState:
      return std::get<ThreadStateRowKind>(kinds_);
    case RowKind::MetricGroup:
      return std::get<MetricGroupRowKind>(kinds_);
    case RowKind::Counter:
      return std::get<CounterRowKind>(kinds_);
    case RowKind::Memory:
      return std::get<MemoryRowKind>(kinds_);
  }
  Q_UNREACHABLE();  // rows are made by TimelineLayout::build, with named kinds only
}

#pragma GCC diagnostic pop

TimelineRowKind& TimelineRowKinds::of(RowKind kind) {
  return const_cast<TimelineRowKind&>(std::as_const(*this).of(kind));
}

void TimelineRowKinds::onTraceChanged(const Trace* trace) {
  std::apply([trace](auto&... kind) { (kind.onTraceChanged(trace), ...); }, kinds_);
}

}  // namespace gpuscope::ui
