#include "core/details/detail_text.h"

#include <cstdio>

#include "core/model/global_id.h"
#include "core/model/trace_summary.h"

namespace gpuscope::detail_text {
namespace {

std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

}  // namespace

std::string time(TimeNs ns) { return formatDuration(ns) + " (" + std::to_string(ns) + " ns)"; }

std::string duration(TimeNs ns) { return formatDuration(ns); }

std::string queueLatency(TimeNs workStart, TimeNs callEnd) {
  TimeNs latency = workStart - callEnd;
  if (latency >= 0) return formatDuration(latency);
  return "none (started " + formatDuration(-latency) + " before the call returned)";
}

std::string bytes(int64_t value) {
  if (value > -1024 && value < 1024) return std::to_string(value) + " B";
  return std::to_string(value) + " B (" + formatBytes(value) + ")";
}

std::string throughput(int64_t bytes, TimeNs duration) {
  if (duration <= 0) return {};
  // Bytes per nanosecond are decimal gigabytes per second.
  return fixed(static_cast<double>(bytes) / static_cast<double>(duration), 2) + " GB/s";
}

std::string number(int64_t value) { return std::to_string(value); }

std::string percent(double value) { return fixed(value, 1) + " %"; }

std::string argbColour(uint32_t argb) {
  char buffer[16];
  if ((argb >> 24) == 0xFF)
    std::snprintf(buffer, sizeof buffer, "#%06X", argb & 0xFFFFFFu);
  else
    std::snprintf(buffer, sizeof buffer, "#%08X", argb);
  return buffer;
}

const ProcessInfo* findProcess(const Trace& trace, uint32_t pid) {
  for (const auto& process : trace.processes()) {
    if (process.pid == pid) return &process;
  }
  return nullptr;
}

const ThreadInfo* findThread(const Trace& trace, int64_t globalTid) {
  int64_t globalPid = global_id::processOf(globalTid);
  for (const auto& process : trace.processes()) {
    if (process.globalPid != globalPid) continue;
    for (const auto& thread : process.threads) {
      if (thread.globalTid == globalTid) return &thread;
    }
  }
  return nullptr;
}

std::string thread(const Trace& trace, int64_t globalTid) {
  std::string tid = "tid " + std::to_string(global_id::tid(globalTid));
  const ThreadInfo* info = findThread(trace, globalTid);
  return info && !info->name.empty() ? info->name + " (" + tid + ")" : tid;
}

std::string process(const Trace& trace, uint32_t pid) {
  std::string text = "pid " + std::to_string(pid);
  const ProcessInfo* info = findProcess(trace, pid);
  return info && !info->name.empty() ? info->name + " (" + text + ")" : text;
}

std::string device(const Trace& trace, uint32_t id) {
  std::string text = "device " + std::to_string(id);
  const DeviceInfo* info = trace.device(id);
  return info && !info->name.empty() ? info->name + " (" + text + ")" : text;
}

}  // namespace gpuscope::detail_text
