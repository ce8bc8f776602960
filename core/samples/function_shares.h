#pragma once
// Per-function shares of CPU samples, as py-spy's `top` counts them: each sample is put down to one function,
// the innermost frame of the program's own Python code where its stack has one (isProgramPythonFrame), else
// its leaf, so a program that spent 80% in decode_batch and 20% in augment reads "decode_batch 80%, augment
// 20%" whatever native code each ran. A Python function is one function on all its lines. Beneath each: the
// native leaves it ran (leaf split) and, for a Python function, its lines.
//
// Before that, the stacks are cleaned and classed (sample_classes.h): junk frames are dropped (a stack of junk
// only is "[unresolved]"), and samples of idle thread-pool threads are counted apart, per pool, not as
// functions, so that the spinning of a pool's idle threads does not crowd out the threads that work.
//
// Shares: a function's, its leaves' and its lines' are of the working samples (all samples but the idle pool
// ones), so they add up to 1 over the functions; an idle pool's is of all samples.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/samples/cpu_samples.h"

namespace gpuscope {

struct SampleShare {
  std::string name;  // a leaf: "PyObject_Malloc", "sort (fromnumeric.py)"; a line: "hostprep.py:7"
  int64_t samples = 0;
  double share = 0;  // of the working samples
};

struct FunctionShare {
  std::string name;    // "decode_batch (hostprep.py)", "sort", "[unresolved]", "[no call stack]"
  std::string module;  // the module (or the Python file) it lives in; "" for the bracketed ones
  int64_t samples = 0;
  double share = 0;                 // of the working samples
  std::vector<SampleShare> leaves;  // the leaves of its samples (itself, for a native function), most first
  std::vector<SampleShare> lines;   // a Python function's lines, most first; empty for native ones
};

struct IdlePoolShare {
  std::string pool;  // "OpenBLAS blas_thread_server" (sample_classes.h)
  int64_t samples = 0;
  double share = 0;     // of all samples
  int64_t threads = 0;  // threads with samples in that pool's wait loop
};

struct FunctionShares {
  int64_t samples = 0;                   // all samples
  int64_t workingSamples = 0;            // samples - idle pool samples
  int64_t idlePoolSamples = 0;           // samples in an idle pool's wait loop
  int64_t junkFrames = 0;                // frames dropped as unwinder junk
  int64_t unresolvedSamples = 0;         // stacks of junk only (the "[unresolved]" function)
  std::vector<FunctionShare> functions;  // most samples first, then by name
  std::vector<IdlePoolShare> idlePools;  // most samples first
};

// The shares of SAMPLES, every function listed.
FunctionShares functionShares(const CpuSamples& samples);

// "decode_batch (hostprep.py)" for a Python frame "py::decode_batch:/src/hostprep.py:7" (its lines are one
// function), frameLabel otherwise.
std::string functionLabel(std::string_view symbol);

// "idle thread-pool threads (OpenBLAS blas_thread_server): 27.0% of samples, 15 threads", one part per pool
// joined by "; ", for the CLI and the verdict; "" without idle pool samples.
std::string idlePoolsText(const FunctionShares& shares);

}  // namespace gpuscope
