#include "core/details/sample_details.h"

#include <exception>
#include <string_view>

#include "core/db/sqlite_database.h"
#include "core/details/detail_sections.h"
#include "core/details/detail_text.h"
#include "core/model/global_id.h"
#include "core/samples/frame_names.h"
#include "core/samples/host_activity.h"
#include "core/schema/nsys_enums.h"
#include "core/schema/table_names.h"

namespace gpuscope {
namespace {

// The CPU the sample was taken on, where table::kCompositeEvents says: its row is the one of the sample's thread
// and time (CpuSamples keeps neither its id nor its CPU).
std::optional<int64_t> cpuOf(const Trace& trace, int64_t fileGlobalTid, TimeNs start) {
  const Database& db = trace.database();
  if (!db.hasTable(table::kCompositeEvents)) return std::nullopt;
  bool hasCpu = false;
  for (const auto& column : db.columnsOf(table::kCompositeEvents)) hasCpu = hasCpu || column == "cpu";
  if (!hasCpu) return std::nullopt;
  auto row = db.prepare("SELECT DISTINCT cpu FROM " + std::string(table::kCompositeEvents) +
                        " WHERE start = ?1 AND globalTid = ?2 LIMIT 2");
  row.bind(1, int64_t{start});
  row.bind(2, fileGlobalTid);
  std::optional<int64_t> cpu;
  int rows = 0;
  while (row.step()) {
    ++rows;
    if (!row.isNull(0) && row.isInteger(0)) cpu = row.int64(0);
  }
  return rows == 1 ? cpu : std::nullopt;  // two samples of one thread at one time that disagree: not known
}

std::string threadStateLabel(uint8_t state) {
  std::string_view label = nsys_enum::labelOf(nsys_enum::kSamplingThreadStateRows, state);
  return label.empty() ? "state " + std::to_string(state) : std::string(label);
}

}  // namespace

std::string backtraceLine(const CpuSamples& samples, const SampleFrame& frame) {
  return backtraceLine(samples.name(frame.symbol), samples.name(frame.module), frame.flags);
}

bool isValidSample(const Trace& trace, int64_t globalTid, uint32_t sampleIndex) {
  const HostActivity& activity = hostActivity(trace);
  if (sampleIndex >= activity.samples().size()) return false;
  const ThreadActivityColumns* thread = activity.thread(globalTid);
  return thread != nullptr && thread == activity.thread(activity.samples().globalTid[sampleIndex]);
}

EventDetails describeSample(const Trace& trace, int64_t globalTid, uint32_t sampleIndex, TimeBase base) {
  EventDetails details;
  details.kind = "CPU sample";
  details.timeOrigin = trace.timeOrigin(base);
  if (!isValidSample(trace, globalTid, sampleIndex)) {
    details.title = "No such sample";
    return details;
  }
  const CpuSamples& samples = hostActivity(trace).samples();
  const auto stack = samples.stackOf(sampleIndex);
  const TimeNs start = samples.start[sampleIndex];
  const int64_t fileGlobalTid = samples.globalTid[sampleIndex];
  details.title = leafWithPythonCaller(samples, stack);

  // The thread as the trace names it: the timeline's spelling of its globalTid, else the sampling table's.
  const int64_t named = detail_text::findThread(trace, globalTid) ? globalTid : fileGlobalTid;
  DetailSection sample{"CPU sample", {}};
  detail_sections::add(sample, "Time", detail_text::time(start - details.timeOrigin));
  detail_sections::addCountedFrom(sample, trace, details.timeOrigin);
  detail_sections::add(sample, "Thread", detail_text::thread(trace, named));
  detail_sections::add(sample, "Process", detail_text::process(trace, global_id::pid(named)));
  detail_sections::add(sample, "Thread state", threadStateLabel(samples.threadState[sampleIndex]));
  try {
    if (auto cpu = cpuOf(trace, fileGlobalTid, start)) detail_sections::add(sample, "CPU", detail_text::number(*cpu));
  } catch (const std::exception& error) {
    details.sections.push_back({"Problem", {{"Reading the file", error.what(), std::nullopt}}});
  }
  detail_sections::add(sample, "Stack depth", detail_text::number(static_cast<int64_t>(stack.size())));
  details.sections.insert(details.sections.begin(), std::move(sample));

  DetailSection backtrace{"Backtrace", {}};
  for (size_t depth = 0; depth < stack.size(); ++depth)
    detail_sections::add(backtrace, "#" + std::to_string(depth), backtraceLine(samples, stack[depth]));
  if (stack.empty()) detail_sections::add(backtrace, "#0", std::string("[no call stack]"));
  details.sections.insert(details.sections.begin() + 1, std::move(backtrace));
  return details;
}

}  // namespace gpuscope
