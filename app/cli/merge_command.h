#pragma once
// `gpuscope merge A B ... -o OUT [--relative]`: several rank files in one trace file on one clock.
#include <CLI/CLI.hpp>

namespace gpuscope::cli {

void registerMergeCommand(CLI::App& app);

}  // namespace gpuscope::cli
