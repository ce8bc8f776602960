#include "ui/timeline/time_axis.h"

#include <gtest/gtest.h>

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
  EXPECT_EQ(anchor, 13235500000);  // a multiple of 1000 steps at or before the first tick
  EXPECT_EQ(rulerTickLabel(first + 500, anchor, halfUs), "+260.5 us");
  EXPECT_EQ(formatRulerAnchor(anchor), "13.235 5 s");
  EXPECT_EQ(formatRulerAnchor(13235760123), "13.235 760 123 s");
  EXPECT_EQ(formatRulerAnchor(2000000000), "2 s");
  // Short labels keep counting from the trace start.
  RulerScale ms = chooseRulerScale(20000.0, 90);
  EXPECT_EQ(rulerAnchor(716000000, 730000000, ms), 0);
  EXPECT_EQ(rulerTickLabel(716000000, 0, ms), "716 ms");
}

}  // namespace
}  // namespace gpuscope::ui
