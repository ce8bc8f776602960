// Recording one OS-runtime call for the interposer (collector/inject/osrt_record.h).
#include "collector/inject/osrt_record.h"

#include <execinfo.h>

#include <algorithm>
#include <cerrno>
#include <iterator>
#include <string_view>

#include "collector/inject/recorder_internal.h"
#include "collector/transport/records.h"

namespace gpuscope::inject {

size_t captureBacktrace(const void* called, const void* caller, uint64_t* frames, size_t depth) {
  void* raw[transport::kMaxOsrtBacktraceFrames + 8];
  ThreadState& thread = t_threadState;
  uint32_t wasBusy = thread.busy;
  thread.busy = 1;
  int count = backtrace(raw, static_cast<int>(std::min(depth + 8, std::size(raw))));
  thread.busy = wasBusy;
  int first = 0;
  while (first < count && raw[first] != caller) ++first;
  if (first == count) return 0;  // the caller is not on the unwound stack: no backtrace rather than a wrong one
  size_t written = 0;
  frames[written++] = reinterpret_cast<uintptr_t>(called);
  for (int i = first; i < count && written < depth; ++i) frames[written++] = reinterpret_cast<uintptr_t>(raw[i]);
  return written;
}

void recordCall(ProcessRecorder* recorder, transport::OsrtFunction function, int64_t start, int64_t end, int64_t result,
                const void* caller, const void* called) {
  if (end - start < g_config.osrtThresholdNs) return;
  if (caller && isOwnCode(caller)) return;
  int savedErrno = errno;
  transport::OsRuntimeBody body{start, end, result};
  uint64_t frames[transport::kMaxOsrtBacktraceFrames];
  size_t depth = 0;
  if (called && caller && g_config.osrtBacktraceDepth > 0 && end - start >= g_config.osrtBacktraceThresholdNs)
    depth = captureBacktrace(called, caller, frames, static_cast<size_t>(g_config.osrtBacktraceDepth));
  std::string_view chain(reinterpret_cast<const char*>(frames), depth * sizeof frames[0]);
  if (depth > 0) {
    recorder->emit(transport::RecordType::OsRuntime, static_cast<uint16_t>(function), &body, sizeof body, {chain});
  } else {
    recorder->emit(transport::RecordType::OsRuntime, static_cast<uint16_t>(function), &body, sizeof body);
  }
  errno = savedErrno;
}

}  // namespace gpuscope::inject
