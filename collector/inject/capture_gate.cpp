#include "collector/inject/capture_gate.h"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "collector/inject/tick_clock.h"

namespace gpuscope::inject {

transport::SessionGate* g_gate = nullptr;

namespace {

std::atomic<GateListener> g_listener{nullptr};

void notify(bool open) {
  GateListener listener = g_listener.load(std::memory_order_acquire);
  if (listener) listener(open);
}

// SIGUSR1 in a flight recorder's program: the recorder writes what it keeps (async-signal-safe: one atomic add).
void countDumpRequest(int) {
  if (g_gate) g_gate->dumpRequests.fetch_add(1, std::memory_order_release);
}

}  // namespace

void mapCaptureGate(const char* sessionDir) {
  g_gate = transport::mapSessionGate(sessionDir);
  const char* flight = std::getenv("GPUSCOPE_FLIGHT_SIGNAL");
  if (!g_gate || !flight || std::strcmp(flight, "1") != 0) return;
  struct sigaction action {};
  action.sa_handler = countDumpRequest;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGUSR1, &action, nullptr);
}

bool capturesBy(transport::CaptureTrigger trigger) {
  return g_gate && g_gate->trigger == static_cast<uint32_t>(trigger);
}

bool beginCaptureRange(transport::CaptureTrigger trigger) {
  if (!capturesBy(trigger)) return false;
  transport::SessionGate& gate = *g_gate;
  int32_t left = gate.rangesLeft.load(std::memory_order_acquire);
  // Take one range, unless none is left (a later range under --capture-range-end stop is ignored).
  while (left != 0 && !gate.rangesLeft.compare_exchange_weak(left, left < 0 ? left : left - 1)) {
  }
  if (left == 0) return false;
  // The previous range's file first (the program waits here, as long as writing it takes, 30 s at most).
  transport::waitForPreviousWindow(gate, 30'000'000'000);
  if (!transport::openGate(gate, TickClock::now())) {
    // Another range is under way: give the taken one back.
    if (left > 0) gate.rangesLeft.fetch_add(1);
    return false;
  }
  gate.openerPid.store(static_cast<uint32_t>(getpid()), std::memory_order_relaxed);
  gate.rangesTaken.fetch_add(1, std::memory_order_relaxed);
  notify(true);
  return true;
}

void endCaptureRange(transport::CaptureTrigger trigger) {
  if (!capturesBy(trigger)) return;
  transport::SessionGate& gate = *g_gate;
  if (gate.rangeEnd == static_cast<uint32_t>(transport::CaptureRangeEnd::None)) return;
  if (transport::closeGate(gate, TickClock::now(), transport::WindowEndReason::Stopped)) notify(false);
}

void registerGateListener(GateListener listener) { g_listener.store(listener, std::memory_order_release); }

uint64_t gateGeneration() { return g_gate ? g_gate->generation.load(std::memory_order_acquire) : 1; }

}  // namespace gpuscope::inject

// What CUPTI's cudaProfilerStart/cudaProfilerStop callbacks do (collector/cuda/capture_follow.cpp), by C
// names: the tests call them from a program without a GPU, as a stand-in for the CUDA runtime.
extern "C" GPUSCOPE_EXPORT void gpuscope_cuda_profiler_start() {
  gpuscope::inject::beginCaptureRange(gpuscope::transport::CaptureTrigger::CudaProfilerApi);
}
extern "C" GPUSCOPE_EXPORT void gpuscope_cuda_profiler_stop() {
  gpuscope::inject::endCaptureRange(gpuscope::transport::CaptureTrigger::CudaProfilerApi);
}
