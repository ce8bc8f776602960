#include "collector/cuda/range_profiler.h"

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "collector/cuda/cupti_calls.h"
#include "collector/cuda/kernel_demangler.h"
#include "collector/cuda/profiled_launch_times.h"
#include "collector/cuda/roofline_counters.h"
#include "collector/inject/process_recorder.h"
#include "collector/transport/counter_text.h"
#include "collector/transport/session_clock.h"
#include "core/roofline/roofline_counters.h"

namespace gpuscope::cuda {
namespace {

using inject::ProcessRecorder;
using transport::RecordType;

constexpr int64_t kRingWaitNs = 2'000'000'000;
// Ranges one counter data image holds before it is initialized again. Each launch is decoded right
// after it ran, so this only bounds how often the image is reset.
constexpr size_t kRangesPerImage = 64;
constexpr size_t kMaxNameBytes = 4096;

// A CUPTI call that failed, with what we were doing; caught where CUPTI called us.
struct Failure {
  std::string message;
};

void traceStep(const char* step);

void check(CUptiResult result, const char* what) {
  traceStep(what);
  if (result == CUPTI_SUCCESS) return;
  if (result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES) {
    throw Failure{
        "reading GPU performance counters needs permission: run as root or load the driver with "
        "NVreg_RestrictProfilingToAdminUsers=0"};
  }
  throw Failure{std::string(what) + " failed (" + resultText(result) + ")"};
}

void diagnose(ProcessRecorder& recorder, transport::DiagnosticLevel level, const std::string& message) {
  transport::DiagnosticBody body{static_cast<uint32_t>(level), static_cast<uint32_t>(message.size())};
  recorder.emit(RecordType::Diagnostic, 0, &body, sizeof body, {message}, 0, kRingWaitNs);
}

// Which launches are profiled: ncu's -k (as a regex over the demangled name) and -c.
struct Selection {
  std::optional<std::regex> regex;
  uint64_t limit = 0;                        // 0: every launch
  std::atomic<uint64_t>* claimed = nullptr;  // in the session directory: -c counts across processes
  std::atomic<uint64_t> localClaimed{0};     // when that file could not be mapped

