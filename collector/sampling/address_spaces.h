#pragma once
// AddressSpaces: which file each process had mapped where, and since when, from perf's mmap and fork
// records, so that an address sampled at a time can be named after the recording, when the processes are
// gone. A forked child starts with its parent's mappings.
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace gpuscope::sampling {

struct Mapping {
  uint64_t start = 0, end = 0, pageOffset = 0, since = 0;
  std::string path;
};

class AddressSpaces {
 public:
  void addMapping(pid_t pid, Mapping mapping);
  void addFork(pid_t parent, pid_t child, uint64_t time);
  // The mapping of PID that held ADDRESS at TIME (the latest made before it), or nullptr.
  const Mapping* find(pid_t pid, uint64_t address, uint64_t time) const;

 private:
  struct Space {
    std::vector<Mapping> mappings;  // in the order they were made
    pid_t parent = 0;
    uint64_t forkedAt = 0;
  };
  std::unordered_map<pid_t, Space> spaces_;
};

}  // namespace gpuscope::sampling
