#include "ui/timeline/timeline_layout.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/metrics/gpu_metric_names.h"
#include "core/metrics/gpu_metrics.h"
#include "core/metrics/memory_usage.h"
#include "core/model/global_id.h"
#include "core/samples/host_activity.h"
#include "ui/timeline/thread_groups.h"
#include "ui/timeline/timeline_row_kinds.h"

namespace gpuscope::ui {
namespace {

QString threadLabel(const ThreadInfo& thread) {
  if (thread.tid == 0) return QStringLiteral("Process-wide");
  if (!thread.name.empty()) return QString::fromStdString(thread.name);
  return QStringLiteral("Thread %1").arg(thread.tid);
}

// The rank whose processes ran all of DEVICE's streams, in a file that holds ranks; none when the streams
// belong to several ranks, to a process without one, or to a pid two processes share.
std::optional<int64_t> rankOfDevice(const Trace& trace, const DeviceInfo& device) {
  std::optional<int64_t> rank;
  for (const StreamInfo& stream : device.streams) {
    std::optional<int64_t> streamRank;
    int processes = 0;
    for (const ProcessInfo& process : trace.processes()) {
      if (process.pid != stream.pid) continue;
      ++processes;
      streamRank = process.rank;
    }
    if (processes != 1 || !streamRank || (rank && *rank != *streamRank)) return std::nullopt;
    rank = streamRank;
  }
  return rank;
}

}  // namespace

void TimelineLayout::clear() {
  rows_.clear();
  shown_.clear();
  shownIndexOfRow_.clear();
  rowOfTrack_.clear();
  rowOfUtilization_.clear();
}

int TimelineLayout::add(TimelineRow row, const Trace& trace, const TimelineRowKinds& kinds) {
  const TimelineRowKind& kind = kinds.of(row.kind);
  row.height = kind.height(trace, row);
  row.header = kind.isHeader();
  rows_.push_back(std::move(row));
  return static_cast<int>(rows_.size()) - 1;
}

void TimelineLayout::build(const Trace& trace, const TimelineRowKinds& kinds) {
  clear();
  const auto& tracks = trace.tracks();
  rowOfTrack_.assign(tracks.size(), -1);
  auto addTrack = [&](uint32_t index, int parent, int depth) {
    if (index >= tracks.size() || rowOfTrack_[index] >= 0) return;
    TimelineRow row;
    row.kind = RowKind::Track;
    row.depth = depth;
    row.parent = parent;
    row.track = index;
    row.label = QString::fromStdString(tracks[index].label);
    rowOfTrack_[index] = add(std::move(row), trace, kinds);
    for (int p = parent; p >= 0; p = rows_[static_cast<size_t>(p)].parent)
      rows_[static_cast<size_t>(p)].tracks.push_back(index);
  };

  // Read from the file here, on the first layout of a trace that has sampling tables (once per trace).
  const HostActivity& host = hostActivity(trace);
  const CleanStacks stacks(host.samples());
  // A thread's scheduling states and samples show on a row of their own, first under it, as in Nsight Systems.
  auto addThread = [&](const ThreadInfo& thread, int parent, int depth) {
    TimelineRow threadHeader;
    threadHeader.kind = RowKind::Thread;
    threadHeader.depth = depth;
    threadHeader.parent = parent;
    threadHeader.label = threadLabel(thread);
    threadHeader.weight = threadWeight(trace, thread, host);
    if (thread.tid != 0) threadHeader.detail = QStringLiteral("tid %1").arg(thread.tid);
    int threadRow = add(std::move(threadHeader), trace, kinds);
    if (const ThreadActivityColumns* activity = host.thread(thread.globalTid)) {
      TimelineRow states;
      states.kind = RowKind::ThreadState;
      states.depth = depth + 1;
      states.parent = threadRow;
      states.globalTid = thread.globalTid;
      states.label = activity->hasStates() ? QStringLiteral("Thread state") : QStringLiteral("CPU samples");
      add(std::move(states), trace, kinds);
    }
    for (uint32_t t : thread.tracks) addTrack(t, threadRow, depth + 1);
    return threadRow;
  };
  for (const ProcessInfo& process : trace.processes()) {
    TimelineRow header;
    header.kind = RowKind::Process;
    header.label = process.name.empty() ? QStringLiteral("Process") : QString::fromStdString(process.name);
    header.detail = QStringLiteral("pid %1").arg(process.pid);
    if (process.rank) {
      header.detail += QStringLiteral(", rank %1").arg(*process.rank);
      if (!process.host.empty()) header.detail += QStringLiteral(" on %1").arg(QString::fromStdString(process.host));
    }
    int processRow = add(std::move(header), trace, kinds);
    ThreadGroups groups = groupThreads(trace, process, host, stacks);
    for (const ThreadInfo& thread : groups.working) {
      int row = addThread(thread, processRow, 1);
      rows_[static_cast<size_t>(row)].collapsed = onlyWaited(trace, thread, host, stacks);  // the process-wide row
    }
    if (!groups.idle.empty()) {
      TimelineRow folded;
      folded.kind = RowKind::IdleThreads;
      folded.depth = 1;
      folded.parent = processRow;
      folded.label = groups.idle.size() == 1 ? QStringLiteral("1 idle thread")
                                             : QStringLiteral("%1 idle threads").arg(groups.idle.size());
      folded.detail = QStringLiteral("waited or spun idle");
      folded.collapsed = true;
      int foldedRow = add(std::move(folded), trace, kinds);
      for (const ThreadInfo& thread : groups.idle)
        rows_[static_cast<size_t>(addThread(thread, foldedRow, 2))].collapsed = true;
    }
    for (const ThreadInfo& thread : groups.profiler) {
      int row = addThread(thread, processRow, 1);
      rows_[static_cast<size_t>(row)].hidden = true;
      rows_[static_cast<size_t>(row)].detail += QStringLiteral(" (the profiler's)");
    }
  }

  const auto& devices = trace.devices();
  rowOfUtilization_.assign(devices.size(), -1);
  for (size_t d = 0; d < devices.size(); ++d) {
    const DeviceInfo& device = devices[d];
    TimelineRow header;
    header.kind = RowKind::Device;
    header.deviceIndex = static_cast<uint32_t>(d);
    header.label = QStringLiteral("GPU %1").arg(device.id);
    QString name = QString::fromStdString(device.name);
    if (name != header.label) header.detail = name;  // a file without TARGET_INFO_GPU names it "GPU n"
    if (std::optional<int64_t> rank = rankOfDevice(trace, device)) {
      header.label += QStringLiteral(" · rank %1").arg(*rank);  // in a ranks view, whose GPU it is
    }
    int deviceRow = add(std::move(header), trace, kinds);

    TimelineRow utilization;
    utilization.kind = RowKind::Utilization;
    utilization.depth = 1;
    utilization.parent = deviceRow;
    utilization.deviceIndex = static_cast<uint32_t>(d);
    utilization.label = QStringLiteral("Utilization");
    rowOfUtilization_[d] = add(std::move(utilization), trace, kinds);
    addMemoryAndMetrics(trace, kinds, d, deviceRow);

    bool severalProcesses = std::any_of(device.streams.begin(), device.streams.end(),
                                        [&](const StreamInfo& s) { return s.pid != device.streams.front().pid; });
    for (const StreamInfo& stream : device.streams) {
      TimelineRow streamHeader;
      streamHeader.kind = RowKind::Stream;
      streamHeader.depth = 1;
      streamHeader.parent = deviceRow;
      streamHeader.label = QStringLiteral("Stream %1").arg(stream.streamId);
      streamHeader.detail = severalProcesses
                                ? QStringLiteral("pid %1, context %2").arg(stream.pid).arg(stream.contextId)
                                : QStringLiteral("context %1").arg(stream.contextId);
      int streamRow = add(std::move(streamHeader), trace, kinds);
      for (uint32_t t : stream.tracks) addTrack(t, streamRow, 2);
    }
  }
  place();
}

// A GPU's device memory (one row per process that held some, with its pid when there are several) and its
// "GPU Metrics" group of counter rows, in the device's metric order, under its header.
void TimelineLayout::addMemoryAndMetrics(const Trace& trace, const TimelineRowKinds& kinds, size_t d, int deviceRow) {
  const DeviceInfo& device = trace.devices()[d];
  const MemoryUsage& usage = memoryUsage(trace);
  std::vector<uint32_t> processes;
  for (size_t i = 0; i < usage.processes.size(); ++i)
    if (usage.processes[i].deviceId == static_cast<int>(device.id) && !usage.processes[i].time.empty())
      processes.push_back(static_cast<uint32_t>(i));
  for (uint32_t i : processes) {
    TimelineRow memory;
    memory.kind = RowKind::Memory;
    memory.depth = 1;
    memory.parent = deviceRow;
    memory.deviceIndex = static_cast<uint32_t>(d);
    memory.memoryProcess = i;
    // Not "Memory": each stream has a row of that name for its copies and memsets.
    memory.label = QStringLiteral("Memory usage");
    if (processes.size() > 1)
      memory.detail = QStringLiteral("pid %1").arg(global_id::pid(usage.processes[i].globalPid));
    add(std::move(memory), trace, kinds);
  }
  const GpuMetrics& metrics = gpuMetrics(trace);
  const GpuMetricDevice* counters = metrics.device(static_cast<int>(device.id));
  if (!counters || counters->metrics.empty()) return;
  TimelineRow group;
  group.kind = RowKind::MetricGroup;
  group.depth = 1;
  group.parent = deviceRow;
  group.deviceIndex = static_cast<uint32_t>(d);
  group.label = QStringLiteral("GPU Metrics");
  double rate = counters->frequencyHz();
  group.detail = QStringLiteral("%1 counters, sampled at %2")
                     .arg(counters->metrics.size())
                     .arg(rate >= 1000 ? QString::number(rate / 1000, 'g', 3) + QStringLiteral(" kHz")
                                       : QString::number(rate, 'g', 3) + QStringLiteral(" Hz"));
  int groupRow = add(std::move(group), trace, kinds);
  for (size_t m = 0; m < counters->metrics.size(); ++m) {
    const std::string& name = counters->metrics[m].name();
    TimelineRow counter;
    counter.kind = RowKind::Counter;
    counter.depth = 2;
    counter.parent = groupRow;
    counter.deviceIndex = static_cast<uint32_t>(d);
    counter.metricDevice = static_cast<uint32_t>(counters - metrics.devices.data());
    counter.series = static_cast<uint32_t>(m);
    std::string_view label = gpu_metric::labelOf(name);
    std::string_view unit = gpu_metric::unitOf(name);
    counter.label = QString::fromUtf8(label.data(), static_cast<int>(label.size()));
    // The unit tells a percentage from a count: "[Avg]", "[MHz]" stay on the label; "%" follows the value.
    if (!gpu_metric::isPercent(name) && !unit.empty())
      counter.label += QStringLiteral(" [%1]").arg(QString::fromUtf8(unit.data(), static_cast<int>(unit.size())));
    add(std::move(counter), trace, kinds);
  }
}

// Pinned rows first (each with the rows below it), then the rest, in build order; a hidden row, and a row
// below a hidden or collapsed header, is left out.
void TimelineLayout::place() {
  shown_.clear();
  shownIndexOfRow_.assign(rows_.size(), -1);
  std::vector<uint8_t> pinned(rows_.size(), 0), left(rows_.size(), 0);
  for (size_t i = 0; i < rows_.size(); ++i) {
    const TimelineRow& row = rows_[i];
    int parent = row.parent;
    pinned[i] = row.pinned || (parent >= 0 && pinned[static_cast<size_t>(parent)]);
    left[i] = row.hidden ||
              (parent >= 0 && (left[static_cast<size_t>(parent)] || rows_[static_cast<size_t>(parent)].collapsed));
  }
  int top = 0;
  for (uint8_t pass : {1, 0}) {
    for (size_t i = 0; i < rows_.size(); ++i) {
      if (left[i] || pinned[i] != pass) continue;
      shownIndexOfRow_[i] = static_cast<int>(shown_.size());
      shown_.push_back({static_cast<int>(i), top, rows_[i].height});
      top += rows_[i].height;
    }
  }
  pinnedHeight_ = 0;
  for (const Placement& placed : shown_)
    if (pinned[static_cast<size_t>(placed.row)]) pinnedHeight_ = placed.bottom();
}

void TimelineLayout::setHidden(int row, bool hidden) {
  if (row < 0 || static_cast<size_t>(row) >= rows_.size()) return;
  rows_[static_cast<size_t>(row)].hidden = hidden;
  place();
}

void TimelineLayout::setPinned(int row, bool pinned) {
  if (row < 0 || static_cast<size_t>(row) >= rows_.size()) return;
  rows_[static_cast<size_t>(row)].pinned = pinned;
  place();
}

int TimelineLayout::hiddenCount() const {
  return static_cast<int>(std::count_if(rows_.begin(), rows_.end(), [](const TimelineRow& r) { return r.hidden; }));
}

void TimelineLayout::showHidden() {
  for (TimelineRow& row : rows_) row.hidden = false;
  place();
}

void TimelineLayout::fitGpuInView(int visibleHeight) {
  int firstDevice = -1;
  for (size_t i = 0; i < rows_.size() && firstDevice < 0; ++i)
    if (rows_[i].kind == RowKind::Device) firstDevice = static_cast<int>(i);
  if (firstDevice < 0) return;
  // The GPU's header, its utilization and its first stream's header and kernels: about four rows.
  auto gpuFits = [&] {
    Placement device = placementOf(firstDevice);
    int wanted = device.top;
    for (size_t k = static_cast<size_t>(shownIndexOfRow_[static_cast<size_t>(firstDevice)]);
         k < shown_.size() && k < static_cast<size_t>(shownIndexOfRow_[static_cast<size_t>(firstDevice)]) + 4; ++k)
      wanted = shown_[k].bottom();
    return device.row < 0 || wanted <= visibleHeight;
  };
  std::vector<int> threads;
  for (size_t i = 0; i < rows_.size(); ++i)
    if (rows_[i].kind == RowKind::Thread && !rows_[i].collapsed && shownIndexOfRow_[i] >= 0)
      threads.push_back(static_cast<int>(i));
  // The least busy threads close first; the busiest one stays open.
  std::stable_sort(threads.begin(), threads.end(), [this](int a, int b) { return row(a).weight < row(b).weight; });
  for (size_t k = 0; k + 1 < threads.size() && !gpuFits(); ++k) setCollapsed(threads[k], true);
}

void TimelineLayout::setCollapsed(int row, bool collapsed) {
  if (row < 0 || static_cast<size_t>(row) >= rows_.size() || !rows_[static_cast<size_t>(row)].isHeader()) return;
  if (rows_[static_cast<size_t>(row)].collapsed == collapsed) return;
  rows_[static_cast<size_t>(row)].collapsed = collapsed;
  place();
}

void TimelineLayout::expandAll() {
  for (TimelineRow& row : rows_) row.collapsed = false;
  place();
}

void TimelineLayout::reveal(int row) {
  if (row < 0 || static_cast<size_t>(row) >= rows_.size()) return;
  // A hidden row (or one below a hidden header) is shown again: what the user asked to see wins.
  bool changed = rows_[static_cast<size_t>(row)].hidden;
  rows_[static_cast<size_t>(row)].hidden = false;
  for (int p = rows_[static_cast<size_t>(row)].parent; p >= 0; p = rows_[static_cast<size_t>(p)].parent) {
    TimelineRow& header = rows_[static_cast<size_t>(p)];
    if (header.collapsed || header.hidden) changed = true;
    header.collapsed = false;
    header.hidden = false;
  }
  if (changed) place();
}

int TimelineLayout::rowOfTrack(uint32_t track) const { return track < rowOfTrack_.size() ? rowOfTrack_[track] : -1; }

int TimelineLayout::rowOfUtilization(uint32_t deviceIndex) const {
  return deviceIndex < rowOfUtilization_.size() ? rowOfUtilization_[deviceIndex] : -1;
}

TimelineLayout::Placement TimelineLayout::placementOf(int row) const {
  for (int r = row; r >= 0; r = rows_[static_cast<size_t>(r)].parent) {
    int shownIndex = shownIndexOfRow_[static_cast<size_t>(r)];
    if (shownIndex >= 0) return shown_[static_cast<size_t>(shownIndex)];
  }
  return {};
}

size_t TimelineLayout::firstShownBelow(int y) const {
  auto it = std::upper_bound(shown_.begin(), shown_.end(), y,
                             [](int value, const Placement& p) { return value < p.bottom(); });
  return static_cast<size_t>(it - shown_.begin());
}

int TimelineLayout::rowAt(int y) const {
  size_t i = firstShownBelow(y);
  if (i >= shown_.size() || y < shown_[i].top) return -1;
  return shown_[i].row;
}

}  // namespace gpuscope::ui
