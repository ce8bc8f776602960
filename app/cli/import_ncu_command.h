#pragma once
// `gpuscope import-ncu TRACE NCU.csv`: attaches the counters of an `ncu --csv` report to the trace's kernels
// (GPUSCOPE_KERNEL_METRICS), in a copy (-o) or in the trace itself (--in-place).
#include <CLI/CLI.hpp>

namespace gpuscope::cli {

void registerImportNcuCommand(CLI::App& app);

}  // namespace gpuscope::cli
