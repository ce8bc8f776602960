// planMergeClock: by absolute session start, by each input's own start, and never twice for an nsys export
// whose times are epoch times already (--ts-normalize) or moved by --ts-shift.
#include "core/ranks/merge_clock.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace gpuscope {
namespace {

constexpr int64_t kClockTestStartNs = 1'795'318'595'866'316'752;  // loader2.sqlite's session start

RankIdentity startingAt(std::optional<int64_t> start) {
  RankIdentity identity;
  identity.sessionStartUtcNs = start;
  return identity;
}

TEST(MergeClock, AbsoluteShiftsEachInputByItsStartAfterTheEarliest) {
  auto plan = planMergeClock(
      {startingAt(kClockTestStartNs + 2'500'000'000), startingAt(kClockTestStartNs), startingAt(kClockTestStartNs + 7)},
      {"a", "b", "c"}, MergeClock::Absolute);
  EXPECT_EQ(plan.earliestStartUtcNs, kClockTestStartNs);
  EXPECT_EQ(plan.shiftNs, (std::vector<int64_t>{2'500'000'000, 0, 7}));
  EXPECT_TRUE(plan.notes.empty());
}

TEST(MergeClock, RelativePutsEveryInputsOwnStartAtZero) {
  auto plan = planMergeClock({startingAt(kClockTestStartNs + 2'500'000'000), startingAt(kClockTestStartNs)}, {"a", "b"},
                             MergeClock::Relative);
  EXPECT_EQ(plan.shiftNs, (std::vector<int64_t>{0, 0}));
}

TEST(MergeClock, NormalizedExportIsBroughtBackToItsStartOnce) {
  RankIdentity normalized = startingAt(kClockTestStartNs + 2'500'000'000);
  normalized.timesAreEpoch = true;
  auto absolute = planMergeClock({startingAt(kClockTestStartNs), normalized}, {"a", "b"}, MergeClock::Absolute);
  // Its times are epoch times: minus the earliest start puts them on the merged clock.
  EXPECT_EQ(absolute.shiftNs, (std::vector<int64_t>{0, -kClockTestStartNs}));
  auto relative = planMergeClock({startingAt(kClockTestStartNs), normalized}, {"a", "b"}, MergeClock::Relative);
  EXPECT_EQ(relative.shiftNs, (std::vector<int64_t>{0, -(kClockTestStartNs + 2'500'000'000)}));
}

TEST(MergeClock, ExportTimeShiftIsUndone) {
  RankIdentity shifted = startingAt(kClockTestStartNs + 1000);
  shifted.exportTimeShiftNs = 5'000;
  auto plan = planMergeClock({startingAt(kClockTestStartNs), shifted}, {"a", "b"}, MergeClock::Absolute);
  EXPECT_EQ(plan.shiftNs, (std::vector<int64_t>{0, 1000 - 5'000}));
}

TEST(MergeClock, InputWithoutStartStaysWhereItIsWithANote) {
  auto plan = planMergeClock({startingAt(kClockTestStartNs + 40), startingAt(std::nullopt)}, {"a", "nostart.json"},
                             MergeClock::Absolute);
  EXPECT_EQ(plan.shiftNs, (std::vector<int64_t>{0, 0}));
  ASSERT_EQ(plan.notes.size(), 1u);
  EXPECT_NE(plan.notes[0].find("nostart.json has no session start"), std::string::npos) << plan.notes[0];
}

TEST(MergeClock, NormalizedExportWithoutStartIsRefused) {
  RankIdentity normalized = startingAt(std::nullopt);
  normalized.timesAreEpoch = true;
  try {
    planMergeClock({startingAt(kClockTestStartNs), normalized}, {"a", "epoch.sqlite"}, MergeClock::Absolute);
    FAIL() << "a --ts-normalize export with no start was placed";
  } catch (const TraceError& error) {
    EXPECT_NE(std::string(error.what()).find("epoch.sqlite was exported with --ts-normalize"), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace gpuscope
