#include "core/samples/frame_names.h"

namespace gpuscope {
namespace {

constexpr std::string_view kPythonPrefix = "py::";

// "libc.so.6" of "/usr/lib/x86_64-linux-gnu/libc.so.6".
std::string_view fileNameOf(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

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

std::string backtraceLine(std::string_view symbol, std::string_view modulePath, uint8_t flags) {
  std::string line = frameLabel(symbol);
  // A Python frame's label names its file and line already; its module is that file again.
  std::string_view module = fileNameOf(modulePath);
  if (!isPythonFrame(symbol) && !module.empty() && module != symbol) line += " — " + std::string(module);
  if (flags & SampleFrame::kUnresolved) line += " [unresolved]";
  if (flags & SampleFrame::kSpecial) line += " [special entry]";
  if (flags & SampleFrame::kKernelMode) line += " [kernel]";
  return line;
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
