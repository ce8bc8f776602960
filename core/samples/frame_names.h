#pragma once
// How a sampled frame is named for people. Python functions reach native stacks through CPython 3.12's
// perf trampoline (`python3 -X perf`), whose perf map names them "py::FUNCTION:FILE"; they are shown as
// "FUNCTION (FILE's name)", and the functions that matter are told with the Python code that called them.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/samples/cpu_samples.h"

namespace gpuscope {

bool isPythonFrame(std::string_view symbol);

// "FUNCTION (file.py)" for a Python frame, the symbol as it is otherwise.
std::string frameLabel(std::string_view symbol);

// A Python frame of the program's own code: not of the standard library, an installed package
// (site-packages, dist-packages) or CPython's frozen modules.
bool isProgramPythonFrame(std::string_view symbol);

// A frame as a backtrace line shows it (sampled stacks and the backtraces of OS-runtime calls alike):
// "pocketfft::exec — libpocketfft.so", "busy (train.py:17)", "0x7f6ac529cb84 — libc.so.6 [unresolved]".
// FLAGS: SampleFrame's.
std::string backtraceLine(std::string_view symbol, std::string_view module, uint8_t flags);

// The leaf of STACK, preceded by the innermost Python frame above it where there is one, and by the
// innermost frame of the program's own Python code where that is another: "prepare (train.py:12) → rfft
// (_pocketfft.py:101) → pocketfft::exec", "prepare (train.py:12) → sort", or "sort" alone.
std::string leafWithPythonCaller(const CpuSamples& samples, std::span<const SampleFrame> stack);

}  // namespace gpuscope
