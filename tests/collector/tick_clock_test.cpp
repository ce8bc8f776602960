// TickClock (the interposer's and NVTX injection's clock) reads what clock_gettime reads: every
// reading over 80 ms, past the rate's first measurement at 20 ms and many 1 ms anchors, lies
// between two CLOCK_MONOTONIC readings taken around it (within the anchors' few ns of error), and
// readings never go back within a thread.
#include "collector/inject/tick_clock.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <thread>
#include <vector>

#include "collector/transport/session_clock.h"

namespace gpuscope::inject {
namespace {

// Far above the anchors' error (half a clock_gettime), far below anything a trace shows.
constexpr int64_t kSlackNs = 250;

void expectOnTheClock(int64_t forNs) {
  int64_t until = transport::sessionClockNs() + forNs;
  int64_t previous = 0;
  int64_t readings = 0;
  for (int64_t before = 0; (before = transport::sessionClockNs()) < until; ++readings) {
    int64_t reading = TickClock::now();
    int64_t after = transport::sessionClockNs();
    ASSERT_GE(reading, before - kSlackNs) << "reading " << readings;
    ASSERT_LE(reading, after + kSlackNs) << "reading " << readings;
    ASSERT_GE(reading, previous) << "reading " << readings;
    previous = reading;
  }
  EXPECT_GT(readings, 1000);
}

TEST(TickClock, ReadsTheSessionClock) {
  TickClock::initialize();
  expectOnTheClock(80'000'000);
  std::vector<std::thread> threads;
  for (int i = 0; i < 2; ++i) threads.emplace_back([] { expectOnTheClock(20'000'000); });
  for (std::thread& thread : threads) thread.join();
}

}  // namespace
}  // namespace gpuscope::inject
