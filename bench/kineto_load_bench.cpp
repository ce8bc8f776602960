// Loads a PyTorch profiler (Kineto) trace the way every command does (import into the nsys-schema file, then
// the in-memory model) and prints the wall time and the peak resident memory; compare with
// bench/hta_load_bench.py (Holistic Trace Analysis's parser) on the same file.
// Usage: kineto_load_bench TRACE.json[.gz]
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

#include "core/error.h"
#include "core/open/open_trace.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s TRACE.json[.gz]\n", argv[0]);
    return 2;
  }
  try {
    auto start = std::chrono::steady_clock::now();
    auto trace = gpuscope::openTrace(argv[1]).load();
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::error_code ignored;
    auto bytes = std::filesystem::file_size(argv[1], ignored);
    std::printf("file: %s (%.2f GB)\n", argv[1], static_cast<double>(bytes) / 1e9);
    std::printf("events: %zu (kernels %zu)\n", trace->counts().total(), trace->counts().kernels);
    std::printf("load time: %.2f s\n", seconds);
    std::printf("peak RSS: %.1f MiB\n", static_cast<double>(usage.ru_maxrss) / 1024.0);
  } catch (const gpuscope::TraceError& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 1;
  }
  return 0;
}
