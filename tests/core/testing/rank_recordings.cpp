#include "tests/core/testing/rank_recordings.h"

#include "core/model/global_id.h"
#include "core/samples/sample_rows.h"
#include "core/schema/trace_schema.h"
#include "core/write/trace_writer.h"
#include "tests/core/testing/test_files.h"

namespace gpuscope::testing {

std::string writeRankRecording(const std::string& name, const RankRecording& recording) {
  std::string path = processTempPath("rank_recording", name);
  constexpr uint32_t kVm = 1;  // as gpuscope's recorder writes globalTid values
  const int64_t tid = global_id::make(0, kVm, kRankRecordingPid, kRankRecordingPid);
  const std::string python = "py::" + recording.function + ":/x/train.py:8";
  SampleRows rows;
  rows.vmId = kVm;
  rows.stacks.push_back({{python, "/x/train.py", 0, false, true}, {"main", "/usr/bin/python3", 0x1100, false, false}});
  for (int i = 0; i < recording.samples; ++i)
    rows.samples.push_back({2000 + 1000 * static_cast<TimeNs>(i), kRankRecordingPid, kRankRecordingPid, 0, 0});
  rows.osrtBacktraces.push_back(
      {{"poll", "/lib/libc.so.6", 0x20, false, false}, {python, "/x/train.py", 0, false, true}});
  TraceWriter writer(path);
  writer.setSessionStart(recording.sessionStartUtcNs);
  writer.addMeta(rank_meta::kRank, std::to_string(recording.rank));
  writer.addProcess({global_id::make(0, kVm, kRankRecordingPid, 0), kRankRecordingPid, "python3"});
  writer.addThreadName({tid, "python3"});
  writer.addOsRuntime({1000, 1000 + recording.lengthNs, tid, "poll", 0, 0, 1});
  writeSampleTables(writer, rows);
  writer.finish();
  return path;
}

}  // namespace gpuscope::testing
