#pragma once
// Small recordings of one rank each, written as `gpuscope record` writes them (TraceWriter, the sampling
// tables through writeSampleTables): one Python process whose thread makes an OS-runtime call with a backtrace
// and is sampled in one function. Two of them with the same pid stand for two ranks on two hosts.
#include <cstdint>
#include <string>

namespace gpuscope::testing {

struct RankRecording {
  int rank = 0;
  int64_t sessionStartUtcNs = 1'790'000'000'000'000'000;
  std::string function = "load_shard";  // the Python function the samples and the backtrace end in
  int samples = 3;
  int64_t lengthNs = 1'000'000'000;  // how long the OS-runtime call, and so the run, lasts
};

inline constexpr uint32_t kRankRecordingPid = 4242;

// Writes RECORDING to a temp file named for the test and NAME; returns its path.
std::string writeRankRecording(const std::string& name, const RankRecording& recording);

}  // namespace gpuscope::testing
