// CpuSampler::rows: names what was sampled once the program has ended. Addresses are named from the
// files each process had mapped at the time (ELF symbols), then from perf maps (JITs, CPython 3.12's
// trampoline); a Python thread's frames, read while it ran, take the place of the interpreter's own.
#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "collector/daemon/process_trace.h"
#include "collector/sampling/cpu_sampler.h"
#include "collector/sampling/elf_symbols.h"

namespace gpuscope::sampling {
namespace {

std::string hexAddress(uint64_t address) {
  std::ostringstream text;
  text << "0x" << std::hex << address;
  return text.str();
}

// The symbols a JIT or CPython's perf trampoline wrote to /tmp/perf-PID.map: "START SIZE NAME" in hex.
class PerfMaps {
 public:
  const std::string* nameAt(uint32_t pid, uint64_t address) {
    auto& entries = load(pid);
    auto after = std::upper_bound(entries.begin(), entries.end(), address,
                                  [](uint64_t value, const Entry& entry) { return value < entry.start; });
    if (after == entries.begin()) return nullptr;
    const Entry& entry = *std::prev(after);
    return address < entry.start + entry.size ? &entry.name : nullptr;
  }
  static std::string pathOf(uint32_t pid) { return "/tmp/perf-" + std::to_string(pid) + ".map"; }

 private:
  struct Entry {
    uint64_t start, size;
    std::string name;
  };
  std::vector<Entry>& load(uint32_t pid) {
    auto [it, added] = maps_.try_emplace(pid);
    if (!added) return it->second;
    std::ifstream file(pathOf(pid));
    std::string line;
    while (std::getline(file, line)) {
      std::istringstream fields(line);
      Entry entry;
      fields >> std::hex >> entry.start >> entry.size;
      std::getline(fields >> std::ws, entry.name);
      if (fields.fail() && entry.name.empty()) continue;
      it->second.push_back(std::move(entry));
    }
    std::sort(it->second.begin(), it->second.end(), [](const Entry& a, const Entry& b) { return a.start < b.start; });
    return it->second;
  }
  std::unordered_map<uint32_t, std::vector<Entry>> maps_;
};

}  // namespace

class CpuSampler::NameCache {
 public:
  explicit NameCache(const AddressSpaces& spaces) : spaces_(spaces) {}

  // The frame of ADDRESS in PID at TIME. A caller's address is a return address, one past its call: the
  // call itself (ADDRESS - 1) is what is named, as the call may be a function's last instruction.
  NamedFrame name(uint32_t pid, uint64_t address, uint64_t time, bool caller) {
    auto key = std::make_pair(pid, address);
    auto found = names_.find(key);
    if (found != names_.end()) return found->second;
    NamedFrame frame = resolve(pid, caller ? address - 1 : address, time);
    frame.ip = address;
    names_.emplace(key, frame);
    return frame;
  }

 private:
  NamedFrame resolve(uint32_t pid, uint64_t address, uint64_t time) {
    const Mapping* mapping = spaces_.find(static_cast<pid_t>(pid), address, time);
    if (mapping && !mapping->path.empty() && (mapping->path.front() == '/' || mapping->path == kVdsoName)) {
      if (const ElfSymbols* file = elfs_.get(mapping->path)) {
        uint64_t bias = file->loadBias(mapping->start, mapping->pageOffset);
        if (const std::string* symbol = file->functionAt(address - bias))
          return {demangledSymbol(*symbol), mapping->path, address, false, false};
      }
    }
    if (const std::string* jitted = perfMaps_.nameAt(pid, address))
      return {*jitted, PerfMaps::pathOf(pid), address, false, false};
    return {hexAddress(address), mapping ? mapping->path : "[unknown]", address, true, false};
  }

