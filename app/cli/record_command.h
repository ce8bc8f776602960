#pragma once
// `gpuscope record [options] -- COMMAND ARGS...`: record a program into a trace file.
// `gpuscope launch [options] -- COMMAND ARGS...`: run it as a session that `gpuscope start`/`stop` record.
#include <CLI/CLI.hpp>

namespace gpuscope::cli {

void registerRecordCommand(CLI::App& app);
void registerLaunchCommand(CLI::App& app);

}  // namespace gpuscope::cli
