#include "core/details/event_details.h"

#include <exception>

#include "core/db/sqlite_database.h"
#include "core/details/detail_sections.h"
#include "core/details/detail_text.h"
#include "core/details/source_row.h"
#include "core/model/trace_summary.h"
#include "core/schema/table_names.h"

namespace gpuscope {

const DetailField* EventDetails::field(std::string_view label, std::string_view section) const {
  for (const auto& s : sections) {
    if (!section.empty() && s.title != section) continue;
    for (const auto& f : s.fields) {
      if (f.label == label) return &f;
    }
  }
  return nullptr;
}

bool isValidEvent(const Trace& trace, EventRef event) {
  if (event.track >= trace.tracks().size()) return false;
  const auto& lanes = trace.track(event.track).lanes;
  return event.lane < lanes.size() && event.index < lanes[event.lane].size();
}

namespace detail_sections {

void add(DetailSection& section, std::string label, std::optional<std::string> value, std::optional<EventRef> link) {
  if (!value) return;
  section.fields.push_back({std::move(label), std::move(*value), link});
}

void addSection(EventDetails& details, DetailSection section) {
  if (!section.fields.empty()) details.sections.push_back(std::move(section));
}

std::optional<std::string> numberOf(const SourceRow& row, std::string_view column) {
  auto value = row.integer(column);
  return value ? std::optional<std::string>(detail_text::number(*value)) : std::nullopt;
}

namespace {

// Whether TRACE's clock counts from a recording session's start, as nsys's and gpuscope's files do. A PyTorch
// profiler trace's counts from the profiler's own zero (near the machine's boot), so its "session time" would
// be a meaningless number of seconds (5053389.334 s on an H200).
struct SessionClock {
  bool known = true;
};

const SessionClock& sessionClockOf(const Trace& trace) {
  return trace.memo<SessionClock>([&trace] {
    SessionClock clock;
    try {
      if (!trace.hasDatabase() || !trace.database().hasTable(table::kGpuscopeMeta)) return clock;
      auto query = trace.database().prepare("SELECT value FROM " + std::string(table::kGpuscopeMeta) +
                                            " WHERE name = 'source_format'");
      clock.known = !(query.step() && query.text(0) == "kineto");
    } catch (const std::exception&) {
      // a damaged meta table: keep the usual wording
    }
    return clock;
  });
}

}  // namespace

void addCountedFrom(DetailSection& section, const Trace& trace, TimeNs origin) {
  if (origin == 0) return;
  if (!sessionClockOf(trace).known) {
    add(section, "Counted from", "the trace start (its first event; a PyTorch profiler trace has no session start)");
    return;
  }
  add(section, "Counted from", "the trace start (session time " + formatDuration(origin) + ")");
}

DetailSection timeSection(const Trace& trace, EventRef event, TimeNs origin) {
  DetailSection section{"Time", {}};
  TimeNs start = trace.start(event);
  TimeNs end = trace.end(event);
  add(section, "Start", detail_text::time(start - origin));
  add(section, "End", detail_text::time(end - origin));
  addCountedFrom(section, trace, origin);
  add(section, "Duration", detail_text::duration(end - start));
  return section;
}

}  // namespace detail_sections

EventDetails describeEvent(const Trace& trace, EventRef event, TimeBase base) {
  EventDetails details;
  details.timeOrigin = trace.timeOrigin(base);
  if (!isValidEvent(trace, event)) {
    details.title = "No such event";
    return details;
  }
  details.title = trace.name(event);
  try {
    switch (trace.track(event.track).kind) {
      case TrackKind::GpuKernels:
        detail_sections::describeKernel(trace, event, details);
        break;
      case TrackKind::GpuMemory:
        detail_sections::describeMemory(trace, event, details);
        break;
      case TrackKind::CudaApi:
        detail_sections::describeApiCall(trace, event, details);
        break;
      case TrackKind::Nvtx:
        detail_sections::describeNvtx(trace, event, details);
        break;
      case TrackKind::OsRuntime:
        detail_sections::describeOsRuntime(trace, event, details);
        break;
    }
  } catch (const std::exception& error) {
    // A damaged file: say so beside whatever was already described.
    details.sections.push_back({"Problem", {{"Reading the file", error.what(), std::nullopt}}});
  }
  return details;
}

}  // namespace gpuscope
