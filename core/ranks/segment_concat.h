#pragma once
// concatenateSegments: the segments of one recording (a flight recorder's, each a complete trace file of a
// few seconds, collector/launch/flight_recorder.h) written into one trace file on one clock. Unlike a merge
// of ranks, the segments share their processes, threads and correlation ids: only times move (each segment
// has its own trace time 0), strings are re-interned, and backtrace ids follow the ones before. The process,
// thread, device and stream tables (TableGroup::Metadata) come from the newest segment, which knows all of them.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/write/trace_writer.h"

namespace gpuscope {

struct TraceSegment {
  std::string path;
  int64_t shiftNs = 0;  // a row at trace time t in the segment is at t + shiftNs in the output
};

struct SegmentConcatSummary {
  int64_t rowsCopied = 0;
  int64_t kernels = 0;
  std::vector<std::string> notKept;  // one sentence each: tables or rows that could not be copied
};

struct SegmentConcatFile {
  WriterOptions writer;
  int64_t sessionStartUtcNs = 0;                          // the wall clock of the output's trace time 0
  std::vector<std::pair<std::string, std::string>> meta;  // GPUSCOPE_META rows
};

// Writes OUTPUT (replaced only once complete: written beside it, then renamed) from SEGMENTS, oldest first.
// Throws TraceError with one sentence when a segment is not a trace or the file cannot be written.
SegmentConcatSummary concatenateSegments(const std::vector<TraceSegment>& segments, const std::string& output,
                                         const SegmentConcatFile& file);

}  // namespace gpuscope
