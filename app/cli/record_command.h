#pragma once
// `gpuscope record [options] -- COMMAND ARGS...`: record a program into a trace file.
#include <CLI/CLI.hpp>

namespace gpuscope::cli {

void registerRecordCommand(CLI::App& app);

}  // namespace gpuscope::cli
