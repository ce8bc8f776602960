#include "app/cli/time_options.h"

#include <optional>

#include "core/analysis/analysis_rule.h"
#include "core/analysis/analysis_window.h"
#include "core/analysis/verdict/judged_window.h"
#include "core/error.h"
#include "core/model/time_text.h"

namespace gpuscope::cli {

TimeInterval rangeOption(const Database& db, const std::string& text) {
  size_t colon = text.find(':');
  auto from = colon == std::string::npos ? std::nullopt : parseDuration(text.substr(0, colon));
  auto to = colon == std::string::npos ? std::nullopt : parseDuration(text.substr(colon + 1));
  if (!from || !to || *to <= *from)
    throw TraceError("--range wants FROM:TO from the trace start with FROM < TO, like 10ms:20ms, not '" + text + "'.");
  TimeNs start = traceStartNs(db);
  return {start + *from, start + *to};
}

TimeInterval nvtxOption(const Database& db, const std::string& spec, const std::string& command) {
  RuleOptions nvtx(command, {{"nvtx", spec}}, {{"start", "", ""}, {"end", "", ""}, {"nvtx", "", ""}});
  AnalysisWindow window = analysisWindow(db, nvtx);
  return {window.begin, window.end};
}

}  // namespace gpuscope::cli
