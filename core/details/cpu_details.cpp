// describeEvent for CPU events: CUDA API calls, NVTX ranges and marks, OS runtime calls.
#include "core/db/sqlite_database.h"
#include "core/details/detail_sections.h"
#include "core/details/detail_text.h"
#include "core/details/source_row.h"
#include "core/samples/callchains.h"
#include "core/samples/frame_names.h"
#include "core/schema/trace_schema.h"

namespace gpuscope::detail_sections {
namespace {

using OptText = std::optional<std::string>;

constexpr size_t kMaxListedWork = 32;

OptText eventClass(const Database& db, const SourceRow& row) {
  auto id = row.integer("eventClass");
  if (!id) return std::nullopt;
  if (*id == nsys_enum::kEventClassCudaRuntime) return "CUDA runtime API";
  if (*id == nsys_enum::kEventClassCudaDriver) return "CUDA driver API";
  if (*id == nsys_enum::kEventClassOsRuntime) return "OS runtime";
  auto label = lookupEnumLabel(db, table::kEnumEventClass, *id);
  return label ? label : "class " + std::to_string(*id);
}

// One field per piece of GPU work the call launched, each a link to it.
DetailSection launchedWorkSection(const Trace& trace, EventRef call, EventDetails& details) {
  DetailSection section{"GPU work", {}};
  details.launchedWork = trace.launchedWork(call);
  for (size_t i = 0; i < details.launchedWork.size() && i < kMaxListedWork; ++i) {
    EventRef work = details.launchedWork[i];
    std::string kind(trackKindName(trace.track(work.track).kind));
    TimeNs latency = trace.start(work) - trace.end(call);
    std::string queued = latency >= 0 ? ", queued " + detail_text::duration(latency) : std::string();
    add(section, kind == "Kernels" ? "Kernel" : kind,
        trace.name(work) + " (" + detail_text::duration(trace.end(work) - trace.start(work)) + queued + ")", work);
  }
  if (details.launchedWork.size() > kMaxListedWork)
    add(section, "More", std::to_string(details.launchedWork.size() - kMaxListedWork) + " more");
  return section;
}

std::string nvtxTypeName(const Database& db, int64_t type) {
  if (type == nsys_enum::kNvtxPushPopRange) return "Push/pop range";
  if (type == nsys_enum::kNvtxStartEndRange) return "Start/end range";
  if (type == nsys_enum::kNvtxMark) return "Mark";
  auto label = lookupEnumLabel(db, table::kEnumEventType, type);
  return label ? *label : "type " + std::to_string(type);
}

// The one payload member an NVTX event carries, if any, with its type.
OptText nvtxPayload(const Database& db, const SourceRow& row) {
  for (auto column : {"uint64Value", "int64Value", "uint32Value", "int32Value"}) {
    if (auto value = row.integer(column)) return std::to_string(*value) + " (" + column + ")";
  }
  for (auto column : {"doubleValue", "floatValue"}) {
    if (auto value = row.real(column)) return std::to_string(*value) + " (" + column + ")";
  }
  if (auto json = row.text("jsonText")) return *json;
  if (auto id = row.integer("jsonTextId")) return lookupString(db, *id);
  return std::nullopt;
}

std::string nvtxDomain(const Track& track) {
  if (track.nvtxDomain == 0) return "default";
  const std::string prefix = "NVTX (";
  const std::string& label = track.label;
  if (label.size() > prefix.size() + 1 && label.compare(0, prefix.size(), prefix) == 0)
    return label.substr(prefix.size(), label.size() - prefix.size() - 1);
  return "domain " + std::to_string(track.nvtxDomain);
}

// The call's backtrace, leaf first, when the recording took one (nsys: calls past
// --osrt-backtrace-threshold; gpuscope's recorder likewise).
DetailSection backtraceSection(const Database& db, const SourceRow& row) {
  DetailSection section{"Backtrace", {}};
  auto id = row.integer("callchainId");
  if (!id) return section;
  auto frames = readCallchain(db, table::kOsrtCallchains, *id);
  for (size_t depth = 0; depth < frames.size(); ++depth)
    add(section, "#" + std::to_string(depth),
        backtraceLine(frames[depth].symbol, frames[depth].module, frames[depth].flags));
  return section;
}

}  // namespace

void describeApiCall(const Trace& trace, EventRef event, EventDetails& details) {
  const Database& db = trace.database();
  const Track& track = trace.track(event.track);
  SourceRow row(db, table::kRuntime, trace.lane(event).row[event.index],
                {"eventClass", "returnValue", "correlationId"});
  details.kind = "CUDA API call";
  DetailSection call{"CUDA API call", {}};
  add(call, "Name", trace.name(event));
  add(call, "API", eventClass(db, row));
  add(call, "Return value", numberOf(row, "returnValue"));
  add(call, "Correlation ID", numberOf(row, "correlationId"));
  add(call, "Thread", detail_text::thread(trace, track.globalTid));
  add(call, "Process", detail_text::process(trace, track.pid));
  addSection(details, std::move(call));
  addSection(details, timeSection(trace, event, details.timeOrigin));
  addSection(details, launchedWorkSection(trace, event, details));
}

void describeNvtx(const Trace& trace, EventRef event, EventDetails& details) {
  const Database& db = trace.database();
  const Track& track = trace.track(event.track);
  SourceRow row(db, table::kNvtx, trace.lane(event).row[event.index],
                {"eventType", "rangeId", "category", "color", "text", "textId", "uint64Value", "int64Value",
                 "doubleValue", "uint32Value", "int32Value", "floatValue", "jsonText", "jsonTextId", "endGlobalTid"});
  int64_t type = row.integer("eventType").value_or(nsys_enum::kNvtxPushPopRange);
  details.kind = type == nsys_enum::kNvtxMark ? "NVTX mark" : "NVTX range";
  DetailSection nvtx{"NVTX", {}};
  add(nvtx, "Text", trace.name(event));
  add(nvtx, "Type", nvtxTypeName(db, type));
  add(nvtx, "Domain", nvtxDomain(track));
  add(nvtx, "Category", numberOf(row, "category"));
  if (auto colour = row.integer("color")) add(nvtx, "Colour", detail_text::argbColour(static_cast<uint32_t>(*colour)));
  add(nvtx, "Payload", nvtxPayload(db, row));
  add(nvtx, "Range ID", numberOf(row, "rangeId"));
  add(nvtx, "Thread", detail_text::thread(trace, track.globalTid));
  auto endThread = row.integer("endGlobalTid");
  if (endThread && *endThread != track.globalTid) add(nvtx, "Ended on thread", detail_text::thread(trace, *endThread));
  addSection(details, std::move(nvtx));
  addSection(details, timeSection(trace, event, details.timeOrigin));
}

void describeOsRuntime(const Trace& trace, EventRef event, EventDetails& details) {
  const Database& db = trace.database();
  const Track& track = trace.track(event.track);
  SourceRow row(db, table::kOsrt, trace.lane(event).row[event.index],
                {"eventClass", "returnValue", "nestingLevel", "callchainId"});
  details.kind = "OS runtime call";
  DetailSection call{"OS runtime call", {}};
  add(call, "Name", trace.name(event));
  add(call, "Return value", numberOf(row, "returnValue"));
  add(call, "Nesting level", numberOf(row, "nestingLevel"));
  add(call, "Thread", detail_text::thread(trace, track.globalTid));
  add(call, "Process", detail_text::process(trace, track.pid));
  addSection(details, std::move(call));
  addSection(details, timeSection(trace, event, details.timeOrigin));
  addSection(details, backtraceSection(db, row));
}

}  // namespace gpuscope::detail_sections
