#pragma once
// Running the Dask driver of `gpuscope recipe` (python/gpuscope_recipe/driver.py) under a python3 that has
// Dask: $GPUSCOPE_PYTHON, else /usr/bin/python3 (Debian's, with python3-distributed), else python3 on PATH.
#include <string>
#include <vector>

namespace gpuscope::cli {

// The driver script: $GPUSCOPE_RECIPE_DRIVER, else share/gpuscope/python beside the installed binary,
// else the source tree this binary was built from. Throws TraceError when there is none.
std::string findRecipeDriver();

// This executable's absolute path, for the workers to run.
std::string selfExecutable();

// Runs the python with the driver and ARGS, and returns its exit status; throws TraceError with one sentence
// when the python cannot be started.
int runRecipeDriver(const std::vector<std::string>& args);

}  // namespace gpuscope::cli
