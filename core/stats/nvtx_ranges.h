#pragma once
// NVTX ranges as the stats reports see them: closed push/pop and start/end ranges named "<domain>:<text>",
// and which of them enclose a CUDA API call made on the same thread.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpuscope {

class Database;

struct NvtxRange {
  int64_t start = 0;
  int64_t end = 0;
  int64_t globalTid = 0;  // the thread that opened it
  std::string name;       // domain name (empty for the default domain), ':', then the range's text
  bool pushPop = true;    // false for start/end ranges
  bool oneThread = true;  // opened and closed on the same thread (always so for push/pop)
};

// "PushPop" or "StartEnd", as nsys's Style column prints it.
std::string_view nvtxStyle(const NvtxRange& range);

// Every closed range of NVTX_EVENTS (the table is required), in no particular order.
std::vector<NvtxRange> loadNvtxRanges(const Database& db);

// A time span of a thread, e.g. an API call.
struct ThreadSpan {
  int64_t globalTid;
  int64_t start;
  int64_t end;
};

// For each span, the indices into RANGES of the one-thread ranges on the span's thread that contain it
// (range.start <= span.start and span.end <= range.end), outermost first.
std::vector<std::vector<uint32_t>> enclosingRanges(const std::vector<NvtxRange>& ranges,
                                                   const std::vector<ThreadSpan>& spans);

}  // namespace gpuscope
