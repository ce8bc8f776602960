#pragma once
// `gpuscope analyze FILE`: the analysis rules (nsys's expert-system rules first) as a terminal
// report, nsys-identical CSV or JSON, on stdout or into one file per rule.
#include <CLI/CLI.hpp>

namespace gpuscope::cli {

void registerAnalyzeCommand(CLI::App& app);

}  // namespace gpuscope::cli
