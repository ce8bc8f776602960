#pragma once
// AnalysisRule: one question asked of a trace ("are there synchronous memcpys?"), with options
// given as `-r id:key=value:key=value`, answered as a Finding. Rules read the trace file through
// SQL, as nsys's expert-system rules do, so their answers can be compared with nsys's byte for byte.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/finding.h"
#include "core/db/sqlite_database.h"
#include "core/model/time_interval.h"

namespace gpuscope {

// An option a rule accepts, with its default (as text) and what it means.
struct RuleOption {
  std::string name;
  std::string defaultValue;
  std::string description;
};

// What a rule is narrowed to beyond its options, where a caller runs it on a part of a file: one rank's
// processes (global_id::processOf values, sorted; empty: every process) and the window that rank's verdict
// judged (none: the whole file).
struct RuleScope {
  std::vector<int64_t> processes;
  std::optional<TimeInterval> window;
};

// The options given for one rule, checked against what the rule accepts.
class RuleOptions {
 public:
  RuleOptions() = default;
  // VALUES maps option names to their text; throws TraceError naming RULE and the option when a
  // name is not among ACCEPTED.
  RuleOptions(std::string_view rule, std::map<std::string, std::string> values,
              const std::vector<RuleOption>& accepted);

  // The option as an integer (its default when not given); throws TraceError when it is not one.
  int64_t integer(std::string_view name) const;
  double real(std::string_view name) const;
  std::string text(std::string_view name) const;
  bool given(std::string_view name) const { return values_.count(std::string(name)) > 0; }
  bool accepts(std::string_view name) const { return defaults_.count(std::string(name)) > 0; }
  // A copy with NAME set to VALUE (NAME must be accepted).
  RuleOptions with(const std::string& name, const std::string& value) const;
  // A copy narrowed to SCOPE; analysisWindow (analysis_window.h) applies it.
  RuleOptions scopedTo(RuleScope scope) const;
  const RuleScope& scope() const { return scope_; }

 private:
  std::string rule_;
  std::map<std::string, std::string> values_;    // given
  std::map<std::string, std::string> defaults_;  // accepted, with defaults
  RuleScope scope_;
};

class AnalysisRule {
 public:
  virtual ~AnalysisRule() = default;
  virtual std::string_view id() const = 0;
  virtual std::string_view title() const = 0;
  // One paragraph: what the rule looks for, why it matters, and what to do.
  virtual std::string_view description() const = 0;
  // The options every nsys rule takes (rows, start, end, nvtx) and the rule's own.
  virtual std::vector<RuleOption> options() const;
  virtual Finding run(const Database& db, const RuleOptions& options) const = 0;
};

}  // namespace gpuscope
