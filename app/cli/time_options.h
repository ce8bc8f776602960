#pragma once
// The time options that several commands share: --range FROM:TO (from the trace start, with units, as the
// viewer's --range) and --nvtx NAME[@DOMAIN][/INDEX] (one NVTX range, the first of that name by default).
#include <string>

#include "core/model/time_interval.h"

namespace gpuscope {
class Database;
}

namespace gpuscope::cli {

// [start, end) on the trace's clock; throws TraceError with one sentence for text that is not FROM:TO.
TimeInterval rangeOption(const Database& db, const std::string& text);
// The NVTX range's [start, end); throws TraceError when the file has no such range.
TimeInterval nvtxOption(const Database& db, const std::string& spec, const std::string& command);

}  // namespace gpuscope::cli
