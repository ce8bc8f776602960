// How a sampled stack is named in the verdict: the leaf, the Python code that called it, and the
// program's own line above library code.
#include "core/samples/frame_names.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpuscope {
namespace {

// One sample whose stack is SYMBOLS, leaf first.
CpuSamples oneStack(const std::vector<std::string>& symbols) {
  CpuSamples samples;
  samples.start.push_back(0);
  samples.globalTid.push_back(1);
  samples.threadState.push_back(0);
  samples.firstFrame.push_back(0);
  for (const std::string& symbol : symbols) {
    samples.frames.push_back({static_cast<uint32_t>(samples.names.size()), 0, 0});
    samples.names.push_back(symbol);
  }
  samples.firstFrame.push_back(static_cast<uint32_t>(samples.frames.size()));
  return samples;
}

std::string labelOf(const std::vector<std::string>& symbols) {
  CpuSamples samples = oneStack(symbols);
  return leafWithPythonCaller(samples, samples.stackOf(0));
}

TEST(FrameNames, ANativeLeafIsNamedWithTheLibraryCallAndTheProgramLineAboveIt) {
  EXPECT_EQ(labelOf({"pocketfft::exec", "PyObject_Call",
                     "py::_raw_fft:/venv/lib/python3.12/site-packages/numpy/fft/_pocketfft.py:101",
                     "py::rfft:/venv/lib/python3.12/site-packages/numpy/fft/_pocketfft.py:414",
                     "py::prepare:/src/train.py:12", "py::main:/src/train.py:30"}),
            "prepare (train.py:12) → _raw_fft (_pocketfft.py:101) → pocketfft::exec");
}

TEST(FrameNames, TheProgramsOwnCallerAloneWhenItCallsTheLeafDirectly) {
  EXPECT_EQ(labelOf({"npy_quicksort", "py::prepare:/src/train.py:13", "py::main:/src/train.py:30"}),
            "prepare (train.py:13) → npy_quicksort");
  EXPECT_EQ(labelOf({"py::busy:/src/train.py:7", "py::main:/src/train.py:30"}), "busy (train.py:7)");
}

TEST(FrameNames, LibraryPythonOnlyOrNoPythonAtAll) {
  EXPECT_EQ(labelOf({"sort_n_vec", "py::sort:/usr/lib/python3/dist-packages/numpy/fromnumeric.py:1105"}),
            "sort (fromnumeric.py:1105) → sort_n_vec");
  EXPECT_EQ(labelOf({"hot_a", "main"}), "hot_a");
  EXPECT_EQ(labelOf({"py::_find_and_load:<frozen importlib._bootstrap>:1176"}),
            "_find_and_load (<frozen importlib._bootstrap>:1176)");
  EXPECT_FALSE(isProgramPythonFrame("py::load:/usr/lib/python3.11/json/__init__.py:293"));
  EXPECT_TRUE(isProgramPythonFrame("py::prepare:/src/train.py:12"));
}

}  // namespace
}  // namespace gpuscope
