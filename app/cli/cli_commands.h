#pragma once
// Every subcommand of the gpuscope CLI, registered in one place.
#include <CLI/CLI.hpp>

namespace gpuscope::cli {

void registerAllCommands(CLI::App& app);

}  // namespace gpuscope::cli
