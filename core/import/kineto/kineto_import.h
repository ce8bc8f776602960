#pragma once
// The one entry point of the PyTorch profiler (Kineto) reader: a Chrome-trace JSON (.json or .json.gz)
// is streamed into a trace file in the nsys schema, which the ordinary loader then opens, so every
// report, the viewer and the compare view read it as they read an nsys export.
#include <cstddef>
#include <string>
#include <string_view>

namespace gpuscope {

// Names of the NVTX domains the importer writes PyTorch's CPU ops and Python functions to (user
// annotations go to the default domain), so an exporter can give them back their Kineto categories.
inline constexpr std::string_view kKinetoCpuOpDomain = "PyTorch ops";
inline constexpr std::string_view kKinetoPythonDomain = "Python";
inline constexpr std::string_view kKinetoGpuAnnotationDomain = "GPU user annotations";

struct KinetoImportSummary {
  size_t kernels = 0;
  size_t memcpys = 0;
  size_t memsets = 0;
  size_t apiCalls = 0;
  size_t ranges = 0;            // CPU ops, Python functions and user annotations
  size_t gpuAnnotations = 0;    // gpu_user_annotation ranges, on one row per GPU stream
  size_t pairedFlows = 0;       // ac2g flows with both ends; orphans (Kineto writes many) are ignored
  size_t memoryEvents = 0;      // "[memory]" events of CUDA devices, into CUDA_GPU_MEMORY_USAGE_EVENTS
  size_t hostMemoryEvents = 0;  // "[memory]" events of the CPU allocator: not device memory, counted, not kept
};

// Reads JSON_PATH (plain or gzip) and writes SQLITE_PATH (replacing it). Throws TraceError with one
// sentence for a file that is not a readable PyTorch profiler trace.
KinetoImportSummary importKinetoTrace(const std::string& jsonPath, const std::string& sqlitePath);

}  // namespace gpuscope
