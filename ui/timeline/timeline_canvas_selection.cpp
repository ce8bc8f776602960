// TimelineCanvas, the selected event: its outline, the flow arrows to the API call or GPU work it is
// linked with, and keeping both ends of that link in view when the selection is made elsewhere; or the
// selected CPU sample's tick on its thread-state row.
#include <QPainter>
#include <QPainterPath>
#include <QPolygonF>
#include <algorithm>
#include <cmath>

#include "core/metrics/memory_usage.h"
#include "core/samples/host_activity.h"
#include "ui/timeline/memory_row_kind.h"
#include "ui/timeline/thread_state_row_kind.h"
#include "ui/timeline/timeline_canvas.h"
#include "ui/timeline/timeline_palette.h"
#include "ui/timeline/timeline_pixels.h"

namespace gpuscope::ui {
namespace {

namespace colors = timeline_colors;

constexpr size_t kMaxFlowArrows = 256;

}  // namespace

void TimelineCanvas::showLaunchingCallToo(EventRef work, int workRow) {
  const Trace* trace = session_->trace().get();
  if (!trace || !trace->track(work.track).isGpu()) return;
  auto call = trace->launchingCall(work);
  if (!call) return;
  int callRow = layout_.rowOfTrack(call->track);
  if (callRow < 0) return;
  // A CPU side the user (or the compare view) folded stays folded: the flow arrow ends on its header, and
  // the selected work keeps its place on screen.
  TimelineLayout::Placement a = layout_.placementOf(callRow);
  TimelineLayout::Placement b = layout_.placementOf(workRow);
  if (a.row < 0 || b.row < 0) return;
  // Both rows on screen when they fit, so the flow arrow joins two visible ends.
  int top = std::min(a.top, b.top);
  int bottom = std::max(a.bottom(), b.bottom());
  int visible = std::max(0, height() - kRulerHeight);
  int margin = TrackRowKind::kLaneHeight;
  if (bottom - top + 2 * margin <= visible) setScrollY(std::max(0, top - margin));
}

void TimelineCanvas::paintSelectedSample(QPainter& p, const Trace& trace) const {
  const SampleRef& sample = *session_->selectedSample();
  const HostActivity& host = hostActivity(trace);
  const ThreadActivityColumns* thread = host.thread(sample.globalTid);
  if (!thread) return;
  const TimelineGeometry g = geometry();
  for (const TimelineLayout::Placement& shown : layout_.shown()) {
    const TimelineRow& row = layout_.row(shown.row);
    if (row.kind != RowKind::ThreadState || host.thread(row.globalTid) != thread) continue;
    ThreadStateRowKind::paintSelectedSample(p, trace, row, sample.index, kRulerHeight + shown.top - scrollY(), g);
  }
}

// The selected allocation or free: a line at its time across the memory rows of its process and GPU, and a
// dot where the level it set begins.
void TimelineCanvas::paintSelectedMemoryEvent(QPainter& p, const Trace& trace, const QRect& area) const {
  const MemoryUsage& usage = memoryUsage(trace);
  uint32_t index = *session_->selectedMemoryEvent();
  if (index >= usage.events.size()) return;
  const MemoryUsageEvent& event = usage.events[index];
  double x = xForTime(event.time);
  if (x < area.left() - 1 || x > area.right() + 1) return;
  for (const TimelineLayout::Placement& shown : layout_.shown()) {
    const TimelineRow& row = layout_.row(shown.row);
    if (row.kind != RowKind::Memory || row.memoryProcess >= usage.processes.size()) continue;
    const ProcessMemory& process = usage.processes[row.memoryProcess];
    if (process.globalPid != event.globalPid || process.deviceId != event.deviceId) continue;
    int top = kRulerHeight + shown.top - scrollY();
    p.setPen(QPen(colors::kSelection, 2.0));
    p.drawLine(QLineF(x, top + 1, x, top + row.height - 1));
    auto step = std::find(process.event.begin(), process.event.end(), index);
    if (step == process.event.end()) continue;
    int64_t level = process.allocated[static_cast<size_t>(step - process.event.begin())];
    const auto& rowKind = static_cast<const MemoryRowKind&>(kinds_.of(row));
    double y = MemoryRowKind::yOf(level, rowKind.scaleOf(trace, row), top, row.height);
    p.setPen(Qt::NoPen);
    p.setBrush(colors::kSelection);
    p.drawEllipse(QPointF(x, y), 3.5, 3.5);
    p.setBrush(Qt::NoBrush);
  }
}

void TimelineCanvas::paintSelection(QPainter& p, const QRect& area) {
  const Trace* trace = session_->trace().get();
  if (trace && session_->selectedSample()) paintSelectedSample(p, *trace);
  if (trace && session_->selectedMemoryEvent()) paintSelectedMemoryEvent(p, *trace, area);
  const auto& selected = session_->selection();
  if (!trace || !selected) return;
  if (selected->track >= trace->tracks().size()) return;
  const Track& track = trace->track(selected->track);
  if (selected->lane >= track.lanes.size() || selected->index >= track.lanes[selected->lane].size()) return;

  // The API call and the GPU work it launched, whichever of them is selected.
  std::vector<std::pair<EventRef, EventRef>> links;
  if (track.isGpu()) {
    if (auto call = trace->launchingCall(*selected)) links.emplace_back(*call, *selected);
  } else if (track.kind == TrackKind::CudaApi) {
    for (EventRef work : trace->launchedWork(*selected)) {
      if (links.size() >= kMaxFlowArrows) break;
      links.emplace_back(*selected, work);
    }
  }

  auto outline = [&](EventRef event, const QColor& color, qreal width) {
    int row = layout_.rowOfTrack(event.track);
    if (row < 0 || layout_.placementOf(row).row != row) return;
    double x0 = clampToArea(xForTime(trace->start(event)), area);
    double x1 = clampToArea(xForTime(trace->end(event)), area);
    if (x1 - x0 < 5) {
      double mid = (x0 + x1) / 2;
      x0 = mid - 2.5;
      x1 = mid + 2.5;
    }
    double top = eventEdgeY(event, false) + 1;
    double bottom = eventEdgeY(event, true);
    p.setPen(QPen(color, width));
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRectF(x0, top, x1 - x0, bottom - top).adjusted(width / 2, width / 2, -width / 2, -width / 2));
  };

