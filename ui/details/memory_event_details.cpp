#include "ui/details/memory_event_details.h"

#include <algorithm>
#include <cstdio>

#include "core/details/detail_text.h"
#include "core/metrics/memory_usage.h"
#include "core/model/global_id.h"
#include "core/schema/nsys_enums.h"
#include "core/text/units.h"

namespace gpuscope::ui {

std::optional<EventRef> apiCallOf(const Trace& trace, uint32_t pid, int64_t correlationId) {
  if (correlationId <= 0 || correlationId > UINT32_MAX) return std::nullopt;
  return trace.apiCallByCorrelation(pid, static_cast<uint32_t>(correlationId));
}

EventDetails describeMemoryEvent(const Trace& trace, uint32_t index, TimeBase base) {
  EventDetails details;
  const MemoryUsage& usage = memoryUsage(trace);
  if (index >= usage.events.size()) {
    details.title = "No such event";
    return details;
  }
  const MemoryUsageEvent& event = usage.events[index];
  const TimeNs origin = trace.timeOrigin(base);
  details.timeOrigin = origin;
  const uint32_t pid = global_id::pid(event.globalPid);
  std::string kind(nsys_enum::memoryKindLabel(event.memKind));
  if (kind.empty()) kind = "kind " + std::to_string(event.memKind);

  // The process's total on the GPU after this event, and, for a free the file gave no size for, the size it
  // freed, from the step it made.
  std::optional<int64_t> after;
  int64_t bytes = event.bytes;
  for (const ProcessMemory& process : usage.processes) {
    if (process.globalPid != event.globalPid || process.deviceId != event.deviceId) continue;
    auto step = std::find(process.event.begin(), process.event.end(), index);
    if (step == process.event.end()) break;
    auto k = static_cast<size_t>(step - process.event.begin());
    after = process.allocated[k];
    if (bytes == 0) bytes = std::abs(process.allocated[k] - (k == 0 ? 0 : process.allocated[k - 1]));
  }

  details.title = (event.free ? "Free of " : "Allocation of ") + formatBytes(bytes) + " (" + kind + ")";
  details.kind = "Device memory " + std::string(event.free ? "free" : "allocation");
  details.sections.push_back({"Time", {{"At", detail_text::time(event.time - origin), std::nullopt}}});
  char address[32];
  std::snprintf(address, sizeof address, "0x%llx", static_cast<unsigned long long>(event.address));
  DetailSection memory{
      "Memory",
      {{"Operation", event.free ? "Free" : "Allocation", std::nullopt},
       {"Size", formatBytes(bytes) + " (" + formatCount(static_cast<uint64_t>(bytes)) + " B)", std::nullopt},
       {"Memory kind", kind, std::nullopt},
       {"Address", address, std::nullopt},
       {"Device", "GPU " + std::to_string(event.deviceId), std::nullopt},
       {"Process", "pid " + std::to_string(pid), std::nullopt}}};
  if (after) {
    memory.fields.push_back({"Allocated after it", formatBytes(*after), std::nullopt});
  } else {
    memory.fields.push_back(
        {"Allocated after it", "not counted: " + kind + " memory is not device memory", std::nullopt});
  }
  details.sections.push_back(std::move(memory));
  DetailSection launch{"Launch", {}};
  if (event.correlationId > 0) {
    launch.fields.push_back({"Correlation ID", std::to_string(event.correlationId), std::nullopt});
    if (std::optional<EventRef> call = apiCallOf(trace, pid, event.correlationId)) {
      launch.fields.push_back({"CUDA API call", trace.name(*call), call});
      details.launchingCall = call;
    } else {
      launch.fields.push_back({"CUDA API call", "none in the trace with this correlation ID", std::nullopt});
    }
  } else {
    launch.fields.push_back({"CUDA API call", "the file does not say", std::nullopt});
  }
  details.sections.push_back(std::move(launch));
  return details;
}

}  // namespace gpuscope::ui
