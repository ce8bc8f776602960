#pragma once
// Which tables a merge copies, and what each of their columns holds: a time to shift, an id to keep apart
// per input, a string id to re-intern, or a value copied as it is.
#include <string_view>
#include <vector>

namespace gpuscope {

enum class ColumnRole {
  Plain,        // copied as it is
  Time,         // ns on the input's clock: shifted
  GlobalId,     // a globalPid or globalTid: the input's own hw field
  HwField,      // a hw field on its own (TARGET_INFO_CUDA_STREAM.hwId): moved with the global ids
  Correlation,  // a correlation id: offset per input
  StringRef,    // a StringIds id: mapped to the merged file's StringIds
};

// The tables of the trace schema whose rows a merge copies, in copying order: every table the readers
// use (GPU work, CUDA API, NVTX, OS runtime, processes, threads, streams, GPUs, measured roofs, and
// GPUSCOPE_KERNEL_METRICS). StringIds, the session start, META_DATA_EXPORT, GPUSCOPE_META and the ENUM_
// tables are written anew instead.
const std::vector<std::string_view>& mergedTables();

// Tables the merge writes itself, so an input's rows there are not reported as left behind.
bool rebuiltByMerge(std::string_view table);

ColumnRole columnRole(std::string_view table, std::string_view column);

}  // namespace gpuscope
