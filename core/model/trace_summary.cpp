#include "core/model/trace_summary.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/model/time_math.h"
#include "core/report/report_format.h"

namespace gpuscope {
namespace {

std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

std::string processTitle(const ProcessInfo& p) {
  return (p.name.empty() ? std::string("process") : p.name) + " (pid " + std::to_string(p.pid) + ")";
}

std::string threadTitle(const ThreadInfo& t) {
  return (t.name.empty() ? std::string("thread") : t.name) + " (tid " + std::to_string(t.tid) + ")";
}

}  // namespace

std::string formatDuration(TimeNs ns) {
  double magnitude = ns < 0 ? -static_cast<double>(ns) : static_cast<double>(ns);
  if (magnitude < 1e3) return std::to_string(ns) + " ns";
  if (magnitude < 1e6) return fixed(static_cast<double>(ns) / 1e3, 3) + " us";
  if (magnitude < 1e9) return fixed(static_cast<double>(ns) / 1e6, 3) + " ms";
  return fixed(static_cast<double>(ns) / 1e9, 3) + " s";
}

std::string formatBytes(int64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024.0 && unit < 4) {
    value /= 1024.0;
    ++unit;
  }
  return unit == 0 ? std::to_string(bytes) + " B" : fixed(value, 2) + " " + units[unit];
}

std::string formatSummaryText(const Trace& trace) {
  std::ostringstream out;
  const auto& c = trace.counts();
  out << "File:      " << trace.path() << "\n";
  out << "Time span: " << formatDuration(spanNs(trace.startTime(), trace.endTime())) << " (" << trace.startTime()
      << " ns to " << trace.endTime() << " ns)\n";
  out << "Events:    " << c.total() << " (kernels " << c.kernels << ", memcpy " << c.memcpys << ", memset "
      << c.memsets << ", CUDA API " << c.cudaApi << ", NVTX " << c.nvtx << ", OS runtime " << c.osrt
      << ", synchronization " << c.syncs << ")\n";
  out << "Processes: " << trace.processes().size() << "\n";
  for (const auto& process : trace.processes()) {
    out << "  " << processTitle(process) << ", " << process.threads.size() << " threads\n";
    for (const auto& thread : process.threads) {
      size_t events = 0;
      for (auto t : thread.tracks) events += trace.track(t).eventCount();
      out << "    " << threadTitle(thread) << ": " << events << " events\n";
    }
  }
  out << "Devices:   " << trace.devices().size() << "\n";
  for (const auto& device : trace.devices()) {
    out << "  [" << device.id << "] " << device.name << ": " << device.smCount << " SMs, "
        << formatBytes(device.totalMemory) << ", compute capability " << device.computeMajor << "."
        << device.computeMinor << "\n";
    for (const auto& stream : device.streams) {
      size_t events = 0;
      for (auto t : stream.tracks) events += trace.track(t).eventCount();
      out << "    stream " << stream.streamId << " (pid " << stream.pid << ", context " << stream.contextId
          << "): " << events << " events\n";
    }
  }
  return out.str();
}

std::string formatSummaryJson(const Trace& trace) {
  using nlohmann::json;
  const auto& c = trace.counts();
  json root = {{"file", trace.path()},
               {"start_ns", trace.startTime()},
               {"end_ns", trace.endTime()},
               {"duration_ns", trace.endTime() - trace.startTime()},
               {"counts",
                {{"kernels", c.kernels},
                 {"memcpy", c.memcpys},
                 {"memset", c.memsets},
                 {"cuda_api", c.cudaApi},
                 {"nvtx", c.nvtx},
                 {"osrt", c.osrt},
                 {"synchronization", c.syncs}}}};
  json processes = json::array();
  for (const auto& p : trace.processes()) {
    json threads = json::array();
    for (const auto& t : p.threads) threads.push_back({{"tid", t.tid}, {"name", t.name}});
    processes.push_back({{"pid", p.pid}, {"name", p.name}, {"threads", threads}});
  }
  root["processes"] = processes;
  json devices = json::array();
  for (const auto& d : trace.devices()) {
    json streams = json::array();
    for (const auto& s : d.streams)
      streams.push_back({{"pid", s.pid}, {"context", s.contextId}, {"stream", s.streamId}});
    devices.push_back({{"id", d.id},
                       {"name", d.name},
                       {"sm_count", d.smCount},
                       {"total_memory", d.totalMemory},
                       {"compute_capability", std::to_string(d.computeMajor) + "." + std::to_string(d.computeMinor)},
                       {"streams", streams}});
  }
  root["devices"] = devices;
  return jsonText(root) + "\n";
}

}  // namespace gpuscope
