#pragma once
// Finding and running gpuscope-peaks, the CUDA program that measures the roofs for `gpuscope peaks`. It is a
// separate executable, built only where the CUDA toolkit is, so that gpuscope itself needs no CUDA.
#include <string>
#include <vector>

namespace gpuscope::cli {

inline constexpr const char* kPeaksHelperName = "gpuscope-peaks";

// $GPUSCOPE_PEAKS_HELPER when set; else gpuscope-peaks in the first of $GPUSCOPE_LIB_DIR, ../lib/gpuscope and
// the directory of gpuscope, and the build tree's lib/gpuscope (the places `record` looks for its libraries).
// Throws TraceError, in one sentence, when it is not there.
std::string findPeaksHelper();

struct HelperRun {
  int exitCode = -1;  // -1 when it ended on a signal
  int signal = 0;
  std::string out;  // everything it wrote on stdout
};

// Runs PATH with ARGS, stdout captured and stderr passed through. Throws TraceError when it cannot start.
HelperRun runHelper(const std::string& path, const std::vector<std::string>& args);

}  // namespace gpuscope::cli
