#include "collector/inject/tick_clock.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

#include "collector/transport/session_clock.h"

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace gpuscope::inject {
namespace {

// 128-bit products: ticks times a 32.32 rate overflow 64 bits within minutes.
__extension__ using Uint128 = unsigned __int128;

constexpr int64_t kFirstSpanNs = 20'000'000;  // the rate's first measurement, 20 ms after the start
constexpr int64_t kAnchorNs = 1'000'000;      // a thread's anchor is renewed after 1 ms

bool g_counterUsable = false;
// A ticks/ns pair read further apart than this was interrupted: twice the tightest pair at the start.
uint64_t g_pairLimitTicks = 0;
uint64_t g_originTicks = 0;
int64_t g_originNs = 0;
// Nanoseconds per tick in 32.32 fixed point, and kAnchorNs in ticks; 0 until measured.
std::atomic<uint64_t> g_nsPerTickQ32{0};
std::atomic<uint64_t> g_anchorTicks{0};
// The span of the last measurement: the next one waits until it has doubled.
std::atomic<int64_t> g_measuredSpanNs{0};

// A thread's anchor; trivially constructible, so reading it never runs an initializer.
struct Anchor {
  uint64_t ticks;
  int64_t ns;
  int64_t last;  // the last reading: readings never go back
};
__thread Anchor t_anchor __attribute__((tls_model("initial-exec")));

uint64_t ticks() {
#if defined(__x86_64__)
  return __rdtsc();
#else
  return 0;
#endif
}

bool kernelKeepsTimeWithTsc() {
  int fd = static_cast<int>(syscall(
      SYS_openat, AT_FDCWD, "/sys/devices/system/clocksource/clocksource0/current_clocksource", O_RDONLY | O_CLOEXEC));
  if (fd < 0) return false;
  char text[32] = {};
  long n = syscall(SYS_read, fd, text, sizeof text - 1);
  syscall(SYS_close, fd);
  return n >= 4 && std::strncmp(text, "tsc\n", 4) == 0;
}

// CLOCK_MONOTONIC and the counter read together, the ticks taken halfway through the clock read;
// returns how many ticks the pair took.
uint64_t readPairOnce(uint64_t* pairTicks, int64_t* pairNs) {
  uint64_t before = ticks();
  *pairNs = transport::sessionClockNs();
  uint64_t after = ticks();
  *pairTicks = before + (after - before) / 2;
  return after - before;
}

// A pair no wider than the limit (up to three tries): its error is half the limit at most, a few
// ns. False when something came between the reads each time.
bool readPair(uint64_t* pairTicks, int64_t* pairNs) {
  for (int attempt = 0; attempt < 3; ++attempt) {
    if (readPairOnce(pairTicks, pairNs) <= g_pairLimitTicks) return true;
  }
  return false;
}

int64_t ticksToNs(uint64_t elapsed, uint64_t nsPerTickQ32) {
  return static_cast<int64_t>((static_cast<Uint128>(elapsed) * nsPerTickQ32) >> 32);
}

// Measures the rate from the origin to the pair read at NOWTICKS/NOWNS, when the span since the
// last measurement has doubled.
void measureRate(uint64_t nowTicks, int64_t nowNs) {
  int64_t span = nowNs - g_originNs;
  if (span < kFirstSpanNs || span < 2 * g_measuredSpanNs.load(std::memory_order_relaxed)) return;
  if (nowTicks <= g_originTicks) return;
  Uint128 scaled = static_cast<Uint128>(span) << 32;
  uint64_t nsPerTickQ32 = static_cast<uint64_t>(scaled / (nowTicks - g_originTicks));
  if (nsPerTickQ32 == 0) return;
  g_anchorTicks.store((static_cast<Uint128>(kAnchorNs) << 32) / nsPerTickQ32, std::memory_order_relaxed);
  g_nsPerTickQ32.store(nsPerTickQ32, std::memory_order_release);
  g_measuredSpanNs.store(span, std::memory_order_relaxed);
}

// clock_gettime, and a pair for the rate while it is not measured yet.
int64_t clockNow() {
  if (!g_counterUsable) return transport::sessionClockNs();
  uint64_t pairTicks = 0;
  int64_t pairNs = 0;
  if (readPair(&pairTicks, &pairNs)) measureRate(pairTicks, pairNs);
  return pairNs;
}

int64_t reanchor(Anchor& anchor) {
  if (readPair(&anchor.ticks, &anchor.ns)) {
    measureRate(anchor.ticks, anchor.ns);
  } else {
    anchor.ticks = 0;  // the clock's own reading now, and a new anchor at the next reading
  }
  if (anchor.ns > anchor.last) anchor.last = anchor.ns;
  return anchor.last;
}

}  // namespace

void TickClock::initialize() {
  if (!kernelKeepsTimeWithTsc() || ticks() == 0) return;
  // The origin is the tightest of 16 pairs, and sets how wide a pair may be.
  uint64_t tightest = ~uint64_t{0};
  for (int attempt = 0; attempt < 16; ++attempt) {
    uint64_t pairTicks = 0;
    int64_t pairNs = 0;
    uint64_t width = readPairOnce(&pairTicks, &pairNs);
    if (width >= tightest) continue;
    tightest = width;
    g_originTicks = pairTicks;
    g_originNs = pairNs;
  }
  g_pairLimitTicks = 2 * tightest;
  g_counterUsable = true;
}

int64_t TickClock::now() {
  uint64_t nsPerTickQ32 = g_nsPerTickQ32.load(std::memory_order_acquire);
  if (nsPerTickQ32 == 0) return clockNow();
  Anchor& anchor = t_anchor;
  uint64_t elapsed = ticks() - anchor.ticks;
  // A fresh thread (no anchor), an old anchor, or a counter behind the anchor (wrapped elapsed).
  if (anchor.ticks == 0 || elapsed > g_anchorTicks.load(std::memory_order_relaxed)) return reanchor(anchor);
  int64_t ns = anchor.ns + ticksToNs(elapsed, nsPerTickQ32);
  if (ns < anchor.last) ns = anchor.last;
  anchor.last = ns;
  return ns;
}

}  // namespace gpuscope::inject
