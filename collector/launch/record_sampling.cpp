#include "collector/launch/record_sampling.h"

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "core/error.h"
#include "core/samples/sample_rows.h"
#include "core/write/trace_writer.h"

namespace gpuscope {

void checkSamplingOptions(const SamplingOptions& options) {
  // perf refuses more than kernel.perf_event_max_sample_rate (100 kHz by default, lowered under load).
  if (options.frequencyHz < 1 || options.frequencyHz > 100'000)
    throw TraceError("--sampling-frequency must be 1 to 100000 Hz, not " + std::to_string(options.frequencyHz));
}

std::string samplingOptionsText(const SamplingOptions& options) {
  std::string text = options.cpu ? "cpu " + std::to_string(options.frequencyHz) + " Hz" : "none";
  if (options.contextSwitches) text += ", context switches";
  return text;
}

void RecordSampling::attach(pid_t child) {
  if (!wanted()) return;
  sampling::SamplerOptions samplerOptions;
  samplerOptions.samples = options_.cpu;
  samplerOptions.frequencyHz = options_.frequencyHz;
  samplerOptions.contextSwitches = options_.contextSwitches;
  try {
    sampler_ = std::make_unique<sampling::CpuSampler>(child, samplerOptions);
    sampler_->start();
  } catch (const TraceError& error) {
    std::cerr << "gpuscope: recording without CPU samples: " << error.what() << " (--sample none hides this)\n";
    sampler_.reset();
  }
}

void RecordSampling::stop() {
  if (!sampler_) return;
  sampler_->stop();
  counts_ = sampler_->counts();
}

void RecordSampling::addMeta(TraceWriter& writer) const {
  writer.addMeta("cpu_sampling", active() ? samplingOptionsText(options_) : "none");
  if (!active()) return;
  writer.addMeta("cpu_samples", std::to_string(counts_.samples));
  writer.addMeta("cpu_sched_events", std::to_string(counts_.switches));
  writer.addMeta("cpu_sampling_records_lost", std::to_string(counts_.lost));
  writer.addMeta("python_samples", std::to_string(counts_.pythonSamples));
  writer.addMeta("python_stack_reads_failed", std::to_string(counts_.pythonFailedReads));
  writer.addMeta("python_stack_read_lag_p50_ns", std::to_string(counts_.pythonReadLagP50Ns));
  writer.addMeta("python_stack_read_lag_p99_ns", std::to_string(counts_.pythonReadLagP99Ns));
}

namespace {

// Addresses left as they are, where no sampler saw the processes' mappings.
std::vector<std::vector<NamedFrame>> unnamedChains(const std::vector<OsrtBacktrace>& backtraces) {
  std::vector<std::vector<NamedFrame>> chains;
  for (const OsrtBacktrace& backtrace : backtraces) {
    std::vector<NamedFrame>& frames = chains.emplace_back();
    for (uint64_t address : backtrace.frames) {
      char text[24];
      std::snprintf(text, sizeof text, "0x%" PRIx64, address);
      frames.push_back({text, "[unknown]", address, true, false});
    }
  }
  return chains;
}

}  // namespace

void RecordSampling::writeTables(TraceWriter& writer, const CaptureWindow& window,
                                 const std::vector<OsrtBacktrace>& backtraces) const {
  if (!active() && backtraces.empty()) return;
  try {
    SampleRows rows;
    if (active()) {
      rows = sampler_->rows(window.origin, window.begin, window.end);
      std::vector<sampling::CpuSampler::AddressChain> chains;
      chains.reserve(backtraces.size());
      for (const OsrtBacktrace& backtrace : backtraces)
        chains.push_back({backtrace.pid, static_cast<uint64_t>(backtrace.time), backtrace.frames});
      rows.osrtBacktraces = sampler_->nameChains(chains);
    } else {
      rows.sampled = false;
      rows.osrtBacktraces = unnamedChains(backtraces);
    }
    writeSampleTables(writer, rows);
  } catch (const TraceError& error) {
    std::cerr << "gpuscope: the CPU samples could not be added to the trace: " << error.what() << "\n";
  }
}

}  // namespace gpuscope
