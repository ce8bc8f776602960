#pragma once
// TraceSession: the one shared selection-and-zoom object; timeline, tables, details and charts observe it.
#include <QObject>
#include <QString>
#include <memory>
#include <optional>

#include "core/model/trace.h"

namespace gpuscope::ui {

// A CPU sample picked on a thread-state row: the row's thread and the index into HostActivity::samples().
struct SampleRef {
  int64_t globalTid = 0;
  uint32_t index = 0;
  bool operator==(const SampleRef&) const = default;
};

class TraceSession : public QObject {
  Q_OBJECT
 public:
  explicit TraceSession(QObject* parent = nullptr);
  ~TraceSession() override;

  void setTrace(std::shared_ptr<const Trace> trace);
  const std::shared_ptr<const Trace>& trace() const { return trace_; }
  bool hasTrace() const { return trace_ != nullptr; }

  // The selected event, if any. Selecting one (or none) drops a selected sample or memory event.
  const std::optional<EventRef>& selection() const { return selection_; }
  void select(std::optional<EventRef> event);
  // The selected CPU sample, if any: a selection of its own, never beside a selected event.
  const std::optional<SampleRef>& selectedSample() const { return selectedSample_; }
  void selectSample(std::optional<SampleRef> sample);
  // The selected device memory allocation or free, picked on a memory row: an index into
  // memoryUsage(trace).events (core/metrics/memory_usage.h); a selection of its own, as a sample is.
  const std::optional<uint32_t>& selectedMemoryEvent() const { return selectedMemoryEvent_; }
  void selectMemoryEvent(std::optional<uint32_t> event);
  // Whether an event, a sample or a memory event is selected (what the details pane shows).
  bool hasSelection() const { return selection_ || selectedSample_ || selectedMemoryEvent_; }

  // The visible time range [start, end), in trace-file nanoseconds.
  TimeNs viewStart() const { return viewStart_; }
  TimeNs viewEnd() const { return viewEnd_; }
  void setViewRange(TimeNs start, TimeNs end);
  // Zooms the view to an event with some margin around it, and selects it.
  void focusEvent(EventRef event);
  // Fits the whole trace.
  void fitAll();

  // What shown times count from (the ruler, tables, details, tooltips): the trace start unless chosen.
  TimeBase timeBase() const { return timeBase_; }
  void setTimeBase(TimeBase base);
  // The file time that shows as zero in the time base (0 without a trace).
  TimeNs timeOrigin() const { return trace_ ? trace_->timeOrigin(timeBase_) : 0; }

  // Asks the views that show tracks (the timeline) to bring track TRACK's row into view, without selecting
  // anything: a place that is a gap or a stretch of several events on that track.
  void revealTrack(uint32_t track) { emit trackRevealRequested(track); }

  // A time range picked on the ruler (empty when start == end).
  TimeNs rangeStart() const { return rangeStart_; }
  TimeNs rangeEnd() const { return rangeEnd_; }
  void setRange(TimeNs start, TimeNs end);

  // The function whose CPU samples the timeline's thread-state rows highlight, as functionLabel
  // (core/samples/function_shares.h) names it; empty for none. Picked in the CPU Samples tab.
  const QString& highlightedFunction() const { return highlightedFunction_; }
  void setHighlightedFunction(const QString& label);
  // The highlighted function of the session that shows TRACE, for painters that are given only the trace.
  static QString highlightedFunctionOf(const Trace* trace);

 signals:
  void traceChanged();
  void selectionChanged();
  void viewRangeChanged();
  void rangeChanged();
  void timeBaseChanged();
  void trackRevealRequested(uint32_t track);
  void highlightedFunctionChanged();

 private:
  std::shared_ptr<const Trace> trace_;
  std::optional<EventRef> selection_;
  std::optional<SampleRef> selectedSample_;
  std::optional<uint32_t> selectedMemoryEvent_;
  TimeNs viewStart_ = 0;
  TimeNs viewEnd_ = 1;
  TimeNs rangeStart_ = 0;
  TimeNs rangeEnd_ = 0;
  TimeBase timeBase_ = TimeBase::Trace;
  QString highlightedFunction_;
};

}  // namespace gpuscope::ui
