#pragma once
// `gpuscope diff A B`: two runs compared kernel by kernel or NVTX range by range, with a summary, as a
// terminal table, CSV or JSON.
#include <CLI/CLI.hpp>

namespace gpuscope::cli {

void registerDiffCommand(CLI::App& app);

}  // namespace gpuscope::cli
