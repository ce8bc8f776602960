#pragma once
// ProcessRecorder: the recording state of one traced process, shared by the OS-runtime interposer,
// the NVTX injection and the CUDA injection (which links against this library).
//
// It exists only when the process was started by `gpuscope record` (GPUSCOPE_SESSION_DIR is set);
// everywhere else get() returns null and the interposed functions just call through.
#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "collector/transport/records.h"

#define GPUSCOPE_EXPORT __attribute__((visibility("default")))

namespace gpuscope::inject {

// What `gpuscope record` asked for, read from the environment at load time.
struct RecorderConfig {
  bool traceOsrt = false;
  bool traceNvtx = false;
  bool traceCuda = false;
  int64_t osrtThresholdNs = 1000;
  // Calls lasting at least this long carry their backtrace (nsys's --osrt-backtrace-threshold, 80 us),
  // of at most osrtBacktraceDepth frames; depth 0 takes none.
  int64_t osrtBacktraceThresholdNs = 80'000;
  int osrtBacktraceDepth = 64;
  // OS-runtime calls of a child created by fork are recorded only after it executes a program, as
  // nsys's default (--trace-fork-before-exec=false); `record --osrt-fork-children` records them too.
  // CUDA and NVTX are recorded in fork children either way.
  bool osrtInForkChildren = false;
  // CUPTI's synchronization activity (`record --cuda-sync`): off by default, it slows every launch.
  bool traceCudaSync = false;
};

class GPUSCOPE_EXPORT ProcessRecorder {
 public:
  // The recorder of this process, or null when it is not being recorded.
  static ProcessRecorder* get();

  const RecorderConfig& config() const;
  uint32_t pid() const;

  // Writes a record from the calling thread (into its own ring). TID overrides the thread id the
  // record is about (0: the caller). WAITNS lets a tool thread wait for room instead of dropping.
  // A record emitted while the same thread is already emitting (a signal handler) is dropped.
  bool emit(transport::RecordType type, uint16_t aux, const void* body, uint32_t bodyBytes,
            std::initializer_list<std::string_view> texts = {}, uint32_t tid = 0, int64_t waitNs = 0);
  // Writes a definition (a string, NVTX domain, registered string or category name) into the shared
  // ring, before anything that refers to it, and keeps it so a forked child inherits it.
  bool define(transport::RecordType type, const void* body, uint32_t bodyBytes, std::string_view text);
  // A fresh process-local id (strings, NVTX domains, registered strings, ranges); never 0.
  uint64_t nextId();
  // The CUDA injection reports its state for the summary.
  void setCudaState(uint32_t state);
  // Counts a record lost because the thread was already inside the recorder.
  void countLost();
  // The CUDA injection disabled its activity kinds and wrote what CUPTI held for the gate's close at
  // GENERATION: the daemon may end that window's file.
  void acknowledgeGate(uint64_t generation);

  // The calling thread's id (cached).
  static uint32_t currentTid();
};

// Called by the CUDA injection around fork to drop state that belongs to the parent.
using ForkChildHandler = void (*)();
GPUSCOPE_EXPORT void registerForkChildHandler(ForkChildHandler handler);

// Called by the CUDA injection: HANDLER runs when the process ends without its atexit handlers
// (_exit, _Exit: Python's os._exit in a multiprocessing fork child), so what CUPTI still holds is
// written first. HOW names the way out. One handler; a second registration replaces the first.
using AbruptExitHandler = void (*)(const char* how);
GPUSCOPE_EXPORT void registerAbruptExitHandler(AbruptExitHandler handler);
// Runs the handler, if any (the interposed _exit and _Exit call it).
void runAbruptExitHandler(const char* how);

// Code whose OS-runtime calls are gpuscope's own work, as nsys leaves its own out of its trace: the
// CUDA injection names CUPTI's library and itself. A call made from there is not recorded, and a
// thread created from there is a tool thread (nothing it calls is recorded). [BEGIN, END) is one
// executable segment; 16 at most.
GPUSCOPE_EXPORT void addOwnCode(uintptr_t begin, uintptr_t end);
// True when ADDRESS lies in code named by addOwnCode.
bool isOwnCode(const void* address);
// Marks the calling thread as doing gpuscope's own work (ON) or not, and returns what it was: the
// CUDA injection sets CUPTI up with it on, so the calls that makes through other libraries are left out.
GPUSCOPE_EXPORT bool setOwnWork(bool on);

// The session clock (CLOCK_MONOTONIC, ns) as the interposer reads it, from the CPU's time-stamp
// counter where that is safe (collector/inject/tick_clock.h): for CUPTI's timestamp callback.
GPUSCOPE_EXPORT int64_t sessionTickNs();

}  // namespace gpuscope::inject
