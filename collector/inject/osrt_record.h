#pragma once
// Recording one OS-runtime call: the threshold, gpuscope's own calls left out, and the glibc
// backtrace() of a call that lasted past --osrt-backtrace-threshold. Used by the interposer's wrappers.
#include <cstddef>
#include <cstdint>

#include "collector/inject/process_recorder.h"
#include "collector/transport/osrt_functions.h"

namespace gpuscope::inject {

// The backtrace of a call to CALLED made from CALLER, into FRAMES: CALLED's address, then CALLER and its
// callers, unwound by libgcc from the .eh_frame tables (so code built without frame pointers unwinds too),
// the interposer's own frames left out. Returns the frames written. Runs only for calls that lasted past
// --osrt-backtrace-threshold, after they returned; the thread counts as inside the recorder meanwhile, so
// what the unwinder calls is not recorded.
size_t captureBacktrace(const void* called, const void* caller, uint64_t* frames, size_t depth);

// Records FUNCTION's call over [START, END) with RESULT when it lasted at least the threshold. CALLER is the
// address the call returns to: a call from gpuscope's own code (CUPTI) is left out. CALLED, the real
// function, begins the call's backtrace when it lasted past --osrt-backtrace-threshold. errno is preserved.
void recordCall(ProcessRecorder* recorder, transport::OsrtFunction function, int64_t start, int64_t end, int64_t result,
                const void* caller = nullptr, const void* called = nullptr);

}  // namespace gpuscope::inject
