#pragma once
// Finding events by name: a substring or regular-expression match, results in time order.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/trace.h"

namespace gpuscope {

enum class FindMode { Substring, Regex };

// A compiled name pattern. Matching is case-insensitive unless caseSensitive is set.
class NamePattern {
 public:
  // Throws TraceError with one sentence when a regular expression does not compile.
  NamePattern(std::string_view pattern, FindMode mode, bool caseSensitive = false);
  ~NamePattern();
  NamePattern(NamePattern&&) noexcept;
  NamePattern& operator=(NamePattern&&) noexcept;

  bool matches(std::string_view name) const;
  bool empty() const { return pattern_.empty(); }

 private:
  struct Regex;
  std::string pattern_;  // lowered when case-insensitive
  FindMode mode_;
  bool caseSensitive_;
  std::unique_ptr<Regex> regex_;
};

// The matches of one search, ordered by start time (then track, lane, index), with stepping.
class FindResult {
 public:
  FindResult() = default;
  explicit FindResult(std::vector<EventRef> matches, std::vector<TimeNs> starts);

  const std::vector<EventRef>& matches() const { return matches_; }
  size_t size() const { return matches_.size(); }
  bool empty() const { return matches_.empty(); }
  const EventRef& operator[](size_t i) const { return matches_[i]; }
  TimeNs startOf(size_t i) const { return starts_[i]; }

  // Position of the first match starting at or after T, wrapping to 0 past the last one.
  std::optional<size_t> firstAtOrAfter(TimeNs t) const;
  // Position of the last match starting at or before T, wrapping to the last one before the first.
  std::optional<size_t> lastAtOrBefore(TimeNs t) const;
  // Where EVENT, which starts at START, sits among the matches, if it is one.
  std::optional<size_t> indexOf(EventRef event, TimeNs start) const;
  // The next / previous position, wrapping around.
  size_t next(size_t i) const { return matches_.empty() ? 0 : (i + 1) % matches_.size(); }
  size_t previous(size_t i) const { return matches_.empty() ? 0 : (i + matches_.size() - 1) % matches_.size(); }

 private:
  std::vector<EventRef> matches_;
  std::vector<TimeNs> starts_;
};

// Events of TRACKS whose name id has MATCHING_NAMES[id] set (ids past its end do not match); kernels match
// by their short or their demangled name.
// The pattern is tested once per distinct string, not once per event.
FindResult findEvents(const std::vector<Track>& tracks, const std::vector<bool>& matchingNames);
// Which of STRINGS match PATTERN, by string id.
std::vector<bool> matchNames(const std::vector<std::string>& strings, const NamePattern& pattern);
// Events of TRACE whose name matches PATTERN; an empty pattern matches nothing.
FindResult findEvents(const Trace& trace, const NamePattern& pattern);

}  // namespace gpuscope