  const AddressSpaces& spaces_;
  ElfSymbolCache elfs_;
  PerfMaps perfMaps_;
  std::map<std::pair<uint32_t, uint64_t>, NamedFrame> names_;
};

std::vector<NamedFrame> CpuSampler::nameNative(const NativeStack& stack, NameCache& cache) const {
  std::vector<NamedFrame> frames;
  frames.reserve(stack.chain.size());
  for (size_t depth = 0; depth < stack.chain.size(); ++depth)
    frames.push_back(cache.name(stack.pid, stack.chain[depth], stack.firstSeen, depth > 0));
  return frames;
}

// The native frames up to the interpreter's innermost one, then the Python frames. Past that frame the
// native chain is the interpreter's own, which frame pointers cannot follow through a CPython built
// without them; the Python frames say what it was running.
std::vector<NamedFrame> CpuSampler::withPython(const std::vector<NamedFrame>& native, uint32_t pid,
                                               uint32_t python) const {
  if (python == kNoStack) return native;
  auto interpreter = interpreterOf_.find(pid);
  std::vector<NamedFrame> frames;
  for (const NamedFrame& frame : native) {
    frames.push_back(frame);
    if (interpreter != interpreterOf_.end() && frame.module == interpreter->second) break;
  }
  const auto& functions = python_.functions();
  for (const PythonFrame& pyFrame : pythonStacks_[python]) {
    const PythonFunction& function = functions[pyFrame.function];
    std::string symbol = "py::" + function.name + ":" + function.file;
    if (pyFrame.line > 0) symbol += ":" + std::to_string(pyFrame.line);
    frames.push_back({std::move(symbol), function.file, 0, false, true});
  }
  return frames;
}

SampleRows CpuSampler::rows(int64_t origin, int64_t begin, int64_t end) const {
  SampleRows rows;
  rows.vmId = kVmId;  // as the daemon's rows (collector/daemon/process_trace.h)
  NameCache cache(spaces_);
  std::vector<std::optional<std::vector<NamedFrame>>> native(nativeStacks_.size());
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> stackIds;
  auto inWindow = [&](uint64_t time) {
    auto at = static_cast<int64_t>(time);
    return at >= begin && at < end;
  };
  for (const RawSample& sample : samples_) {
    if (!inWindow(sample.time)) continue;
    auto [it, added] =
        stackIds.try_emplace({sample.nativeStack, sample.pythonStack}, static_cast<uint32_t>(rows.stacks.size()));
    if (added) {
      auto& named = native[sample.nativeStack];
      if (!named) named = nameNative(nativeStacks_[sample.nativeStack], cache);
      rows.stacks.push_back(withPython(*named, sample.pid, sample.pythonStack));
    }
    rows.samples.push_back({static_cast<TimeNs>(static_cast<int64_t>(sample.time) - origin), sample.pid, sample.tid,
                            static_cast<int32_t>(sample.cpu), it->second});
  }
  for (SchedSwitch change : switches_) {
    if (!inWindow(static_cast<uint64_t>(change.time))) continue;
    change.time -= origin;
    rows.switches.push_back(change);
  }
  return rows;
}

std::vector<std::vector<NamedFrame>> CpuSampler::nameChains(const std::vector<AddressChain>& chains) const {
  NameCache cache(spaces_);
  std::vector<std::vector<NamedFrame>> named;
  named.reserve(chains.size());
  for (const AddressChain& chain : chains) {
    std::vector<NamedFrame>& frames = named.emplace_back();
    for (size_t depth = 0; depth < chain.frames.size(); ++depth)
      frames.push_back(cache.name(chain.pid, chain.frames[depth], chain.time, depth > 0));
  }
  return named;
}

std::vector<uint32_t> CpuSampler::pids() const {
  std::vector<uint32_t> pids;
  for (const RawSample& sample : samples_) pids.push_back(sample.pid);
  std::sort(pids.begin(), pids.end());
  pids.erase(std::unique(pids.begin(), pids.end()), pids.end());
  return pids;
}

}  // namespace gpuscope::sampling
