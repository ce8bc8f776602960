#pragma once
// Keeping a merge's inputs apart: each input gets its own values in the hw field of globalPid/globalTid
// (core/model/global_id.h) and its own range of correlation ids, so two ranks with the same pid, or the
// same correlation id, never meet in the merged file.
#include <cstdint>
#include <string>
#include <vector>

namespace gpuscope {

class Database;

// The ids one input uses: the largest hw field among its global ids (most files use only 0), and its
// largest correlation id (-1 when it has none).
struct InputIdSpan {
  uint32_t hwMax = 0;
  int64_t correlationMax = -1;
};

struct InputIdOffsets {
  uint32_t hwAdd = 0;          // added to the hw field of each of its global ids
  int64_t correlationAdd = 0;  // added to each of its correlation ids
};

// The span of the trace DB, over every global-id and correlation column of the tables a merge copies.
// Throws TraceError with one sentence for an id that is not an integer.
InputIdSpan readIdSpan(const Database& db);

// Offsets that give each input ids no other input has: input i starts where input i-1's ids end, the
// first input keeps its own. Throws TraceError with one sentence when the inputs need more hw values than
// the field holds (global_id::kHwValues) or more correlation ids than nsys's 32 bits.
std::vector<InputIdOffsets> assignIdOffsets(const std::vector<InputIdSpan>& spans);

}  // namespace gpuscope
