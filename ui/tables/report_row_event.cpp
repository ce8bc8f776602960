#include "ui/tables/report_row_event.h"

#include <algorithm>
#include <functional>
#include <string_view>
#include <variant>
#include <vector>

#include "core/analysis/verdict/judged_window.h"
#include "core/query/event_find.h"
#include "core/stats/stats_common.h"

namespace gpuscope::ui {
namespace {

using TrackFilter = std::function<bool(const Track&)>;
using EventFilter = std::function<bool(EventRef)>;

// The cells of one report row, by column title.
class RowCells {
 public:
  RowCells(const ReportTable& report, size_t row) : report_(report), cells_(report.rows[row]) {}

  const ReportCell* cell(std::string_view title) const {
    for (size_t column = 0; column < report_.columns.size() && column < cells_.size(); ++column)
      if (report_.columns[column].title == title) return &cells_[column];
    return nullptr;
  }
  std::optional<int64_t> integer(std::string_view title) const {
    const ReportCell* found = cell(title);
    const auto* value = found ? std::get_if<int64_t>(found) : nullptr;
    return value ? std::optional<int64_t>(*value) : std::nullopt;
  }
  // The cell's text; empty for a missing or empty cell.
  std::string text(std::string_view title) const {
    const ReportCell* found = cell(title);
    const auto* value = found ? std::get_if<std::string>(found) : nullptr;
    return value ? *value : std::string();
  }

