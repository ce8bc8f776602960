#pragma once
// RecordSampling: the --sample part of `gpuscope record`. It opens the sampler on the program between its
// fork and its execve, stops it when the program has ended, and adds the named samples and thread switches
// to the finished trace file. When the kernel refuses sampling, it says so in one line and the recording
// goes on without it.
#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "collector/daemon/trace_assembler.h"
#include "collector/sampling/cpu_sampler.h"

namespace gpuscope {

class TraceWriter;

struct SamplingOptions {
  bool cpu = true;              // --sample cpu|none
  int frequencyHz = 1000;       // --sampling-frequency
  bool contextSwitches = true;  // --cpuctxsw process-tree|none
};

// Throws TraceError with one sentence for a frequency the kernel would refuse.
void checkSamplingOptions(const SamplingOptions& options);
// "cpu 1000 Hz, context switches", "none": for GPUSCOPE_META record_options and the summary.
std::string samplingOptionsText(const SamplingOptions& options);

class RecordSampling {
 public:
  // OSRT_BACKTRACES: the program's OS-runtime calls carry backtraces, whose addresses are named from the
  // mappings the sampler's events see, so the events are opened for them even with --sample none.
  RecordSampling(SamplingOptions options, bool osrtBacktraces) : options_(options), osrtBacktraces_(osrtBacktraces) {}
  bool wanted() const { return options_.cpu || options_.contextSwitches || osrtBacktraces_; }

  // Starts sampling CHILD, which waits before its execve.
  void attach(pid_t child);
  // After the program has ended.
  void stop();
  // GPUSCOPE_META cpu_sampling, cpu_samples, cpu_samples_lost, python_samples, ...
  void addMeta(TraceWriter& writer) const;
  // Adds the samples and switches in WINDOW and the named OS-runtime BACKTRACES (table::kOsrtCallchains) to the
  // trace WRITER writes, before it finishes; says so on stderr when they cannot be named (the trace is kept).
  void writeTables(TraceWriter& writer, const CaptureWindow& window,
                   const std::vector<OsrtBacktrace>& backtraces) const;

  bool active() const { return sampler_ != nullptr; }
  sampling::SamplerCounts counts() const { return counts_; }

 private:
  SamplingOptions options_;
  bool osrtBacktraces_ = false;
  std::unique_ptr<sampling::CpuSampler> sampler_;
  sampling::SamplerCounts counts_;
};

}  // namespace gpuscope
