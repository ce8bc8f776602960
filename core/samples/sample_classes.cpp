#include "core/samples/sample_classes.h"

#include <algorithm>
#include <array>

namespace gpuscope {
namespace {

bool startsWithAny(std::string_view text, std::span<const std::string_view> prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(), [text](std::string_view p) { return text.starts_with(p); });
}

// "libc.so.6" of "/usr/lib/x86_64-linux-gnu/libc.so.6".
std::string_view baseName(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// Where a thread waits or yields the CPU: the frames between a pool's wait loop and the leaf.
bool isWaitFrame(const CpuSamples& samples, const SampleFrame& frame) {
  if (frame.flags & SampleFrame::kKernelMode) return true;
  std::string_view symbol = samples.name(frame.symbol);
  static constexpr std::array<std::string_view, 19> kWaits = {
      "sched_yield",      "__sched_yield", "__GI___sched_yield", "syscall",         "futex",
      "__futex",          "do_futex_wait", "__lll_lock_wait",    "pthread_cond_",   "__pthread_cond_",
      "___pthread_cond_", "nanosleep",     "__nanosleep",        "clock_nanosleep", "__clock_nanosleep",
      "usleep",           "sem_wait",      "__new_sem_wait",     "sem_timedwait"};
  if (startsWithAny(symbol, kWaits)) return true;
  // An unnamed address in the C library or the kernel under a pool's loop is its yield or futex call.
  std::string_view module = baseName(samples.name(frame.module));
  bool systemModule = module.starts_with("libc.so") || module.starts_with("libpthread") ||
                      module == "[kernel.kallsyms]" || module == "[vdso]";
  return (frame.flags & SampleFrame::kUnresolved) && systemModule;
}

// The pool whose wait loop FRAME is, if it is one.
std::optional<std::string_view> poolOfLoop(const CpuSamples& samples, const SampleFrame& frame) {
  std::string_view symbol = samples.name(frame.symbol);
  if (symbol == "blas_thread_server") return "OpenBLAS blas_thread_server";
  bool gompWait = symbol.starts_with("gomp_") && (symbol.find("wait") != std::string_view::npos ||
                                                  symbol == "gomp_thread_start" || symbol == "gomp_mutex_lock_slow");
  bool inLibgomp = baseName(samples.name(frame.module)).starts_with("libgomp");
  if (gompWait || (inLibgomp && (symbol == "do_wait" || symbol == "do_spin"))) return "OpenMP (libgomp)";
  if (symbol.starts_with("__kmp_")) {
    for (std::string_view word : {"wait", "barrier", "suspend", "yield", "sleep"}) {
      if (symbol.find(word) != std::string_view::npos) return "OpenMP (Intel/LLVM __kmp)";
    }
  }
  return std::nullopt;
}

}  // namespace

bool isJunkFrame(std::string_view symbol) {
  if (symbol == "0xffffffffffffffff") return true;
  // A bare file name with a data file's extension: no code lives there.
  if (symbol.find_first_of(" ()<>:") != std::string_view::npos) return false;
  size_t dot = symbol.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return false;
  static constexpr std::array<std::string_view, 20> kDataExtensions = {
      ".txt", ".json", ".md",  ".rst", ".csv", ".yaml", ".yml", ".toml", ".cfg",  ".ini",
      ".dat", ".pkl",  ".npy", ".npz", ".pt",  ".pth",  ".log", ".xml",  ".html", ".safetensors"};
  std::string_view extension = symbol.substr(dot);
  return std::find(kDataExtensions.begin(), kDataExtensions.end(), extension) != kDataExtensions.end();
}

std::optional<std::string_view> idlePoolOf(const CpuSamples& samples, std::span<const SampleFrame> stack) {
  for (const SampleFrame& frame : stack) {
    if (auto pool = poolOfLoop(samples, frame)) return pool;
    if (!isWaitFrame(samples, frame)) return std::nullopt;  // work: a kernel the pool handed this thread
  }
  return std::nullopt;
}

CleanStacks::CleanStacks(const CpuSamples& samples) {
  std::vector<int8_t> junk(samples.names.size(), -1);  // by name id: -1 not judged yet
  auto isJunk = [&](uint32_t symbol) {
    if (junk[symbol] < 0) junk[symbol] = isJunkFrame(samples.name(symbol)) ? 1 : 0;
    return junk[symbol] == 1;
  };
  first_.reserve(samples.size() + 1);
  allJunk_.reserve(samples.size());
  for (size_t s = 0; s < samples.size(); ++s) {
    first_.push_back(static_cast<uint32_t>(frames_.size()));
    auto stack = samples.stackOf(s);
    for (const SampleFrame& frame : stack) {
      if (isJunk(frame.symbol)) {
        ++junkFrames_;
      } else {
        frames_.push_back(frame);
      }
    }
    allJunk_.push_back(!stack.empty() && frames_.size() == first_.back());
  }
  first_.push_back(static_cast<uint32_t>(frames_.size()));
}

}  // namespace gpuscope
