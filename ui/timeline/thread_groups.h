#pragma once
// Which of a process's threads the timeline shows where: the threads that worked (traced CUDA or NVTX
// calls, or a CPU kept busy) get rows of their own; the threads that did nothing (a pool's workers that
// waited all run, OpenBLAS threads that only spun idle) fold into one "N idle threads" row; the profiler's
// own threads (core/identity/profiler_threads.h) are hidden until asked for.
#include <vector>

#include "core/model/trace.h"
#include "core/samples/host_activity.h"
#include "core/samples/sample_classes.h"

namespace gpuscope::ui {

struct ThreadGroups {
  std::vector<ThreadInfo> working;   // the process-wide row and the main thread first, then by tid
  std::vector<ThreadInfo> idle;      // by tid
  std::vector<ThreadInfo> profiler;  // by tid
};

// STACKS: HOST's samples without their unwinder junk (CleanStacks of host.samples()), built once per layout.
ThreadGroups groupThreads(const Trace& trace, const ProcessInfo& process, const HostActivity& host,
                          const CleanStacks& stacks);

// Whether THREAD made no CUDA or NVTX call (OS-runtime calls at most) and kept no CPU busy, or spent nine in
// ten of its samples spinning in an idle thread pool's wait loop (core/samples/sample_classes.h): its row
// starts collapsed, and a thread (not the process-wide row) that only waited is one of the idle ones.
bool onlyWaited(const Trace& trace, const ThreadInfo& thread, const HostActivity& host, const CleanStacks& stacks);

// How much a thread did, to choose which threads stay open when the rows do not fit: its traced events and
// its CPU samples.
int64_t threadWeight(const Trace& trace, const ThreadInfo& thread, const HostActivity& host);

}  // namespace gpuscope::ui
