#include "core/model/trace_summary.h"

#include <nlohmann/json.hpp>
#include <sstream>

#include "core/model/time_math.h"
#include "core/report/report_format.h"

namespace gpuscope {
namespace {

std::string processTitle(const ProcessInfo& p) {
  return (p.name.empty() ? std::string("process") : p.name) + " (pid " + std::to_string(p.pid) + ")";
}

std::string threadTitle(const ThreadInfo& t) {
  return (t.name.empty() ? std::string("thread") : t.name) + " (tid " + std::to_string(t.tid) + ")";
}

}  // namespace

std::string formatSummaryText(const Trace& trace, const std::vector<TableRowCount>& tables) {
  std::ostringstream out;
  const auto& c = trace.counts();
  out << "File:      " << trace.path() << "\n";
  out << "Time span: " << formatDuration(spanNs(trace.startTime(), trace.endTime())) << " (" << trace.startTime()
      << " ns to " << trace.endTime() << " ns)\n";
  out << "Events:    " << c.total() << " (kernels " << c.kernels << ", memcpy " << c.memcpys << ", memset " << c.memsets
      << ", CUDA API " << c.cudaApi << ", NVTX " << c.nvtx << ", OS runtime " << c.osrt << ", synchronization "
      << c.syncs << ")\n";
  if (!tables.empty()) out << "Tables:    " << tables.size() << "\n";
  for (const TableRowCount& table : tables) out << "  " << table.table << ": " << table.rows << " rows\n";
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

std::string formatSummaryJson(const Trace& trace, const std::vector<TableRowCount>& tables) {
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
  if (!tables.empty()) {
    json rows = json::object();
    for (const TableRowCount& table : tables) rows[std::string(table.table)] = table.rows;
    root["tables"] = rows;
  }
  return jsonText(root) + "\n";
}

}  // namespace gpuscope
