#pragma once
// `gpuscope export FILE --format chrome|perfetto -o OUT`: a trace written for Perfetto, chrome://tracing
// and Holistic Trace Analysis.
#include <CLI/CLI.hpp>

namespace gpuscope::cli {

void registerExportCommand(CLI::App& app);

}  // namespace gpuscope::cli