  bool matches(const std::string& name) const { return !regex || std::regex_search(name, *regex); }
  bool claim() {
    if (!limit) return true;
    std::atomic<uint64_t>& counter = claimed ? *claimed : localClaimed;
    return counter.fetch_add(1) < limit;
  }
};

// A counter shared by every recorded process (and their forks), mapped from the session directory.
std::atomic<uint64_t>* mapSharedCounter() {
  const char* dir = std::getenv("GPUSCOPE_SESSION_DIR");
  if (!dir) return nullptr;
  std::string path = std::string(dir) + "/profiled-launches";
  int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return nullptr;
  // ftruncate to the same size is a no-op, so whichever process comes first creates the zero.
  void* memory = ftruncate(fd, sizeof(uint64_t)) == 0
                     ? mmap(nullptr, sizeof(uint64_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
                     : MAP_FAILED;
  close(fd);
  static_assert(std::atomic<uint64_t>::is_always_lock_free);
  return memory == MAP_FAILED ? nullptr : static_cast<std::atomic<uint64_t>*>(memory);
}

// One CUDA context's range profiler: configured once, started and stopped around each profiled launch.
struct ContextProfiler {
  uint32_t deviceId = 0;
  // The host object keeps pointers to these (not copies): they live as long as it does.
  std::string chipName;
  std::vector<uint8_t> counterAvailability;
  CUpti_Profiler_Host_Object* host = nullptr;
  CUpti_RangeProfiler_Object* profiler = nullptr;
  std::vector<std::string> metricNames;
  std::vector<const char*> metricPointers;  // into metricNames
  std::vector<uint8_t> configImage;
  std::vector<uint8_t> counterData;
};

// A launch between its API entry and exit on this thread.
struct PendingLaunch {
  ContextProfiler* profiler = nullptr;
  uint32_t correlationId = 0;
  std::string kernelName;
  int64_t startNs = 0;
};

struct ProfilingState {
  ProcessRecorder* recorder = nullptr;
  Selection selection;
  // One profiled launch at a time in the process: held from a launch's entry to its exit, because the
  // range profiler of a context collects whatever runs while it is started.
  std::mutex launchLock;
  std::map<CUcontext, std::unique_ptr<ContextProfiler>> contexts;  // under launchLock
  std::atomic<bool> failed{false};                                 // said once, then nothing more is profiled
};

ProfilingState* g_state = nullptr;
thread_local PendingLaunch* t_pending = nullptr;
// Launch callbacks entered on this thread while a profiled launch is pending (kernel replay may launch
// again inside the launch): their exits must not stop the profiler in the middle of the replay.
thread_local int t_nestedLaunches = 0;

// GPUSCOPE_PROFILER_TRACE=1 prints each step to stderr, to find where a driver or CUPTI fails.
void traceStep(const char* step) {
  static const bool enabled = [] {
    const char* value = std::getenv("GPUSCOPE_PROFILER_TRACE");
    return value && *value == '1';
  }();
  if (enabled) std::fprintf(stderr, "gpuscope profiler: %s\n", step);
}

// ---- set-up, once per context ----

void initializeProfilerApi() {
  static CUptiResult result = [] {
    auto params = makeParams<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
    return cuptiProfilerInitialize(&params);
  }();
  check(result, "cuptiProfilerInitialize");
}

std::string chipName(uint32_t deviceId) {
  auto params = makeParams<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  params.deviceIndex = deviceId;
  check(cuptiDeviceGetChipName(&params), "cuptiDeviceGetChipName");
  return params.pChipName ? params.pChipName : "";
}

std::vector<uint8_t> counterAvailability(CUcontext context) {
  auto params = makeParams<CUpti_Profiler_GetCounterAvailability_Params>(
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
  params.ctx = context;
  check(cuptiProfilerGetCounterAvailability(&params), "cuptiProfilerGetCounterAvailability");
  std::vector<uint8_t> image(params.counterAvailabilityImageSize);
  params.pCounterAvailabilityImage = image.data();
  check(cuptiProfilerGetCounterAvailability(&params), "cuptiProfilerGetCounterAvailability");
  return image;
}

CUpti_Profiler_Host_Object* createHost(const std::string& chip, const std::vector<uint8_t>& availability) {
  auto params = makeParams<CUpti_Profiler_Host_Initialize_Params>(CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
  params.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  params.pChipName = chip.c_str();
  params.pCounterAvailabilityImage = availability.data();
  check(cuptiProfilerHostInitialize(&params), "cuptiProfilerHostInitialize");
  return params.pHostObject;
}

std::vector<std::string> baseCounterMetrics(CUpti_Profiler_Host_Object* host) {
  auto params =
      makeParams<CUpti_Profiler_Host_GetBaseMetrics_Params>(CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE);
  params.pHostObject = host;
  params.metricType = CUPTI_METRIC_TYPE_COUNTER;
  std::vector<std::string> names;
  // Only the tensor counters are looked up here: without the list, the rest is still measured.
  if (cuptiProfilerHostGetBaseMetrics(&params) != CUPTI_SUCCESS) return names;
  for (size_t i = 0; i < params.numMetrics; ++i) {
    if (params.ppMetricNames[i]) names.emplace_back(params.ppMetricNames[i]);
  }
  return names;
}

// A counter this chip lacks would make the whole configuration fail: keep only the known ones.
std::vector<std::string> supportedMetrics(CUpti_Profiler_Host_Object* host, const std::vector<std::string>& names) {
  std::vector<std::string> supported;
  for (const std::string& name : names) {
    auto params = makeParams<CUpti_Profiler_Host_GetMetricProperties_Params>(
        CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE);
    params.pHostObject = host;
    params.pMetricName = name.c_str();
    if (cuptiProfilerHostGetMetricProperties(&params) == CUPTI_SUCCESS) supported.push_back(name);
  }
  return supported;
}

std::vector<uint8_t> configImage(ContextProfiler& context) {
  auto add =
      makeParams<CUpti_Profiler_Host_ConfigAddMetrics_Params>(CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
  add.pHostObject = context.host;
  add.ppMetricNames = context.metricPointers.data();
  add.numMetrics = context.metricPointers.size();
  check(cuptiProfilerHostConfigAddMetrics(&add), "cuptiProfilerHostConfigAddMetrics");
  auto size = makeParams<CUpti_Profiler_Host_GetConfigImageSize_Params>(
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
  size.pHostObject = context.host;
  check(cuptiProfilerHostGetConfigImageSize(&size), "cuptiProfilerHostGetConfigImageSize");
  std::vector<uint8_t> image(size.configImageSize);
  auto get =
      makeParams<CUpti_Profiler_Host_GetConfigImage_Params>(CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
  get.pHostObject = context.host;
  get.configImageSize = image.size();
  get.pConfigImage = image.data();
  check(cuptiProfilerHostGetConfigImage(&get), "cuptiProfilerHostGetConfigImage");
  return image;
}

void allocateCounterData(ContextProfiler& context) {
  auto size = makeParams<CUpti_RangeProfiler_GetCounterDataSize_Params>(
      CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
  size.pRangeProfilerObject = context.profiler;
  size.pMetricNames = context.metricPointers.data();
  size.numMetrics = context.metricPointers.size();
  size.maxNumOfRanges = kRangesPerImage;
  size.maxNumRangeTreeNodes = kRangesPerImage;
  check(cuptiRangeProfilerGetCounterDataSize(&size), "cuptiRangeProfilerGetCounterDataSize");
  context.counterData.assign(size.counterDataSize, 0);
}

// Empties the counter data image and hands it and the configuration to the profiler: auto range (one
// range per kernel) and kernel replay (CUPTI re-runs the kernel inside the launch call until every
// counter was read, restoring the memory it writes).
void resetCounterData(ContextProfiler& context) {
  auto init = makeParams<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  init.pRangeProfilerObject = context.profiler;
  init.counterDataSize = context.counterData.size();
  init.pCounterData = context.counterData.data();
  check(cuptiRangeProfilerCounterDataImageInitialize(&init), "cuptiRangeProfilerCounterDataImageInitialize");
  auto config = makeParams<CUpti_RangeProfiler_SetConfig_Params>(CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
  config.pRangeProfilerObject = context.profiler;
  config.configSize = context.configImage.size();
  config.pConfig = context.configImage.data();
  config.counterDataImageSize = context.counterData.size();
  config.pCounterDataImage = context.counterData.data();
  config.range = CUPTI_AutoRange;
  config.replayMode = CUPTI_KernelReplay;
  config.maxRangesPerPass = kRangesPerImage;
  config.numNestingLevels = 1;
  config.minNestingLevel = 1;
  config.passIndex = 0;
  config.targetNestingLevel = 1;
  check(cuptiRangeProfilerSetConfig(&config), "cuptiRangeProfilerSetConfig");
}

std::unique_ptr<ContextProfiler> setUpContext(CUcontext ctx) {
  initializeProfilerApi();
  auto context = std::make_unique<ContextProfiler>();
  check(cuptiGetDeviceId(ctx, &context->deviceId), "cuptiGetDeviceId");
  context->chipName = chipName(context->deviceId);
  context->counterAvailability = counterAvailability(ctx);
  context->host = createHost(context->chipName, context->counterAvailability);
  traceStep("looking up the chip's counters");
  context->metricNames = supportedMetrics(context->host, rooflineMetricNames(baseCounterMetrics(context->host)));
  traceStep(("counters: " + std::to_string(context->metricNames.size())).c_str());
  if (context->metricNames.empty()) throw Failure{"this GPU has none of the roofline counters"};
  for (const std::string& name : context->metricNames) context->metricPointers.push_back(name.c_str());
  context->configImage = configImage(*context);
  auto enable = makeParams<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
  enable.ctx = ctx;
  check(cuptiRangeProfilerEnable(&enable), "cuptiRangeProfilerEnable");
  context->profiler = enable.pRangeProfilerObject;
  allocateCounterData(*context);
  resetCounterData(*context);
  return context;
}

// ---- one launch ----

void startRange(ContextProfiler& context) {
  auto start = makeParams<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
  start.pRangeProfilerObject = context.profiler;
  if (cuptiRangeProfilerStart(&start) == CUPTI_SUCCESS) return;
  // Should a stopped session need its configuration again before the next start, give it a fresh one.
  resetCounterData(context);
  check(cuptiRangeProfilerStart(&start), "cuptiRangeProfilerStart");
}

size_t rangesIn(const ContextProfiler& context) {
  auto info = makeParams<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
      CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
  info.pCounterDataImage = context.counterData.data();
  info.counterDataImageSize = context.counterData.size();
  check(cuptiRangeProfilerGetCounterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo");
  return info.numTotalRanges;
}

// Stops the profiler after the launch (kernel replay has run every pass by then) and evaluates the
// launch's range: the last one decoded into the image.
transport::CounterValues stopRange(ContextProfiler& context) {
  auto stop = makeParams<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
  stop.pRangeProfilerObject = context.profiler;
  check(cuptiRangeProfilerStop(&stop), "cuptiRangeProfilerStop");
  if (!stop.isAllPassSubmitted) throw Failure{"kernel replay did not submit every pass of the launch"};
  auto decode = makeParams<CUpti_RangeProfiler_DecodeData_Params>(CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
  decode.pRangeProfilerObject = context.profiler;
  check(cuptiRangeProfilerDecodeData(&decode), "cuptiRangeProfilerDecodeData");
  size_t ranges = rangesIn(context);
  if (ranges == 0) throw Failure{"the range profiler recorded no range for the launch"};
  std::vector<double> values(context.metricPointers.size(), 0.0);
  auto evaluate = makeParams<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
      CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
  evaluate.pHostObject = context.host;
  evaluate.pCounterDataImage = context.counterData.data();
  evaluate.counterDataImageSize = context.counterData.size();
  evaluate.rangeIndex = ranges - 1;
  evaluate.ppMetricNames = context.metricPointers.data();
  evaluate.numMetrics = context.metricPointers.size();
  evaluate.pMetricValues = values.data();
  check(cuptiProfilerHostEvaluateToGpuValues(&evaluate), "cuptiProfilerHostEvaluateToGpuValues");
  if (ranges >= kRangesPerImage) resetCounterData(context);
  transport::CounterValues counters;
  for (size_t i = 0; i < values.size(); ++i) counters.emplace_back(context.metricNames[i], values[i]);
  return counters;
}

void emitMetrics(ProfilingState& state, const PendingLaunch& launch, const transport::CounterValues& counters,
                 int64_t profilingNs) {
  std::string text = transport::encodeCounters(counters);
  // Both texts must arrive whole for the counters to be found after the name: keep the name short.
  std::string_view name = std::string_view(launch.kernelName).substr(0, kMaxNameBytes);
  transport::KernelMetricsBody body{launch.correlationId, launch.profiler->deviceId, profilingNs,
                                    static_cast<uint32_t>(name.size()), static_cast<uint32_t>(text.size())};
  state.recorder->emit(RecordType::KernelMetrics, 0, &body, sizeof body, {name, text}, 0, kRingWaitNs);
}

// Kernel replay leaves the launch's activity record untimed: the kernel is given its measured duration,
// ending when its launch call returned (profiled_launch_times.h).
void noteKernelTimes(const PendingLaunch& launch, const transport::CounterValues& counters, int64_t exitNs) {
  for (const auto& [name, value] : counters) {
    if (name != roofline_counter::kDuration || !(value > 0)) continue;
    const auto duration = static_cast<int64_t>(value + 0.5);
    profiledLaunchTimes().note(launch.correlationId, {std::max(launch.startNs, exitNs - duration), exitNs});
    return;
  }
}

// Profiling stops for the rest of the process at the first failure: a half-working profiler would
// give rows for some launches and not others without saying why.
void giveUp(ProfilingState& state, const std::string& message) {
  if (state.failed.exchange(true)) return;
  diagnose(*state.recorder, transport::DiagnosticLevel::Error, "roofline metrics are not recorded: " + message);
}

ContextProfiler* profilerFor(ProfilingState& state, CUcontext ctx) {
  auto found = state.contexts.find(ctx);
  if (found != state.contexts.end()) return found->second.get();
  return state.contexts.emplace(ctx, setUpContext(ctx)).first->second.get();
}

void onLaunchEnter(ProfilingState& state, const CUpti_CallbackData& call) {
  // A launch made while this thread is inside a profiled one is CUPTI's own or nested: not ours.
  if (t_pending) {
    ++t_nestedLaunches;
    traceStep("nested launch entered");
    return;
  }
  if (state.failed || !call.context) return;
  traceStep("launch entered");
  std::string name = demangleKernelName(call.symbolName);
  if (!state.selection.matches(name)) return;
  std::unique_lock<std::mutex> guard(state.launchLock);
  if (state.failed || !state.selection.claim()) return;
  auto pending = std::make_unique<PendingLaunch>();
  // From here to the launch's exit is what profiling costs the program (a context's set-up included).
  pending->startNs = transport::sessionClockNs();
  try {
    pending->profiler = profilerFor(state, call.context);
    startRange(*pending->profiler);
  } catch (const Failure& failure) {
    giveUp(state, failure.message);
    return;
  }
  pending->correlationId = call.correlationId;
  pending->kernelName = std::move(name);
  t_pending = pending.release();
  guard.release();  // unlocked on this thread at the launch's exit
}

void onLaunchExit(ProfilingState& state, const CUpti_CallbackData& call) {
  PendingLaunch* pending = t_pending;
  if (pending && t_nestedLaunches > 0) {
    --t_nestedLaunches;
    traceStep("nested launch exited");
    return;
  }
  if (!pending || pending->correlationId != call.correlationId) return;
  traceStep("launch exited");
  const int64_t exitNs = transport::sessionClockNs();
  std::unique_ptr<PendingLaunch> launch(pending);
  t_pending = nullptr;
  std::lock_guard<std::mutex> guard(state.launchLock, std::adopt_lock);
  try {
    transport::CounterValues counters = stopRange(*launch->profiler);
    traceStep("emitting the launch's counters");
    emitMetrics(state, *launch, counters, transport::sessionClockNs() - launch->startNs);
    noteKernelTimes(*launch, counters, exitNs);
  } catch (const Failure& failure) {
    giveUp(state, failure.message);
  }
}

bool isLaunch(CUpti_CallbackId id) {
  switch (id) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunch:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync:
      return true;
    default:
      return false;
  }
}

bool readSelection(ProcessRecorder& recorder, Selection& selection) {
  if (const char* pattern = std::getenv("GPUSCOPE_KERNEL_REGEX"); pattern && *pattern) {
    try {
      selection.regex.emplace(pattern);
    } catch (const std::regex_error&) {
      // `record` checked it already; a program that changed its environment gets no profiling.
      diagnose(
          recorder, transport::DiagnosticLevel::Error,
          std::string("roofline metrics are not recorded: GPUSCOPE_KERNEL_REGEX is not a valid regex: ") + pattern);
      return false;
    }
  }
  if (const char* count = std::getenv("GPUSCOPE_KERNEL_COUNT")) selection.limit = std::strtoull(count, nullptr, 10);
  if (selection.limit) selection.claimed = mapSharedCounter();
  return true;
}

}  // namespace

bool rangeProfilingRequested() {
  const char* metrics = std::getenv("GPUSCOPE_METRICS");
  return metrics && std::strcmp(metrics, "roofline") == 0;
}

void CUPTIAPI rangeProfilerCallback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
  ProfilingState* state = g_state;
  if (!state || domain != CUPTI_CB_DOMAIN_DRIVER_API || !isLaunch(id) || !data) return;
  const auto& call = *static_cast<const CUpti_CallbackData*>(data);
  if (call.callbackSite == CUPTI_API_ENTER) {
    onLaunchEnter(*state, call);
  } else {
    onLaunchExit(*state, call);
  }
}

bool startRangeProfiling(ProcessRecorder& recorder, CUpti_SubscriberHandle subscriber) {
  auto state = std::make_unique<ProfilingState>();
  state->recorder = &recorder;
  if (!readSelection(recorder, state->selection)) return false;
  for (CUpti_CallbackId id : {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
                              CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
                              CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
                              CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz, CUPTI_DRIVER_TRACE_CBID_cuLaunch,
                              CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid, CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync}) {
    CUptiResult enabled = cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id);
    if (enabled != CUPTI_SUCCESS) {
      diagnose(
          recorder, transport::DiagnosticLevel::Error,
          "roofline metrics are not recorded: CUPTI refused the kernel launch callbacks (" + resultText(enabled) + ")");
      return false;
    }
  }
  // Lives until the process ends: CUPTI may call back on any thread until then.
  g_state = state.release();
  traceStep("launch callbacks enabled");
  return true;
}

}  // namespace gpuscope::cuda
