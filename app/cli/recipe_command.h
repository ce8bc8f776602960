#pragma once
// `gpuscope recipe NAME --input DIR|FILES... --output OUTDIR [--mode serial|local|dask-futures]`: a summary
// over many rank files, each file's part on a Dask worker (python/gpuscope_recipe), reduced over all ranks;
// and the two hidden steps the workers and the driver run, `recipe-part` and `recipe-reduce`.
#include <CLI/CLI.hpp>

namespace gpuscope::cli {

void registerRecipeCommands(CLI::App& app);

}  // namespace gpuscope::cli
