#include "core/analysis/verdict/idle_host_samples.h"

#include "core/db/sqlite_database.h"
#include "core/samples/sample_reader.h"
#include "core/text/percent_text.h"

namespace gpuscope {
namespace {

// "(in PyObject_Malloc 30.0%, _PyEval_EvalFrameDefault 25.0%)", or "" where the function is its only leaf.
std::string leavesText(const HostFunction& function) {
  if (function.leaves.empty() || (function.leaves.size() == 1 && function.leaves.front().name == function.name))
    return "";
  std::string text;
  for (size_t i = 0; i < function.leaves.size() && i < kTopHostLeaves; ++i) {
    if (i > 0 && function.leaves[i].share < kLeastNamedShare) break;
    text += (i ? ", " : " (in ") + function.leaves[i].name + " " + percentText(function.leaves[i].share);
  }
  return text + ")";
}

}  // namespace

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
  if (read.samples.size() == 0) return result;
  FunctionShares shares = functionShares(read.samples);
  result.samples = shares.samples;
  result.idlePoolSamples = shares.idlePoolSamples;
  result.top = std::move(shares.functions);
  if (result.top.size() > kTopHostFunctions) result.top.resize(kTopHostFunctions);
  return result;
}

std::string hostFunctionsText(const IdleHostSamples& samples) {
  std::string text;
  for (const HostFunction& function : samples.top) {
    // The first is always named; the rest only with a share worth reading ("<shim> 0.0%" is noise).
    if (!text.empty() && function.share < kLeastNamedShare) break;
    if (!text.empty()) text += ", ";
    text += function.name;
    bool python = !function.lines.empty();  // a Python function's label names its file already
    if (!python && !function.module.empty())
      text += " (" + function.module.substr(function.module.rfind('/') + 1) + ")";
    text += " " + percentText(function.share) + leavesText(function);
  }
  if (samples.idlePoolSamples > 0)
    text += " (and " + std::to_string(samples.idlePoolSamples) + " in an idle thread pool's wait loop, counted apart)";
  return text;
}

}  // namespace gpuscope
