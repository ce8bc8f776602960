#include "ui/samples/sample_scope.h"

#include <QObject>

#include "ui/text.h"

namespace gpuscope::ui {
namespace {

QString threadText(const Trace& trace, const Track& track) {
  for (const ProcessInfo& process : trace.processes()) {
    for (const ThreadInfo& thread : process.threads) {
      if (thread.globalTid == track.globalTid && !thread.name.empty())
        return QObject::tr("thread %1 (pid %2, tid %3)")
            .arg(QString::fromStdString(thread.name))
            .arg(track.pid)
            .arg(track.tid);
    }
  }
  return QObject::tr("thread pid %1, tid %2").arg(track.pid).arg(track.tid);
}

QString timeText(TimeInterval window, TimeNs origin) {
  return QObject::tr("%1 to %2 (%3)")
      .arg(durationText(window.start - origin), durationText(window.end - origin), durationText(window.length()));
}

}  // namespace

SampleScope sampleScope(const Trace& trace, TimeInterval range, const std::optional<EventRef>& selection,
                        TimeNs origin) {
  SampleScope scope;
  QString who = QObject::tr("every thread");
  std::optional<TimeInterval> window;
  if (!range.empty()) window = range;
  if (selection && selection->track < trace.tracks().size()) {
    const Track& track = trace.track(selection->track);
    if (!track.isGpu()) {
      scope.filter.pid = track.pid;
      scope.filter.tid = track.tid;
      who = threadText(trace, track);
    }
    if (!window)
      window = TimeInterval{trace.start(*selection), std::max(trace.end(*selection), trace.start(*selection) + 1)};
  }
  if (window) scope.filter.windows.push_back(*window);
  scope.description =
      window ? QObject::tr("%1, %2").arg(who, timeText(*window, origin)) : QObject::tr("%1, the whole run").arg(who);
  return scope;
}

}  // namespace gpuscope::ui
