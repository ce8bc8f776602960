#pragma once
// What a sampled stack is before it is put down to a function: the frames an unwinder made up (junk) and
// the samples of idle thread-pool threads, which spin or sleep in their pool's wait loop while the working
// threads run. One home for both, used by the per-function shares (function_shares.h), and through them by
// the flat view and the verdict.
//
// Junk frames: an address of all ones (0xffffffffffffffff, an unwinder's end of chain, often a stack's root),
// and "functions" named like a data file (LICENSE.txt, config.json): an address resolved into a mapped file
// that holds no code, which a symbolizer names after the file.
//
// Idle pool: the innermost frame that is not a wait or yield primitive (sched_yield, futex, nanosleep,
// pthread_cond_wait, a kernel frame, an unresolved libc address) is a pool's wait loop: OpenBLAS's
// blas_thread_server, libgomp's barrier and thread waits, or Intel/LLVM OpenMP's __kmp_ waits. A pool thread
// running a kernel it was handed (dgemm_kernel under blas_thread_server) is working.
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/samples/cpu_samples.h"

namespace gpuscope {

// A frame the unwinder made up, as above.
bool isJunkFrame(std::string_view symbol);

// "OpenBLAS blas_thread_server", "OpenMP (libgomp)", "OpenMP (Intel/LLVM __kmp)": the pool whose wait loop
// STACK (leaf first, junk frames dropped) was in; nullopt for a stack doing work.
std::optional<std::string_view> idlePoolOf(const CpuSamples& samples, std::span<const SampleFrame> stack);

// SAMPLES' stacks without their junk frames, with the frames dropped counted; built once, so that each name
// is judged once whatever the number of samples.
class CleanStacks {
 public:
  explicit CleanStacks(const CpuSamples& samples);
  // Sample S's stack without junk frames, leaf first; empty where every frame was junk (or it had none).
  std::span<const SampleFrame> stackOf(size_t s) const {
    return {frames_.data() + first_[s], frames_.data() + first_[s + 1]};
  }
  // Whether sample S had frames and all of them were junk: an "[unresolved]" stack.
  bool allJunk(size_t s) const { return allJunk_[s]; }
  int64_t junkFrames() const { return junkFrames_; }

 private:
  std::vector<SampleFrame> frames_;
  std::vector<uint32_t> first_;
  std::vector<bool> allJunk_;
  int64_t junkFrames_ = 0;
};

}  // namespace gpuscope