  p.setRenderHint(QPainter::Antialiasing, true);
  for (const auto& [call, work] : links) {
    outline(track.isGpu() ? call : work, colors::kFlowArrow, 1.5);
    // An end off to the side is pinned to the edge of the area, in its own row, so the arrow
    // still shows which rows it joins.
    auto pinned = [&](TimeNs t) {
      return std::clamp(xForTime(t), static_cast<double>(area.left()), static_cast<double>(area.right()));
    };
    QPointF from(pinned(trace->start(call)), eventEdgeY(call, true));
    QPointF to(pinned(trace->start(work)), eventEdgeY(work, false));
    flowArrows_.emplace_back(from, to);
    double bend = std::max(20.0, std::abs(to.y() - from.y()) / 2);
    double direction = to.y() >= from.y() ? 1.0 : -1.0;
    QPainterPath path(from);
    path.cubicTo(from + QPointF(0, bend * direction), to - QPointF(0, bend * direction),
                 to - QPointF(0, 6 * direction));
    p.setPen(QPen(colors::kFlowArrow, 2.0));
    p.drawPath(path);
    QPolygonF head;
    head << to << to + QPointF(-5, -8 * direction) << to + QPointF(5, -8 * direction);
    p.setPen(Qt::NoPen);
    p.setBrush(colors::kFlowArrow);
    p.drawPolygon(head);
    p.setBrush(Qt::NoBrush);
  }
  outline(*selected, colors::kSelection, 2.5);
  p.setRenderHint(QPainter::Antialiasing, false);
}

}  // namespace gpuscope::ui
