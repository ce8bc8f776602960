#pragma once
// Small traces for the timeline tests: a hand-made nsys-shaped file with known times, and the fixtures; and
// the event area the tests lay them out in.
#include <QString>
#include <memory>
#include <string>

#include "core/model/trace.h"

namespace gpuscope::ui::timeline_test {

// The event area of the tests' views and geometries: right of the 240 px labels, below the 30 px ruler,
// 1000 px wide, so that a view of [0, 10000) ns is 10 ns per pixel.
inline constexpr int kLeft = 240;
inline constexpr int kRuler = 30;
inline constexpr int kAreaWidth = 1000;

// The hand-made trace (times in ns; the trace starts at 500):
//   process 100 "app", thread 100 "main":
//     CUDA API: cudaLaunchKernel [1000, 2000) corr 1, cudaLaunchKernel [3000, 3500) corr 2,
//               cudaMemcpy [5000, 9000) corr 3
//     NVTX: "step" [500, 9500) in red (0xFFFF0000), "forward" [900, 4000) without colour (lane 1)
//   device 0, stream 7: kernels kernelA [2500, 6000) corr 1, kernelB [6500, 8000) corr 2;
//                       memory: a host-to-device copy [9000, 9900) corr 3
//   device 0, stream 8: 1000 "tiny" kernels of 2 ns, one every 3 ns, from 10000 to 12998
struct HandMade {
  static constexpr TimeNs kApi1Start = 1000, kApi1End = 2000;
  static constexpr TimeNs kApi2Start = 3000, kApi2End = 3500;
  static constexpr TimeNs kKernelAStart = 2500, kKernelAEnd = 6000;
  static constexpr TimeNs kKernelBStart = 6500, kKernelBEnd = 8000;
  static constexpr TimeNs kTinyStart = 10000;
  static constexpr int kTinyCount = 1000;
  static constexpr uint32_t kStepColor = 0xFFFF0000u;
};

// Writes the hand-made trace to a new file under the system temp folder and returns its path.
std::string writeHandMadeTrace();
// Loads the hand-made trace (written once per test run).
std::shared_ptr<const Trace> loadHandMadeTrace();
std::shared_ptr<const Trace> loadFixture(const char* relative);  // e.g. "nsys/transpose.sqlite"

// The track of TRACE of KIND whose first event is named NAME, or -1.
int findTrack(const Trace& trace, TrackKind kind, const std::string& firstEventName);
// The id of a string of TRACE, or the string count when absent.
StringId stringId(const Trace& trace, const std::string& text);

}  // namespace gpuscope::ui::timeline_test
