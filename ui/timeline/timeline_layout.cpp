#include "ui/timeline/timeline_layout.h"

#include <algorithm>

#include "core/model/global_id.h"
#include "core/samples/host_activity.h"
#include "ui/timeline/timeline_row_kinds.h"

namespace gpuscope::ui {
namespace {

QString threadLabel(const ThreadInfo& thread) {
  if (thread.tid == 0) return QStringLiteral("Process-wide");
  if (!thread.name.empty()) return QString::fromStdString(thread.name);
  return QStringLiteral("Thread %1").arg(thread.tid);
}

// Whether the thread ran a tenth of the time it was observed or more (sampled at all, where the file has
// samples but no scheduling records).
bool keptACpuBusy(const ThreadActivityColumns& thread) {
  if (!thread.hasStates()) return !thread.sampleTime.empty();
  TimeNs from = thread.spanStart.front(), to = thread.spanEnd.back();
  return thread.timeIn(ThreadActivity::Running, from, to) * 10 >= to - from;
}

// The threads of PROCESS that get rows: those with events, then those the file knows only by their
// samples or scheduling (a thread that computes without a traced call), by tid.
std::vector<ThreadInfo> threadsWithRows(const ProcessInfo& process, const HostActivity& host) {
  std::vector<ThreadInfo> threads;
  std::vector<ThreadInfo> sampledOnly;
  for (const ThreadInfo& thread : process.threads) {
    if (!thread.tracks.empty())
      threads.push_back(thread);
    else if (thread.tid != 0 && host.thread(thread.globalTid))
      sampledOnly.push_back(thread);
  }
  for (const ThreadActivityColumns& activity : host.threads()) {
    int64_t id = activity.globalTid;
    if (global_id::pid(id) != process.pid || global_id::hw(id) != global_id::hw(process.globalPid)) continue;
    auto same = [&](const ThreadInfo& thread) { return thread.tid == global_id::tid(id); };
    if (std::any_of(threads.begin(), threads.end(), same) || std::any_of(sampledOnly.begin(), sampledOnly.end(), same))
      continue;
    ThreadInfo thread;
    thread.globalTid = id;
    thread.tid = global_id::tid(id);
    thread.name = activity.name;
    sampledOnly.push_back(std::move(thread));
  }
  std::sort(sampledOnly.begin(), sampledOnly.end(),
            [](const ThreadInfo& a, const ThreadInfo& b) { return a.tid < b.tid; });
  threads.insert(threads.end(), sampledOnly.begin(), sampledOnly.end());
  return threads;
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
    for (const ThreadInfo& thread : threadsWithRows(process, host)) {
      TimelineRow threadHeader;
      threadHeader.kind = RowKind::Thread;
      threadHeader.depth = 1;
      threadHeader.parent = processRow;
      threadHeader.label = threadLabel(thread);
      if (thread.tid != 0) threadHeader.detail = QStringLiteral("tid %1").arg(thread.tid);
      bool onlyOsRuntime = std::all_of(thread.tracks.begin(), thread.tracks.end(), [&](uint32_t t) {
        return t < tracks.size() && tracks[t].kind == TrackKind::OsRuntime;
      });
      // A thread's scheduling states and samples show on a row of their own, first under it, as in
      // Nsight Systems. A thread with only OS-runtime calls still starts collapsed unless it kept a CPU
      // busy: the pools of workers that wait all run long stay out of the way.
      const ThreadActivityColumns* activity = host.thread(thread.globalTid);
      threadHeader.collapsed = onlyOsRuntime && !(activity && keptACpuBusy(*activity));
      int threadRow = add(std::move(threadHeader), trace, kinds);
      if (activity) {
        TimelineRow states;
        states.kind = RowKind::ThreadState;
        states.depth = 2;
        states.parent = threadRow;
        states.globalTid = thread.globalTid;
        states.label = activity->hasStates() ? QStringLiteral("Thread state") : QStringLiteral("CPU samples");
        add(std::move(states), trace, kinds);
      }
      for (uint32_t t : thread.tracks) addTrack(t, threadRow, 2);
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
    int deviceRow = add(std::move(header), trace, kinds);

    TimelineRow utilization;
    utilization.kind = RowKind::Utilization;
    utilization.depth = 1;
    utilization.parent = deviceRow;
    utilization.deviceIndex = static_cast<uint32_t>(d);
    utilization.label = QStringLiteral("Utilization");
    rowOfUtilization_[d] = add(std::move(utilization), trace, kinds);

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

void TimelineLayout::place() {
  shown_.clear();
  shownIndexOfRow_.assign(rows_.size(), -1);
  int top = 0;
  for (size_t i = 0; i < rows_.size(); ++i) {
    bool hidden = false;
    for (int p = rows_[i].parent; p >= 0; p = rows_[static_cast<size_t>(p)].parent) {
      if (rows_[static_cast<size_t>(p)].collapsed) {
        hidden = true;
        break;
      }
    }
    if (hidden) continue;
    shownIndexOfRow_[i] = static_cast<int>(shown_.size());
    shown_.push_back({static_cast<int>(i), top, rows_[i].height});
    top += rows_[i].height;
  }
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
  bool changed = false;
  for (int p = rows_[static_cast<size_t>(row)].parent; p >= 0; p = rows_[static_cast<size_t>(p)].parent) {
    if (rows_[static_cast<size_t>(p)].collapsed) {
      rows_[static_cast<size_t>(p)].collapsed = false;
      changed = true;
    }
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
