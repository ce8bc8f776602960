#pragma once
// `gpuscope samples FILE`: the host's sampled call stacks (flat, top-down or bottom-up) and each thread's
// time on and off the CPU, from the tables nsys and gpuscope record write, as a terminal table, CSV or JSON.
#include <CLI/CLI.hpp>

namespace gpuscope::cli {

void registerSamplesCommand(CLI::App& app);

}  // namespace gpuscope::cli
