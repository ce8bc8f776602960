#pragma once
// `gpuscope peaks`: measures the GPU's roofs (DRAM, L2 and shared-memory bandwidth, FP64/FP32/FP16 FMA
// throughput) with the gpuscope-peaks helper, prints them against the theoretical peaks, and with --store
// writes them into a trace, where `gpuscope roofline` and the viewer prefer them.
#include <CLI/CLI.hpp>

namespace gpuscope::cli {

void registerPeaksCommand(CLI::App& app);

}  // namespace gpuscope::cli
