#include "core/analysis/finding_format.h"

#include <sstream>
#include <string_view>

#include "core/report/report_format.h"
#include "core/text/units.h"

namespace gpuscope {
namespace {

// TEXT wrapped at WIDTH columns, each line indented by INDENT.
std::string wrapped(const std::string& text, size_t width, const std::string& indent) {
  std::istringstream words(text);
  std::string word, line, out;
  while (words >> word) {
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += indent + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += indent + line + "\n";
  return out;
}

// A fact's value as JSON: null, an integer, a number or text.
nlohmann::ordered_json cellJson(const ReportCell& cell) {
  if (const auto* integer = std::get_if<int64_t>(&cell)) return *integer;
  if (const auto* real = std::get_if<double>(&cell)) return *real;
  if (const auto* text = std::get_if<std::string>(&cell)) return *text;
  return nullptr;
}

}  // namespace

std::string findingCsv(const Finding& finding) { return finding.found() ? formatCsv(finding.evidence) : std::string(); }

ReportTable evidenceForPeople(const ReportTable& evidence, TimeNs traceStart) {
  constexpr std::string_view kNsStart = "Start (ns)";
  ReportTable table = evidence;
  for (size_t column = 0; column < table.columns.size(); ++column) {
    std::string& title = table.columns[column].title;
    if (!title.ends_with(kNsStart)) continue;
    title.replace(title.size() - kNsStart.size(), kNsStart.size(), "Start (s)");
    table.columns[column].decimals = 6;
    for (auto& row : table.rows) {
      if (const auto* ns = column < row.size() ? std::get_if<int64_t>(&row[column]) : nullptr)
        row[column] = static_cast<double>(*ns - traceStart) / 1e9;
    }
  }
  return table;
}

std::string findingText(const Finding& finding, TimeNs traceStart, size_t tableWidth) {
  std::string out = " ** " + finding.title + " (" + finding.ruleId + "): ";
  if (!finding.found()) return out + "nothing found.\n";
  out += std::to_string(finding.evidence.rows.size()) + (finding.evidence.rows.size() == 1 ? " row" : " rows") + ", " +
         severityName(finding.severity);
  if (finding.atStakeNs > 0) out += ", " + formatDuration(finding.atStakeNs) + " at stake in the judged window";
  out += "\n\n";
  out += wrapped(finding.explanation, 96, "   ");
  if (!finding.suggestion.empty()) out += wrapped("Suggestion: " + finding.suggestion, 96, "   ");
  return out + "\n" + formatTextTable(evidenceForPeople(finding.evidence, traceStart), tableWidth);
}

nlohmann::ordered_json findingJson(const Finding& finding) {
  nlohmann::ordered_json json;
  json["id"] = finding.ruleId;
  json["severity"] = severityName(finding.severity);
  json["title"] = finding.title;
  json["explanation"] = finding.explanation;
  json["suggestion"] = finding.suggestion;
  json["found"] = finding.found();
  json["at_stake_ns"] = finding.atStakeNs;
  json["evidence"] = reportJson(finding.evidence);
  for (const auto& [name, value] : finding.facts) json["evidence"][name] = cellJson(value);
  nlohmann::ordered_json ranges = nlohmann::ordered_json::array();
  for (const FindingRange& range : finding.ranges) {
    nlohmann::ordered_json item;
    item["start"] = range.start;
    item["end"] = range.end;
    item["pid"] = range.pid;
    if (range.onGpu) {
      item["device"] = range.deviceId;
      item["context"] = range.contextId;
      if (range.streamId) item["stream"] = range.streamId;
    } else {
      item["tid"] = range.tid;
    }
    ranges.push_back(item);
  }
  json["ranges"] = ranges;
  return json;
}

}  // namespace gpuscope
