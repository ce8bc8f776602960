#pragma once
// `launch --trigger 'slow:NAME:FACTORx'`: a flight recorder writes its window when an instance of the NVTX
// range NAME takes more than FACTOR times the running median of its name. Names are grouped with digits read
// as one, as the verdict groups steps (stepGroupName: "step 812" is "step N"), so `slow:step:2x` watches every
// "step N" range; NAME may be given either way.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuscope {

struct SlowRangeRule {
  std::string group;  // the watched name, grouped ("step N", or "step": either watches "step 812")
  double factor = 2;
};

// The rule TEXT states; throws TraceError with one sentence when it is not `slow:NAME:FACTORx`.
SlowRangeRule parseSlowRangeRule(const std::string& text);

struct SlowRange {
  std::string text;  // the instance, as named ("step 812")
  int64_t start = 0, end = 0;
  int64_t medianNs = 0;  // of the instances before it
  double ratio = 0;      // its duration over that median
};

class SlowRangeWatch {
 public:
  explicit SlowRangeWatch(SlowRangeRule rule) : rule_(std::move(rule)) {}
  // A range ended. Returns it when it is slow: its group is the rule's, at least kWarmInstances instances came
  // before it, and it took more than the factor times their running median (of the last kKept).
  std::optional<SlowRange> observe(std::string_view text, int64_t start, int64_t end);

  static constexpr size_t kWarmInstances = 5;
  static constexpr size_t kKept = 101;

 private:
  SlowRangeRule rule_;
  std::vector<int64_t> recent_;  // durations, oldest first
};

}  // namespace gpuscope
