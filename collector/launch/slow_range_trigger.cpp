#include "collector/launch/slow_range_trigger.h"

#include <algorithm>
#include <cstdlib>

#include "core/analysis/verdict/judged_window.h"
#include "core/error.h"

namespace gpuscope {

SlowRangeRule parseSlowRangeRule(const std::string& text) {
  std::string problem = "--trigger '" + text + "' is not slow:NVTX_NAME:FACTORx (as in slow:step:2x)";
  if (!text.starts_with("slow:")) throw TraceError(problem);
  size_t last = text.rfind(':');
  if (last <= 5) throw TraceError(problem);
  std::string name = text.substr(5, last - 5);
  std::string factor = text.substr(last + 1);
  if (!factor.empty() && (factor.back() == 'x' || factor.back() == 'X')) factor.pop_back();
  char* end = nullptr;
  double value = std::strtod(factor.c_str(), &end);
  if (name.empty() || factor.empty() || *end != '\0' || !(value > 1.0) || value > 1000)
    throw TraceError(problem + ", with a factor above 1");
  return {stepGroupName(name), value};
}

std::optional<SlowRange> SlowRangeWatch::observe(std::string_view text, int64_t start, int64_t end) {
  // "step", "step N" and "step 3" all watch the "step N" ranges; "forward" watches "forward".
  std::string group = stepGroupName(text);
  if ((group != rule_.group && group != rule_.group + " N") || end <= start) return std::nullopt;
  int64_t duration = end - start;
  std::optional<SlowRange> slow;
  if (recent_.size() >= kWarmInstances) {
    std::vector<int64_t> sorted = recent_;
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<long>(sorted.size() / 2), sorted.end());
    int64_t median = sorted[sorted.size() / 2];
    if (median > 0 && static_cast<double>(duration) > rule_.factor * static_cast<double>(median))
      slow =
          SlowRange{std::string(text), start, end, median, static_cast<double>(duration) / static_cast<double>(median)};
  }
  recent_.push_back(duration);
  if (recent_.size() > kKept) recent_.erase(recent_.begin());
  return slow;
}

}  // namespace gpuscope
