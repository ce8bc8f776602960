#pragma once
// The fuzz input as a file: the readers open paths, so each input is written to one file per process
// (in /dev/shm when it exists, so no disk write per run) and read back from there.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

namespace gpuscope::fuzz {

inline std::string inputPath(const char* suffix) {
  std::filesystem::path folder =
      std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : std::filesystem::temp_directory_path();
  return (folder / ("gpuscope_fuzz_" + std::to_string(::getpid()) + suffix)).string();
}

// Writes DATA to PATH (replacing it) and returns PATH.
inline const std::string& writeInput(const std::string& path, const uint8_t* data, size_t size) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) std::abort();
  if (size > 0 && std::fwrite(data, 1, size, file) != size) std::abort();
  std::fclose(file);
  return path;
}

}  // namespace gpuscope::fuzz
