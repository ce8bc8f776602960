#pragma once
// `gpuscope info FILE`: what is in a trace.
#include <CLI/CLI.hpp>

namespace gpuscope::cli {

void registerInfoCommand(CLI::App& app);

}  // namespace gpuscope::cli
