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

bool isProgramPythonFrame(std::string_view symbol) {
  if (!isPythonFrame(symbol)) return false;
  for (std::string_view library : {"/site-packages/", "/dist-packages/", "<frozen ", "/lib/python3"}) {
    if (symbol.find(library) != std::string_view::npos) return false;
  }
  return true;
}

std::string leafWithPythonCaller(const CpuSamples& samples, std::span<const SampleFrame> stack) {
  if (stack.empty()) return "[no call stack]";
  auto symbolAt = [&](size_t depth) { return samples.name(stack[depth].symbol); };
  size_t python = stack.size(), program = stack.size();
  for (size_t depth = 0; depth < stack.size(); ++depth) {
    if (python == stack.size() && isPythonFrame(symbolAt(depth))) python = depth;
    if (isProgramPythonFrame(symbolAt(depth))) {
      program = depth;
      break;
    }
  }
  std::string label = frameLabel(symbolAt(0));
  if (python != stack.size() && python != 0) label = frameLabel(symbolAt(python)) + " → " + label;
  if (program != stack.size() && program != python && program != 0)
    label = frameLabel(symbolAt(program)) + " → " + label;
  return label;
}

}  // namespace gpuscope
