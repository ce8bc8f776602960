#include "ui/timeline/time_axis.h"

#include <gtest/gtest.h>

#include <string>

namespace gpuscope::ui {
namespace {

TEST(TimeAxis, StepIsTheSmallestOneTwoFiveAboveTheSpacing) {
  EXPECT_EQ(chooseRulerScale(1.0, 90).step, 100);
  EXPECT_EQ(chooseRulerScale(1.0, 100).step, 100);
  EXPECT_EQ(chooseRulerScale(1.0, 101).step, 200);
  EXPECT_EQ(chooseRulerScale(2.5, 90).step, 500);
  EXPECT_EQ(chooseRulerScale(0.001, 90).step, 1);  // never below a nanosecond
  EXPECT_EQ(chooseRulerScale(1e6, 90).step, 100000000);
  EXPECT_EQ(chooseRulerScale(1.0, 90).minorPerMajor, 5);
  EXPECT_EQ(chooseRulerScale(1.0, 150).minorPerMajor, 4);  // 200 ns
}

TEST(TimeAxis, UnitsSwitchAtATenthOfAUnit) {
  EXPECT_EQ(chooseRulerScale(0.5, 90).unit, TimeUnit::Ns);     // 50 ns
  EXPECT_EQ(chooseRulerScale(1.0, 90).unit, TimeUnit::Us);     // 100 ns = 0.1 us
  EXPECT_EQ(chooseRulerScale(500.0, 90).unit, TimeUnit::Us);   // 50 us
  EXPECT_EQ(chooseRulerScale(1000.0, 90).unit, TimeUnit::Ms);  // 100 us = 0.1 ms
  EXPECT_EQ(chooseRulerScale(1e6, 90).unit, TimeUnit::S);      // 100 ms = 0.1 s
  EXPECT_EQ(chooseRulerScale(1e9, 90).unit, TimeUnit::S);      // 100 s
}

TEST(TimeAxis, LabelsShowEveryStep) {
  RulerScale tenthUs = chooseRulerScale(1.0, 90);
  EXPECT_EQ(tenthUs.decimals, 1);
  EXPECT_EQ(formatRulerLabel(0, tenthUs), "0.0 us");
  EXPECT_EQ(formatRulerLabel(1500, tenthUs), "1.5 us");
  RulerScale ns = chooseRulerScale(0.5, 90);
  EXPECT_EQ(formatRulerLabel(1234550, ns), "1234550 ns");
  RulerScale ms = chooseRulerScale(20000.0, 90);  // 2 ms steps
  EXPECT_EQ(ms.unit, TimeUnit::Ms);
  EXPECT_EQ(ms.decimals, 0);
  EXPECT_EQ(formatRulerLabel(716000000, ms), "716 ms");
  RulerScale halfMs = chooseRulerScale(5000.0, 90);  // 0.5 ms steps
  EXPECT_EQ(formatRulerLabel(716500000, halfMs), "716.5 ms");
  RulerScale seconds = chooseRulerScale(2e7, 90);  // 2 s steps
  EXPECT_EQ(formatRulerLabel(14000000000, seconds), "14 s");
  RulerScale fine = chooseRulerScale(0.02, 90);  // 2 ns steps
  EXPECT_EQ(formatRulerLabel(-4, fine), "-4 ns");
  RulerScale tenthMs = chooseRulerScale(1000.0, 90);
  EXPECT_EQ(formatRulerLabel(-100000, tenthMs), "-0.1 ms");
}

TEST(TimeAxis, DeepIntoALongTraceTicksCountFromAnAnchor) {
  RulerScale halfUs = chooseRulerScale(5.0, 90);  // 0.5 us steps, 13.2 s into the trace
  ASSERT_EQ(halfUs.step, 500);
  TimeNs first = 13235760000;
  TimeNs anchor = rulerAnchor(first, first + 4500, halfUs);
  EXPECT_EQ(anchor, 13235760000);  // a multiple of the grain (10 us, the power of ten at ten steps)
  EXPECT_EQ(rulerTickLabel(first + 500, anchor, halfUs), "+0.5 us");
  EXPECT_EQ(rulerTickLabel(first + 4500, anchor, halfUs), "+4.5 us");
  EXPECT_EQ(formatRulerAnchor(anchor), "13.23576 s");
  EXPECT_EQ(formatRulerAnchor(13235760123), "13.235760123 s");
  EXPECT_EQ(formatRulerAnchor(2000000000), "2 s");
  EXPECT_EQ(formatRulerAnchor(-500000000), "-0.5 s");
  EXPECT_EQ(formatRulerAnchor(512800000), "0.5128 s");  // one plain number, never "0.512 8 s"
  // The view: 13.26 s in, 20 ms wide: short ticks after one anchor, never "+12840 us".
  RulerScale ms = chooseRulerScale(20000.0, 90);  // 2 ms steps
  RulerTicks ticks = rulerTicks(13260000000, 13280000000, ms);
  EXPECT_EQ(ticks.anchor, 13200000000);
  ASSERT_FALSE(ticks.ticks.empty());
  EXPECT_EQ(ticks.ticks.front().label, "+60 ms");
  EXPECT_EQ(ticks.ticks.back().label, "+80 ms");
  // Short labels keep counting from the trace start.
  EXPECT_EQ(rulerAnchor(716000000, 730000000, ms), 0);
  EXPECT_EQ(rulerTickLabel(716000000, 0, ms), "716 ms");
}

// The number of a label ("+12.5 us" -> 12.5 in units), and whether it is one plain number in UNIT.
struct ParsedLabel {
  bool ok = false;
  std::string number;
  double value = 0;
};

ParsedLabel parseLabel(const std::string& label, TimeUnit unit) {
  ParsedLabel parsed;
  std::string suffix = std::string(" ") + unitName(unit);
  if (label.size() <= suffix.size() || label.compare(label.size() - suffix.size(), suffix.size(), suffix) != 0)
    return parsed;
  parsed.number = label.substr(0, label.size() - suffix.size());
  size_t used = 0;
  parsed.value = std::stod(parsed.number, &used);
  parsed.ok = used == parsed.number.size() && parsed.number.find(' ') == std::string::npos;
  return parsed;
}

// Every zoom from 0.01 ns to 1e8 ns per pixel, at offsets from the trace start to hours into it: every label
// of a view is one plain number in the view's unit, at most 7 characters with its sign, its values strictly
// increase, and anchor + value is the tick's time.
TEST(TimeAxis, EveryZoomAndOffsetGivesShortLabelsInOneUnit) {
  const TimeNs offsets[] = {
      0, -3000, 1234, 512800000, 13260000000, 13235761234, 3600000000000, 86399999999999, 3 * 3600000000000LL + 7};
  const double unitNsOf[] = {1, 1e3, 1e6, 1e9};
  int views = 0;
  for (double npp = 0.01; npp < 1e8; npp *= 1.7) {
    for (TimeNs offset : offsets) {
      const double width = 1000;  // pixels
      RulerScale scale = chooseRulerScale(npp, 90);
      TimeNs last = offset + static_cast<TimeNs>(npp * width);
      RulerTicks ticks = rulerTicks(offset, last, scale);
      SCOPED_TRACE(::testing::Message() << "npp " << npp << " offset " << offset << " step " << scale.step);
      ASSERT_GE(ticks.ticks.size(), 2u);
      double previous = -1e300;
      for (const RulerTick& tick : ticks.ticks) {
        ParsedLabel parsed = parseLabel(tick.label, scale.unit);
        ASSERT_TRUE(parsed.ok) << tick.label;
        EXPECT_LE(parsed.number.size(), 7u) << tick.label;
        EXPECT_GT(parsed.value, previous) << tick.label;
        previous = parsed.value;
        double unit = unitNsOf[static_cast<int>(scale.unit)];
        EXPECT_NEAR(static_cast<double>(ticks.anchor) + parsed.value * unit, static_cast<double>(tick.time),
                    unit * 1e-3)
            << tick.label;
        if (ticks.anchor != 0) {
          EXPECT_EQ(tick.label[0], '+') << tick.label;
        }
      }
      if (ticks.anchor != 0) {
        std::string anchor = formatRulerAnchor(ticks.anchor);
        EXPECT_EQ(anchor.find(' '), anchor.size() - 2) << anchor;  // "13.23576 s": no digit groups
        EXPECT_NEAR(std::stod(anchor) * 1e9, static_cast<double>(ticks.anchor), 1.0) << anchor;
      }
      ++views;
    }
  }
  EXPECT_GT(views, 200);
}

}  // namespace
}  // namespace gpuscope::ui
