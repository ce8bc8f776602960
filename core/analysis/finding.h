#pragma once
// Finding: what one analysis rule found in a trace, with the evidence table and the time ranges
// the viewer can jump to. The CLI prints it (table, nsys-identical CSV, JSON); the GUI lists it.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/model/time_interval.h"
#include "core/model/trace_types.h"
#include "core/report/report_table.h"

namespace gpuscope {

enum class Severity { Info, Warning, Critical };
const char* severityName(Severity severity);

// Where a finding points: a time range, and the thread or the GPU context it is on (0 where unknown).
struct FindingRange {
  TimeNs start = 0;
  TimeNs end = 0;
  uint32_t pid = 0;
  uint32_t tid = 0;  // CPU-side findings (an API call)
  uint32_t deviceId = 0;
  uint32_t contextId = 0;
  uint32_t streamId = 0;
  bool onGpu = false;
};

struct Finding {
  std::string ruleId;  // e.g. "gpu_gaps"
  Severity severity = Severity::Info;
  std::string title;        // what the rule looks for, e.g. "GPU gaps"
  std::string explanation;  // why it matters
  std::string suggestion;   // what to change
  ReportTable evidence;     // the rows found; its columns are nsys's for nsys's rules
  // Named figures of what was found, for programs reading the JSON ({"rank": 1, ...} beside the rows).
  std::vector<std::pair<std::string, ReportCell>> facts;
  std::vector<FindingRange> ranges;
  // Where the time at stake lies when that is not all of RANGES (gpu_time_util: the unused part of each
  // underused chunk); empty: RANGES.
  std::vector<TimeInterval> stakePlaces;
  // The time this finding accounts for inside the window the verdict judged (finding_stake.h); the findings
  // are listed by it. 0 until measured, and for rules whose places are not time (HTA's breakdowns).
  TimeNs atStakeNs = 0;
  bool found() const { return !evidence.rows.empty(); }
};

}  // namespace gpuscope
