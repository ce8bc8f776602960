#include "core/samples/frame_names.h"

namespace gpuscope {
namespace {

constexpr std::string_view kPythonPrefix = "py::";

}  // namespace

bool isPythonFrame(std::string_view symbol) { return symbol.starts_with(kPythonPrefix); }

std::string frameLabel(std::string_view symbol) {
  if (!isPythonFrame(symbol)) return std::string(symbol);
  std::string_view rest = symbol.substr(kPythonPrefix.size());
  size_t colon = rest.find(':');
  if (colon == std::string_view::npos) return std::string(rest);
  std::string_view file = rest.substr(colon + 1);
  size_t slash = file.rfind('/');
  if (slash != std::string_view::npos) file = file.substr(slash + 1);
  return std::string(rest.substr(0, colon)) + " (" + std::string(file) + ")";
}

std::string leafWithPythonCaller(const CpuSamples& samples, std::span<const SampleFrame> stack) {
  if (stack.empty()) return "[no call stack]";
  std::string leaf = frameLabel(samples.name(stack.front().symbol));
  if (isPythonFrame(samples.name(stack.front().symbol))) return leaf;
  for (const SampleFrame& frame : stack.subspan(1)) {
    if (isPythonFrame(samples.name(frame.symbol))) return frameLabel(samples.name(frame.symbol)) + " → " + leaf;
  }
  return leaf;
}

}  // namespace gpuscope
