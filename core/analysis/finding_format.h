#pragma once
// Writing findings: the evidence as nsys analyze's CSV (an empty file when nothing was found), as a
// terminal table with the rule's explanation, and as JSON with the ranges the viewer jumps to.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/analysis/finding.h"
#include "core/model/trace_types.h"

namespace gpuscope {

// Byte-identical to `nsys analyze --format csv` for nsys's rules: "" when there are no rows.
std::string findingCsv(const Finding& finding);
// The title, a verdict line, the explanation wrapped, and the evidence table for people when there is one
// (evidenceForPeople, times from TRACE_START), fitted to TABLE_WIDTH columns (0: no limit) as formatTextTable
// fits it.
std::string findingText(const Finding& finding, TimeNs traceStart, size_t tableWidth = 0);
// EVIDENCE as people read it: each "Start (ns)" column (nsys's timestamps, kept so in the CSV and the JSON)
// becomes "Start (s)", seconds from TRACE_START (traceStartNs: the origin of the viewer's times and of
// --range) to the microsecond, as every other time gpuscope shows.
ReportTable evidenceForPeople(const ReportTable& evidence, TimeNs traceStart);
// {"id", "severity", "title", "explanation", "suggestion", "found", "evidence": {...}, "ranges": [...]}.
nlohmann::ordered_json findingJson(const Finding& finding);

}  // namespace gpuscope
