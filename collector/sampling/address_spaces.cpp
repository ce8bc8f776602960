#include "collector/sampling/address_spaces.h"

namespace gpuscope::sampling {

void AddressSpaces::addMapping(pid_t pid, Mapping mapping) { spaces_[pid].mappings.push_back(std::move(mapping)); }

void AddressSpaces::addFork(pid_t parent, pid_t child, uint64_t time) {
  if (parent == child) return;  // a thread, not a process
  Space& space = spaces_[child];
  space.parent = parent;
  space.forkedAt = time;
}

const Mapping* AddressSpaces::find(pid_t pid, uint64_t address, uint64_t time) const {
  // A fork chain is short; the loop also ends on a (corrupt) cycle after a few steps.
  for (int generation = 0; generation < 64; ++generation) {
    auto found = spaces_.find(pid);
    if (found == spaces_.end()) return nullptr;
    const Space& space = found->second;
    for (auto it = space.mappings.rbegin(); it != space.mappings.rend(); ++it) {
      if (it->since <= time && address >= it->start && address < it->end) return &*it;
    }
    if (space.parent == 0) return nullptr;
    pid = space.parent;
    if (space.forkedAt < time) time = space.forkedAt;
  }
  return nullptr;
}

}  // namespace gpuscope::sampling