 private:
  const ReportTable& report_;
  const std::vector<ReportCell>& cells_;
};

// The first event, on a track INCLUDE takes, that starts exactly at START and that ACCEPT takes.
std::optional<EventRef> eventStartingAt(const Trace& trace, const TrackFilter& include, TimeNs start,
                                        const EventFilter& accept) {
  const auto& tracks = trace.tracks();
  for (uint32_t t = 0; t < tracks.size(); ++t) {
    if (!include(tracks[t])) continue;
    for (uint32_t l = 0; l < tracks[t].lanes.size(); ++l) {
      const Lane& lane = tracks[t].lanes[l];
      auto it = std::lower_bound(lane.start.begin(), lane.start.end(), start);
      for (; it != lane.start.end() && *it == start; ++it) {
        EventRef event{t, l, static_cast<uint32_t>(it - lane.start.begin())};
        if (accept(event)) return event;
      }
    }
  }
  return std::nullopt;
}

// Accepts the events whose correlation id is CORRELATION (every event when the row has none).
EventFilter withCorrelation(const Trace& trace, std::optional<int64_t> correlation) {
  return [&trace, correlation](EventRef event) {
    const Lane& lane = trace.lane(event);
    return !correlation || (event.index < lane.correlation.size() && lane.correlation[event.index] == *correlation);
  };
}

// Takes the tracks of KIND on the row's process and thread (each when the row names it).
TrackFilter cpuTracksOf(TrackKind kind, std::optional<int64_t> pid, std::optional<int64_t> tid) {
  return [kind, pid, tid](const Track& track) {
    return track.kind == kind && (!pid || track.pid == *pid) && (!tid || track.tid == *tid);
  };
}

// cuda_gpu_trace: a kernel, copy or memset, by its start and correlation id.
std::optional<EventRef> gpuTraceEvent(const Trace& trace, const RowCells& row) {
  std::optional<int64_t> start = row.integer("Start (ns)");
  if (!start) return std::nullopt;
  return eventStartingAt(
      trace, [](const Track& track) { return track.isGpu(); }, *start, withCorrelation(trace, row.integer("CorrId")));
}

// cuda_api_trace: an API call, by its thread, start and correlation id.
std::optional<EventRef> apiTraceEvent(const Trace& trace, const RowCells& row) {
  std::optional<int64_t> start = row.integer("Start (ns)");
  if (!start) return std::nullopt;
  return eventStartingAt(trace, cpuTracksOf(TrackKind::CudaApi, row.integer("Pid"), row.integer("Tid")), *start,
                         withCorrelation(trace, row.integer("CorrID")));
}

// cuda_kern_exec_trace: the kernel a launch started, through the launching call (the row has no correlation id).
std::optional<EventRef> kernelExecEvent(const Trace& trace, const RowCells& row) {
  std::optional<int64_t> apiStart = row.integer("API Start (ns)");
  std::optional<int64_t> kernelStart = row.integer("Kernel Start (ns)");
  if (!apiStart || !kernelStart) return std::nullopt;
  std::optional<EventRef> kernel;
  eventStartingAt(trace, cpuTracksOf(TrackKind::CudaApi, row.integer("PID"), row.integer("TID")), *apiStart,
                  [&](EventRef call) {
                    for (const EventRef& work : trace.launchedWork(call))
                      if (trace.start(work) == *kernelStart) kernel = work;
                    return kernel.has_value();
                  });
  return kernel;
}

// The earliest event named NAME: kernels by their demangled name too, API calls as the reports spell them.
std::optional<EventRef> firstNamed(const Trace& trace, const std::string& name) {
  std::vector<bool> matching(trace.stringCount());
  for (StringId id = 0; id < matching.size(); ++id)
    matching[id] = trace.string(id) == name || displayApiName(trace.string(id)) == name;
  FindResult found = findEvents(trace.tracks(), matching);
  return found.empty() ? std::nullopt : std::optional<EventRef>(found[0]);
}

// Whether an NVTX track is of DOMAIN, as the reports name domains (empty: the default domain).
bool trackOfDomain(const Track& track, const std::string& domain) {
  if (track.kind != TrackKind::Nvtx) return false;
  if (domain.empty()) return track.nvtxDomain == 0;
  return track.label == "NVTX (" + domain + ")";
}

}  // namespace

std::optional<EventRef> firstNvtxRange(const Trace& trace, const std::string& range) {
  size_t colon = range.find(':');
  std::string domain = colon == std::string::npos ? std::string() : range.substr(0, colon);
  std::string name = colon == std::string::npos ? range : range.substr(colon + 1);
  std::vector<bool> matching(trace.stringCount());
  // A name with its numbers read as one ("step N", the NVTX projection table's groups) stands for each of its ranges.
  for (StringId id = 0; id < matching.size(); ++id)
    matching[id] = trace.string(id) == name || stepGroupName(trace.string(id)) == name;
  // Matches come in start order, so the first on a track of the range's domain is the earliest instance.
  FindResult found = findEvents(trace.tracks(), matching);
  for (const EventRef& event : found.matches()) {
    if (trackOfDomain(trace.track(event.track), domain)) return event;
  }
  return std::nullopt;
}

std::optional<EventRef> eventOfReportRow(const Trace& trace, const ReportTable& report, size_t row) {
  if (row >= report.rows.size()) return std::nullopt;
  const RowCells cells(report, row);
  if (report.name == "cuda_gpu_trace") return gpuTraceEvent(trace, cells);
  if (report.name == "cuda_api_trace") return apiTraceEvent(trace, cells);
  if (report.name == "cuda_kern_exec_trace") return kernelExecEvent(trace, cells);
  // Summaries: the group's earliest instance. nvtx_kern_sum's kernels outside every range have no range.
  if (std::string range = cells.text("Range"); !range.empty()) return firstNvtxRange(trace, range);
  if (std::string range = cells.text("NVTX Range"); !range.empty()) return firstNvtxRange(trace, range);
  for (const char* column : {"Kernel Name", "Operation", "Name"})
    if (std::string name = cells.text(column); !name.empty()) return firstNamed(trace, name);
  return std::nullopt;
}

std::optional<size_t> reportRowOfEvent(const Trace& trace, const ReportTable& report, EventRef event) {
  std::string_view startTitle = report.name == "cuda_kern_exec_trace" ? "Kernel Start (ns)"
                                : report.name == "cuda_gpu_trace" || report.name == "cuda_api_trace" ? "Start (ns)"
                                                                                                     : "";
  size_t column = 0;
  while (column < report.columns.size() && report.columns[column].title != startTitle) ++column;
  if (startTitle.empty() || column == report.columns.size()) return std::nullopt;
  // Rows are matched by start first (a compare of one cell), then through eventOfReportRow, so that both
  // directions agree on which event a row is.
  int64_t start = trace.start(event);
  for (size_t row = 0; row < report.rows.size(); ++row) {
    const auto* cell = column < report.rows[row].size() ? std::get_if<int64_t>(&report.rows[row][column]) : nullptr;
    if (cell && *cell == start && eventOfReportRow(trace, report, row) == event) return row;
  }
  return std::nullopt;
}

}  // namespace gpuscope::ui
