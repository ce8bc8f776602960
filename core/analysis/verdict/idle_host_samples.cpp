#include "core/analysis/verdict/idle_host_samples.h"

#include <algorithm>
#include <map>

#include "core/db/sqlite_database.h"
#include "core/samples/frame_names.h"
#include "core/samples/sample_reader.h"
#include "core/text/percent_text.h"

namespace gpuscope {

IdleHostSamples idleHostSamples(const Database& db, const RunActivity& run, TimeInterval window) {
  const HostThread* host = run.drivingThread();
  if (host == nullptr || window.empty()) return {};
  return hostSamplesIn(db, *host, run.gpuBusy.gapsWithin(window.start, window.end));
}

IdleHostSamples hostSamplesIn(const Database& db, const HostThread& host, std::vector<TimeInterval> windows) {
  IdleHostSamples result;
  if (windows.empty()) return result;
  SampleFilter filter{host.pid, host.tid, std::move(windows)};
  SampleRead read = readCpuSamples(db, filter);
  const CpuSamples& samples = read.samples;
  if (samples.size() == 0) return result;
  std::map<std::pair<std::string, std::string>, int64_t> counts;
  for (size_t s = 0; s < samples.size(); ++s) {
    auto stack = samples.stackOf(s);
    std::string module = stack.empty() ? "" : std::string(samples.name(stack.front().module));
    ++counts[{leafWithPythonCaller(samples, stack), module}];
  }
  result.samples = static_cast<int64_t>(samples.size());
  for (const auto& [key, count] : counts)
    result.top.push_back(
        {key.first, key.second, count, static_cast<double>(count) / static_cast<double>(samples.size())});
  std::stable_sort(result.top.begin(), result.top.end(),
                   [](const HostFunction& a, const HostFunction& b) { return a.samples > b.samples; });
  if (result.top.size() > kTopHostFunctions) result.top.resize(kTopHostFunctions);
  return result;
}

std::string hostFunctionsText(const IdleHostSamples& samples) {
  std::string text;
  for (const HostFunction& function : samples.top) {
    if (!text.empty()) text += ", ";
    text += function.name;
    if (!function.module.empty()) text += " (" + function.module.substr(function.module.rfind('/') + 1) + ")";
    text += " " + percentText(function.share);
  }
  return text;
}

}  // namespace gpuscope
