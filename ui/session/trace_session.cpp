#include "ui/session/trace_session.h"

#include <QHash>
#include <algorithm>

namespace gpuscope::ui {
namespace {

// Each shown trace's highlighted function, by trace (GUI thread only).
QHash<const Trace*, QString>& highlightsByTrace() {
  static QHash<const Trace*, QString> highlights;
  return highlights;
}

}  // namespace

TraceSession::TraceSession(QObject* parent) : QObject(parent) {}

TraceSession::~TraceSession() {
  if (trace_ && !highlightedFunction_.isEmpty()) highlightsByTrace().remove(trace_.get());
}

void TraceSession::setTrace(std::shared_ptr<const Trace> trace) {
  if (trace_ && !highlightedFunction_.isEmpty()) highlightsByTrace().remove(trace_.get());
  bool hadHighlight = !highlightedFunction_.isEmpty();
  highlightedFunction_.clear();
  trace_ = std::move(trace);
  selection_.reset();
  selectedSample_.reset();
  selectedMemoryEvent_.reset();
  rangeStart_ = rangeEnd_ = 0;
  if (trace_) {
    viewStart_ = trace_->startTime();
    viewEnd_ = std::max(trace_->endTime(), trace_->startTime() + 1);
  }
  emit traceChanged();
  emit selectionChanged();
  emit viewRangeChanged();
  emit rangeChanged();
  if (hadHighlight) emit highlightedFunctionChanged();
}

void TraceSession::select(std::optional<EventRef> event) {
  if (event == selection_ && !selectedSample_ && !selectedMemoryEvent_) return;
  selection_ = event;
  selectedSample_.reset();
  selectedMemoryEvent_.reset();
  emit selectionChanged();
}

void TraceSession::selectSample(std::optional<SampleRef> sample) {
  if (sample == selectedSample_ && !selection_ && !selectedMemoryEvent_) return;
  selectedSample_ = sample;
  selection_.reset();
  selectedMemoryEvent_.reset();
  emit selectionChanged();
}

void TraceSession::selectMemoryEvent(std::optional<uint32_t> event) {
  if (event == selectedMemoryEvent_ && !selection_ && !selectedSample_) return;
  selectedMemoryEvent_ = event;
  selection_.reset();
  selectedSample_.reset();
  emit selectionChanged();
}

void TraceSession::setViewRange(TimeNs start, TimeNs end) {
  // The view is never empty: the narrowest zoom shows 10 ns.
  constexpr TimeNs kMinimumSpan = 10;
  if (end - start < kMinimumSpan) {
    TimeNs middle = start + (end - start) / 2;
    start = middle - kMinimumSpan / 2;
    end = start + kMinimumSpan;
  }
  if (start == viewStart_ && end == viewEnd_) return;
  viewStart_ = start;
  viewEnd_ = end;
  emit viewRangeChanged();
}

void TraceSession::setTimeBase(TimeBase base) {
  if (base == timeBase_) return;
  timeBase_ = base;
  emit timeBaseChanged();
}

void TraceSession::focusEvent(EventRef event) {
  if (!trace_) return;
  TimeNs start = trace_->start(event);
  TimeNs end = trace_->end(event);
  TimeNs margin = std::max<TimeNs>((end - start) / 4, 100);
  setViewRange(start - margin, end + margin);
  select(event);
}

void TraceSession::fitAll() {
  if (!trace_) return;
  setViewRange(trace_->startTime(), std::max(trace_->endTime(), trace_->startTime() + 1));
}

void TraceSession::setRange(TimeNs start, TimeNs end) {
  if (end < start) std::swap(start, end);
  if (start == rangeStart_ && end == rangeEnd_) return;
  rangeStart_ = start;
  rangeEnd_ = end;
  emit rangeChanged();
}

void TraceSession::setHighlightedFunction(const QString& label) {
  if (label == highlightedFunction_) return;
  highlightedFunction_ = label;
  if (trace_) {
    if (label.isEmpty()) {
      highlightsByTrace().remove(trace_.get());
    } else {
      highlightsByTrace().insert(trace_.get(), label);
    }
  }
  emit highlightedFunctionChanged();
}

QString TraceSession::highlightedFunctionOf(const Trace* trace) { return highlightsByTrace().value(trace); }

}  // namespace gpuscope::ui
