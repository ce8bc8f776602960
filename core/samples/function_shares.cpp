#include "core/samples/function_shares.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "core/samples/frame_names.h"
#include "core/samples/sample_classes.h"
#include "core/text/percent_text.h"

namespace gpuscope {
namespace {

constexpr std::string_view kPythonFramePrefix = "py::";

struct PythonSymbol {
  std::string_view function;  // "py::NAME:FILE": the symbol without its line
  std::string_view line;      // "7", or "" where the symbol names none
};

// The recorder names a Python frame "py::NAME:FILE:LINE" (collector/sampling), the line being where the
// function was when sampled: one function, many symbols.
PythonSymbol splitLine(std::string_view symbol) {
  size_t colon = symbol.rfind(':');
  if (colon == std::string_view::npos || colon + 1 == symbol.size()) return {symbol, {}};
  std::string_view line = symbol.substr(colon + 1);
  bool digits = std::all_of(line.begin(), line.end(), [](char c) { return c >= '0' && c <= '9'; });
  // "py::NAME:LINE" would have no file left: keep such a symbol whole.
  bool fileLeft = symbol.find(':', kPythonFramePrefix.size()) < colon;
  if (!digits || !fileLeft) return {symbol, {}};
  return {symbol.substr(0, colon), line};
}

// "/src/hostprep.py" for "py::decode_batch:/src/hostprep.py:7" (the whole rest for a symbol without a file).
std::string_view pythonFileOf(const PythonSymbol& python) {
  size_t colon = python.function.find(':', kPythonFramePrefix.size());
  return colon == std::string_view::npos ? python.function : python.function.substr(colon + 1);
}

// "hostprep.py:7" for "py::decode_batch:/src/hostprep.py:7".
std::string lineLabel(const PythonSymbol& python) {
  std::string_view file = pythonFileOf(python);
  size_t slash = file.rfind('/');
  if (slash != std::string_view::npos) file = file.substr(slash + 1);
  return std::string(file) + ":" + std::string(python.line);
}

struct Tally {
  std::string name;
  std::string module;
  int64_t samples = 0;
  std::map<std::string, int64_t> leaves;
  std::map<std::string, int64_t> lines;
};

struct PoolTally {
  int64_t samples = 0;
  std::set<int64_t> threads;
};

std::vector<SampleShare> sharesOf(const std::map<std::string, int64_t>& counts, double working) {
  std::vector<SampleShare> shares;
  for (const auto& [name, count] : counts) shares.push_back({name, count, static_cast<double>(count) / working});
  std::stable_sort(shares.begin(), shares.end(),
                   [](const SampleShare& a, const SampleShare& b) { return a.samples > b.samples; });
  return shares;
}

class FunctionTallies {
 public:
  explicit FunctionTallies(const CpuSamples& samples) : samples_(samples) {}

  // One working sample whose cleaned stack is STACK (not empty).
  void add(std::span<const SampleFrame> stack) {
    size_t at = 0;
    while (at < stack.size() && !isProgramPythonFrame(samples_.name(stack[at].symbol))) ++at;
    const SampleFrame& owner = at < stack.size() ? stack[at] : stack.front();
    std::string_view symbol = samples_.name(owner.symbol);
    PythonSymbol python = isPythonFrame(symbol) ? splitLine(symbol) : PythonSymbol{symbol, {}};
    // A Python function is named by its symbol alone: CPython's perf trampoline frames name it too, with the
    // perf map ("perf-2509.map") as their module, and they are the same function as the recorder's frames.
    bool isPython = isPythonFrame(symbol);
    std::string module = isPython ? std::string(pythonFileOf(python)) : std::string(samples_.name(owner.module));
    std::string key = std::string(python.function) + '\n' + (isPython ? std::string() : module);
    Tally& tally = tallyOf(key, python.function, module);
    ++tally.samples;
    ++tally.leaves[functionLabel(samples_.name(stack.front().symbol))];
    if (!python.line.empty()) ++tally.lines[lineLabel(python)];
  }
  // A sample put down to a bracketed NAME ("[unresolved]", "[no call stack]").
  void addNamed(const std::string& name) {
    auto [it, added] = index_.try_emplace(name, tallies_.size());
    if (added) tallies_.push_back({name, "", 0, {}, {}});
    ++tallies_[it->second].samples;
  }

  std::vector<FunctionShare> shares(int64_t working) const {
    double whole = static_cast<double>(std::max<int64_t>(working, 1));
    std::vector<FunctionShare> functions;
    for (const Tally& tally : tallies_) {
      functions.push_back({tally.name, tally.module, tally.samples, static_cast<double>(tally.samples) / whole,
                           sharesOf(tally.leaves, whole), sharesOf(tally.lines, whole)});
    }
    std::sort(functions.begin(), functions.end(), [](const FunctionShare& a, const FunctionShare& b) {
      if (a.samples != b.samples) return a.samples > b.samples;
      return a.name < b.name;
    });
    return functions;
  }

 private:
  Tally& tallyOf(const std::string& key, std::string_view function, const std::string& module) {
    auto [it, added] = index_.try_emplace(key, tallies_.size());
    if (added) tallies_.push_back({functionLabel(function), module, 0, {}, {}});
    return tallies_[it->second];
  }

  const CpuSamples& samples_;
  std::unordered_map<std::string, size_t> index_;
  std::vector<Tally> tallies_;
};

}  // namespace

std::string functionLabel(std::string_view symbol) {
  return frameLabel(isPythonFrame(symbol) ? splitLine(symbol).function : symbol);
}

FunctionShares functionShares(const CpuSamples& samples) {
  FunctionShares result;
  result.samples = static_cast<int64_t>(samples.size());
  CleanStacks clean(samples);
  result.junkFrames = clean.junkFrames();
  FunctionTallies tallies(samples);
  std::map<std::string, PoolTally> pools;
  for (size_t s = 0; s < samples.size(); ++s) {
    auto stack = clean.stackOf(s);
    if (clean.allJunk(s)) {
      ++result.unresolvedSamples;
      tallies.addNamed("[unresolved]");
    } else if (stack.empty()) {
      tallies.addNamed("[no call stack]");
    } else if (auto pool = idlePoolOf(samples, stack)) {
      PoolTally& tally = pools[std::string(*pool)];
      ++tally.samples;
      tally.threads.insert(samples.globalTid[s]);
    } else {
      tallies.add(stack);
    }
  }
  for (const auto& [pool, tally] : pools) {
    result.idlePoolSamples += tally.samples;
    result.idlePools.push_back({pool, tally.samples,
                                static_cast<double>(tally.samples) / static_cast<double>(result.samples),
                                static_cast<int64_t>(tally.threads.size())});
  }
  std::stable_sort(result.idlePools.begin(), result.idlePools.end(),
                   [](const IdlePoolShare& a, const IdlePoolShare& b) { return a.samples > b.samples; });
  result.workingSamples = result.samples - result.idlePoolSamples;
  result.functions = tallies.shares(result.workingSamples);
  return result;
}

std::string idlePoolsText(const FunctionShares& shares) {
  std::string text;
  for (const IdlePoolShare& pool : shares.idlePools) {
    if (!text.empty()) text += "; ";
    text += "idle thread-pool threads (" + pool.pool + "): " + percentText(pool.share) + " of samples, " +
            std::to_string(pool.threads) + (pool.threads == 1 ? " thread" : " threads");
  }
  return text;
}

}  // namespace gpuscope
