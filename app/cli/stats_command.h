#pragma once
// `gpuscope stats FILE`: the `nsys stats` reports (cuda_api_sum, cuda_gpu_kern_sum, ...) as a terminal table,
// CSV or JSON, on stdout or into one file per report.
#include <CLI/CLI.hpp>

namespace gpuscope::cli {

void registerStatsCommand(CLI::App& app);

}  // namespace gpuscope::cli
