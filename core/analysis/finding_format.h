#pragma once
// Writing findings: the evidence as nsys analyze's CSV (an empty file when nothing was found), as a
// terminal table with the rule's explanation, and as JSON with the ranges the viewer jumps to.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/analysis/finding.h"

namespace gpuscope {

// Byte-identical to `nsys analyze --format csv` for nsys's rules: "" when there are no rows.
std::string findingCsv(const Finding& finding);
// The title, a verdict line, the explanation wrapped, and the evidence table when there is one, fitted to
// TABLE_WIDTH columns (0: no limit) as formatTextTable fits it.
std::string findingText(const Finding& finding, size_t tableWidth = 0);
// {"id", "severity", "title", "explanation", "suggestion", "found", "evidence": {...}, "ranges": [...]}.
nlohmann::ordered_json findingJson(const Finding& finding);

}  // namespace gpuscope
