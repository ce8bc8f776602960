#pragma once
// `gpuscope stats FILE`: the `nsys stats` reports (cuda_api_sum, cuda_gpu_kern_sum, ...) as a terminal table,
// CSV or JSON, on stdout or into one file per report.
#include <CLI/CLI.hpp>
#include <string>

namespace gpuscope::cli {

void registerStatsCommand(CLI::App& app);

// Prints the default reports of FILE on stdout, as `gpuscope stats FILE` does (`record --stats`).
// Throws TraceError when the file has none.
void printStatsReports(const std::string& file);

}  // namespace gpuscope::cli
