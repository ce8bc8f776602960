#pragma once
// The profiler's own threads in the program it recorded: gpuscope's collector names each thread it starts
// "gpuscope-…" (the CUPTI buffer thread is "gpuscope-cupti"). They are not the program's work, so the viewer
// hides them unless asked, as Nsight Systems keeps its own threads out of the way.
#include <string_view>

namespace gpuscope {

inline constexpr std::string_view kProfilerThreadPrefix = "gpuscope-";

inline bool isProfilerThread(std::string_view threadName) { return threadName.starts_with(kProfilerThreadPrefix); }

}  // namespace gpuscope
