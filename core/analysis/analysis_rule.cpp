#include "core/analysis/analysis_rule.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "core/error.h"

namespace gpuscope {

const char* severityName(Severity severity) {
  switch (severity) {
    case Severity::Info:
      return "info";
    case Severity::Warning:
      return "warning";
    case Severity::Critical:
      return "critical";
  }
  return "info";
}

RuleOptions::RuleOptions(std::string_view rule, std::map<std::string, std::string> values,
                         const std::vector<RuleOption>& accepted)
    : rule_(rule), values_(std::move(values)) {
  for (const RuleOption& option : accepted) defaults_[option.name] = option.defaultValue;
  for (const auto& [name, value] : values_) {
    if (defaults_.count(name)) continue;
    std::string known;
    for (const RuleOption& option : accepted) known += (known.empty() ? "" : ", ") + option.name;
    throw TraceError("Rule " + rule_ + " has no option '" + name + "'; its options are " + known + ".");
  }
}

RuleOptions RuleOptions::with(const std::string& name, const std::string& value) const {
  RuleOptions copy = *this;
  copy.values_[name] = value;
  return copy;
}

RuleOptions RuleOptions::scopedTo(RuleScope scope) const {
  RuleOptions copy = *this;
  copy.scope_ = std::move(scope);
  return copy;
}

std::string RuleOptions::text(std::string_view name) const {
  auto given = values_.find(std::string(name));
  if (given != values_.end()) return given->second;
  auto fallback = defaults_.find(std::string(name));
  return fallback != defaults_.end() ? fallback->second : std::string();
}

int64_t RuleOptions::integer(std::string_view name) const {
  std::string value = text(name);
  char* end = nullptr;
  errno = 0;
  long long parsed = std::strtoll(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || errno == ERANGE) {
    throw TraceError("Option " + std::string(name) + " of rule " + rule_ + " takes a whole number, not '" + value +
                     "'.");
  }
  return parsed;
}

double RuleOptions::real(std::string_view name) const {
  std::string value = text(name);
  char* end = nullptr;
  double parsed = std::strtod(value.c_str(), &end);
  if (value.empty() || *end != '\0' || !std::isfinite(parsed)) {
    throw TraceError("Option " + std::string(name) + " of rule " + rule_ + " takes a number, not '" + value + "'.");
  }
  return parsed;
}

std::vector<RuleOption> AnalysisRule::options() const {
  return {
      {"rows", "50", "Maximum number of rows to report; -1 for all"},
      {"start", "", "Analyze only events at or after this time (ns)"},
      {"end", "", "Analyze only events at or before this time (ns)"},
      {"nvtx", "", "Analyze only the time of an NVTX range: name[@domain][/index] (index counts from 1)"},
  };
}

}  // namespace gpuscope
