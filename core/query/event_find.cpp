#include "core/query/event_find.h"

#include <algorithm>
#include <regex>

#include "core/error.h"

namespace gpuscope {
namespace {

char lowerAscii(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

std::string lowered(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), lowerAscii);
  return out;
}

bool containsIgnoringCase(std::string_view haystack, std::string_view loweredNeedle) {
  auto it = std::search(haystack.begin(), haystack.end(), loweredNeedle.begin(), loweredNeedle.end(),
                        [](char a, char b) { return lowerAscii(a) == b; });
  return it != haystack.end();
}

}  // namespace

struct NamePattern::Regex {
  std::regex re;
};

NamePattern::NamePattern(std::string_view pattern, FindMode mode, bool caseSensitive)
    : pattern_(caseSensitive || mode == FindMode::Regex ? std::string(pattern) : lowered(pattern)),
      mode_(mode),
      caseSensitive_(caseSensitive) {
  if (mode_ == FindMode::Regex && !pattern_.empty()) {
    auto flags = std::regex::ECMAScript | std::regex::optimize;
    if (!caseSensitive_) flags |= std::regex::icase;
    try {
      regex_ = std::make_unique<Regex>(Regex{std::regex(pattern_, flags)});
    } catch (const std::regex_error& error) {
      throw TraceError("the regular expression '" + pattern_ + "' is not valid: " + error.what() + ".");
    }
  }
}

NamePattern::~NamePattern() = default;
NamePattern::NamePattern(NamePattern&&) noexcept = default;
NamePattern& NamePattern::operator=(NamePattern&&) noexcept = default;

bool NamePattern::matches(std::string_view name) const {
  if (pattern_.empty()) return false;
  if (mode_ == FindMode::Regex) return std::regex_search(name.begin(), name.end(), regex_->re);
  if (caseSensitive_) return name.find(pattern_) != std::string_view::npos;
  return containsIgnoringCase(name, pattern_);
}

FindResult::FindResult(std::vector<EventRef> matches, std::vector<TimeNs> starts)
    : matches_(std::move(matches)), starts_(std::move(starts)) {}

std::optional<size_t> FindResult::firstAtOrAfter(TimeNs t) const {
  if (matches_.empty()) return std::nullopt;
  size_t i = static_cast<size_t>(std::lower_bound(starts_.begin(), starts_.end(), t) - starts_.begin());
  return i == matches_.size() ? 0 : i;
}

std::optional<size_t> FindResult::lastAtOrBefore(TimeNs t) const {
  if (matches_.empty()) return std::nullopt;
  size_t i = static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), t) - starts_.begin());
  return i == 0 ? matches_.size() - 1 : i - 1;
}

std::optional<size_t> FindResult::indexOf(EventRef event, TimeNs start) const {
  // Matches sharing a start time are few: search only among them.
  auto lo = std::lower_bound(starts_.begin(), starts_.end(), start);
  for (auto it = lo; it != starts_.end() && *it == start; ++it) {
    size_t i = static_cast<size_t>(it - starts_.begin());
    if (matches_[i] == event) return i;
  }
  return std::nullopt;
}

std::vector<bool> matchNames(const std::vector<std::string>& strings, const NamePattern& pattern) {
  std::vector<bool> matching(strings.size(), false);
  for (size_t i = 0; i < strings.size(); ++i) matching[i] = pattern.matches(strings[i]);
  return matching;
}

FindResult findEvents(const std::vector<Track>& tracks, const std::vector<bool>& matchingNames) {
  struct Hit {
    TimeNs start;
    EventRef ref;
  };
  std::vector<Hit> hits;
  for (size_t t = 0; t < tracks.size(); ++t) {
    const Track& track = tracks[t];
    for (size_t l = 0; l < track.lanes.size(); ++l) {
      const Lane& lane = track.lanes[l];
      for (size_t i = 0; i < lane.size(); ++i) {
        StringId id = lane.name[i];
        // Kernels also match by their demangled name, which rides in the style column (see Lane).
        StringId longId = track.kind == TrackKind::GpuKernels && i < lane.style.size() ? lane.style[i] : id;
        bool hit = (id < matchingNames.size() && matchingNames[id]) ||
                   (longId < matchingNames.size() && matchingNames[longId]);
        if (hit) {
          hits.push_back(
              {lane.start[i], EventRef{static_cast<uint32_t>(t), static_cast<uint32_t>(l), static_cast<uint32_t>(i)}});
        }
      }
    }
  }
  std::sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) {
    if (a.start != b.start) return a.start < b.start;
    if (a.ref.track != b.ref.track) return a.ref.track < b.ref.track;
    if (a.ref.lane != b.ref.lane) return a.ref.lane < b.ref.lane;
    return a.ref.index < b.ref.index;
  });
  std::vector<EventRef> matches;
  std::vector<TimeNs> starts;
  matches.reserve(hits.size());
  starts.reserve(hits.size());
  for (const Hit& hit : hits) {
    matches.push_back(hit.ref);
    starts.push_back(hit.start);
  }
  return FindResult(std::move(matches), std::move(starts));
}

FindResult findEvents(const Trace& trace, const NamePattern& pattern) {
  if (pattern.empty()) return {};
  std::vector<bool> matching(trace.stringCount(), false);
  bool any = false;
  for (size_t i = 0; i < matching.size(); ++i) {
    matching[i] = pattern.matches(trace.string(static_cast<StringId>(i)));
    any = any || matching[i];
  }
  if (!any) return {};
  return findEvents(trace.tracks(), matching);
}

}  // namespace gpuscope
