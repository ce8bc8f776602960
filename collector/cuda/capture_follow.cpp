#include "collector/cuda/capture_follow.h"

#include <atomic>
#include <utility>

#include "collector/inject/capture_gate.h"

namespace gpuscope::cuda {
namespace {

// No lock is held around CUPTI's calls: a capture callback runs inside CUPTI, which may hold its own locks
// then. Enabling or disabling a kind twice is harmless, so the worker and a callback may both switch; a
// stale switch is put right by the worker's next pass, and the daemon keeps only what lies inside a window.
struct GateFollower {
  std::vector<CUpti_ActivityKind> gated;  // set once, before the listener is registered
  std::atomic<uint64_t> appliedGeneration{0};
  uint64_t acknowledgedGeneration = 0;  // the worker's only
};

GateFollower& follower() {
  static GateFollower* instance = new GateFollower();
  return *instance;
}

void switchKinds(const GateFollower& f, bool on) {
  for (CUpti_ActivityKind kind : f.gated) {
    CUptiResult result = on ? cuptiActivityEnable(kind) : cuptiActivityDisable(kind);
    (void)result;  // a kind CUPTI refused at start (reported then) is refused again here
  }
}

// The gate moved on this process's own thread (a capture range): CUPTI follows at once, so the kernels
// launched right after cudaProfilerStart or the NVTX push are in the window.
void onOwnGateChange(bool open) {
  GateFollower& f = follower();
  switchKinds(f, open);
  f.appliedGeneration.store(inject::gateGeneration(), std::memory_order_release);
}

bool isProfilerCall(CUpti_CallbackDomain domain, CUpti_CallbackId id, bool& start) {
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    start = id == CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000;
    return start || id == CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000;
  }
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    start = id == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart;
    return start || id == CUPTI_DRIVER_TRACE_CBID_cuProfilerStop;
  }
  return false;
}

}  // namespace

void followCaptureGate(CUpti_SubscriberHandle subscriber, std::vector<CUpti_ActivityKind> gated) {
  GateFollower& f = follower();
  f.gated = std::move(gated);
  uint64_t generation = inject::gateGeneration();
  switchKinds(f, transport::gateIsOpen(generation));
  f.appliedGeneration.store(generation, std::memory_order_release);
  inject::registerGateListener(onOwnGateChange);
  if (!subscriber || !inject::capturesBy(transport::CaptureTrigger::CudaProfilerApi)) return;
  cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000);
  cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000);
  cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
  cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop);
}

bool handleProfilerCallback(CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
  bool start = false;
  if (!data || !isProfilerCall(domain, id, start)) return false;
  const auto* call = static_cast<const CUpti_CallbackData*>(data);
  // The range opens before cudaProfilerStart does anything and closes once cudaProfilerStop returned (the
  // runtime's call wraps the driver's: the first open and the last close win, the others find it done).
  if (start && call->callbackSite == CUPTI_API_ENTER)
    inject::beginCaptureRange(transport::CaptureTrigger::CudaProfilerApi);
  if (!start && call->callbackSite == CUPTI_API_EXIT)
    inject::endCaptureRange(transport::CaptureTrigger::CudaProfilerApi);
  return true;
}

uint64_t followGateChanges() {
  GateFollower& f = follower();
  uint64_t generation = inject::gateGeneration();
  if (generation != f.appliedGeneration.load(std::memory_order_acquire)) {
    switchKinds(f, transport::gateIsOpen(generation));
    f.appliedGeneration.store(generation, std::memory_order_release);
  }
  // A close (even generation) not yet acknowledged: the worker flushes CUPTI, writes its records, and
  // acknowledges it.
  if (transport::gateIsOpen(generation) || generation == 0 || generation == f.acknowledgedGeneration) return 0;
  f.acknowledgedGeneration = generation;
  return generation;
}

}  // namespace gpuscope::cuda
