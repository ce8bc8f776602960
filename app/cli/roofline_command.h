#pragma once
// `gpuscope roofline FILE`: the devices' roofs and the roofline points (kernel instances, kernels by name or
// NVTX ranges) of a trace with kernel metrics, as a terminal table, CSV or JSON.
#include <CLI/CLI.hpp>

namespace gpuscope::cli {

void registerRooflineCommand(CLI::App& app);

}  // namespace gpuscope::cli
