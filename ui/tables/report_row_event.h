#pragma once
// Which event a row of a stats report stands for. A row of a trace report (cuda_gpu_trace, cuda_api_trace,
// cuda_kern_exec_trace) is one event, found by its start and correlation id (or launching call), never by its
// name: one kernel name may have thousands of instances. A row of a summary names a group (a kernel, an API
// function, an NVTX range) and stands for the group's earliest instance.
#include <optional>
#include <string>

#include "core/model/trace.h"
#include "core/report/report_table.h"

namespace gpuscope::ui {

// The event row ROW of REPORT (as core's runStatsReport made it, session-time cells) stands for in TRACE;
// nothing when the row names none the trace holds.
std::optional<EventRef> eventOfReportRow(const Trace& trace, const ReportTable& report, size_t row);

// The row of trace report REPORT (cuda_gpu_trace, cuda_api_trace, cuda_kern_exec_trace) that stands for EVENT,
// the inverse of eventOfReportRow; nothing for a summary, whose rows are groups, or an event it does not hold.
std::optional<size_t> reportRowOfEvent(const Trace& trace, const ReportTable& report, EventRef event);

// The earliest instance of the NVTX range the reports call RANGE ("domain:name"; ":name" in the default domain), or
// of any range whose name with its numbers read as one (stepGroupName) is that name ("step N").
std::optional<EventRef> firstNvtxRange(const Trace& trace, const std::string& range);

}  // namespace gpuscope::ui
