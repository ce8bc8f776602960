#include "collector/cuda/pm_sampler.h"

#include <cupti_activity.h>
#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>
#include <dlfcn.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "collector/cuda/cupti_calls.h"
#include "collector/gpu_metrics/metric_rows.h"
#include "collector/gpu_metrics/metric_sets.h"
#include "collector/inject/process_recorder.h"
#include "collector/inject/recorder_internal.h"
#include "collector/transport/session_clock.h"

namespace gpuscope::cuda {
namespace {

using inject::ProcessRecorder;
using transport::RecordType;

constexpr int64_t kRingWaitNs = 2'000'000'000;
// The GPU's raw sample buffer: at 10 kHz it holds far more than one decode period's samples.
constexpr size_t kHardwareBufferBytes = 256u << 20;
// Samples one counter data image holds (each about 2 KB per metric): decoded and reset when full.
constexpr uint32_t kMaxImageSamples = 2000;

// The PM samples' clock and the session clock read together: the session clock at the middle of the read. The
// samples' timestamps are on CUPTI's own clock (cuptiGetTimestamp where no timestamp callback replaces it, as in
// the metrics host, which registers none), not on CLOCK_REALTIME.
struct ClockPair {
  int64_t gpuNs = 0;
  int64_t sessionNs = 0;
  bool valid = false;
};

ClockPair readClocks(CUcontext context) {
  ClockPair pair;
  uint64_t gpu = 0;
  int64_t before = transport::sessionClockNs();
  (void)context;
  CUptiResult read = cuptiGetTimestamp(&gpu);
  int64_t after = transport::sessionClockNs();
  if (read != CUPTI_SUCCESS) return pair;
  return {static_cast<int64_t>(gpu), before + (after - before) / 2, true};
}

// Why a GPU is not sampled, in one sentence.
struct Refusal {
  std::string message;
};

// What CUPTI said, as the user can act on it.
std::string refusalText(uint32_t device, const char* step, CUptiResult result) {
  std::string gpu = "GPU " + std::to_string(device);
  switch (result) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
      return "GPU metrics are not recorded on " + gpu +
             ": reading its performance counters needs permission (run as root or load the driver with "
             "NVreg_RestrictProfilingToAdminUsers=0)";
    case CUPTI_ERROR_INVALID_OPERATION:
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
      return "GPU metrics are not recorded on " + gpu +
             ": another profiler (or another recorded process) already samples its counters";
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_NOT_COMPATIBLE:
    case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
      return "GPU metrics are not recorded on " + gpu + ": CUPTI's PM sampling does not support this GPU (" + step +
             ": " + resultText(result) + ")";
    default:
      return "GPU metrics are not recorded on " + gpu + ": " + step + " failed (" + resultText(result) + ")";
  }
}

// GPUSCOPE_PM_TRACE=1 prints each step to stderr, to find where a driver or CUPTI fails or waits.
void traceStep(const char* step, int value = 0) {
  static const bool enabled = [] {
    const char* wanted = std::getenv("GPUSCOPE_PM_TRACE");
    return wanted && *wanted == '1';
  }();
  if (enabled) std::fprintf(stderr, "gpuscope pm sampling: %s %d\n", step, value);
}

void check(uint32_t device, CUptiResult result, const char* step) {
  traceStep(step, static_cast<int>(result));
  if (result != CUPTI_SUCCESS) throw Refusal{refusalText(device, step, result)};
}

// One GPU's sampler: the PM sampling object, the host object that evaluates its samples, and the counter data
// image the samples are decoded into.
struct DeviceSampler {
  uint32_t device = 0;
  CUcontext context = nullptr;  // its timer is read to place the samples on the session clock
  std::string chip;
  std::vector<uint8_t> availability;  // the host object keeps pointers into these
  CUpti_Profiler_Host_Object* host = nullptr;
  CUpti_PmSampling_Object* sampler = nullptr;
  std::vector<uint8_t> config;
  std::vector<uint8_t> counterData;
  size_t capacity = 0;     // samples the image holds
  size_t decoded = 0;      // samples of the image already sent
  int64_t lastEndGpu = 0;  // the last sent sample's end (GPU time), to count gaps as lost samples
  uint64_t lost = 0;       // samples lost: hardware buffer overflows, gaps between samples
  uint64_t reportedLost = 0;
  bool overflowed = false;
};

struct SamplingState {
  ProcessRecorder* recorder = nullptr;
  const gpu_metrics::MetricSet* set = nullptr;
  uint16_t setIndex = 0;
  int64_t frequencyHz = gpu_metrics::kDefaultFrequencyHz;
  std::vector<const char*> metricNames;  // the set's expressions, NUL-terminated copies
  std::vector<std::string> metricStorage;
  std::mutex lock;
  std::condition_variable wake;
  std::deque<std::pair<uint32_t, CUcontext>> pending;  // devices seen, not yet started
  uint64_t seenDevices = 0;                            // bit per device, under lock
  bool stopping = false;
  std::thread worker;
  std::atomic<bool> running{false};
  uint32_t pid = 0;
};

SamplingState* g_sampling = nullptr;

int64_t intervalNs(const SamplingState& state) { return 1'000'000'000 / state.frequencyHz; }

// Sends one sample record (values in the set's order).
void emitSample(SamplingState& state, uint32_t device, int64_t start, int64_t end, const std::vector<double>& values) {
  transport::GpuMetricSampleBody body{start, end, device, state.setIndex, static_cast<uint16_t>(values.size())};
  std::string_view bytes(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(double));
  state.recorder->emit(RecordType::GpuMetricSample, 0, &body, sizeof body, {bytes}, 0, kRingWaitNs);
}

void emitState(SamplingState& state, uint32_t device, transport::GpuMetricsState what, uint64_t lost,
               const std::string& message) {
  transport::GpuMetricsStateBody body{device, static_cast<uint32_t>(what), lost, static_cast<uint32_t>(message.size()),
                                      0};
  state.recorder->emit(RecordType::GpuMetricsState, 0, &body, sizeof body, {message}, 0, kRingWaitNs);
}

void initializeImage(DeviceSampler& gpu) {
  auto params = makeParams<CUpti_PmSampling_CounterDataImage_Initialize_Params>(
      CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  params.pPmSamplingObject = gpu.sampler;
  params.counterDataSize = gpu.counterData.size();
  params.pCounterData = gpu.counterData.data();
  check(gpu.device, cuptiPmSamplingCounterDataImageInitialize(&params), "cuptiPmSamplingCounterDataImageInitialize");
  gpu.decoded = 0;
}

// The context is made current on our thread first: CUPTI's PM sampling calls expect the device's context.
void makeCurrent(CUcontext context) {
  using SetCurrent = CUresult (*)(CUcontext);
  static SetCurrent setCurrent = [] {
    void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    return library ? reinterpret_cast<SetCurrent>(dlsym(library, "cuCtxSetCurrent")) : nullptr;
  }();
  if (setCurrent && context) setCurrent(context);
}

std::unique_ptr<DeviceSampler> startDevice(SamplingState& state, uint32_t device, CUcontext context) {
  auto gpu = std::make_unique<DeviceSampler>();
  gpu->device = device;
  gpu->context = context;
  auto profiler = makeParams<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  check(device, cuptiProfilerInitialize(&profiler), "cuptiProfilerInitialize");
  auto chip = makeParams<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip.deviceIndex = device;
  check(device, cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName");
  gpu->chip = chip.pChipName ? chip.pChipName : "";

  auto enable = makeParams<CUpti_PmSampling_Enable_Params>(CUpti_PmSampling_Enable_Params_STRUCT_SIZE);
  enable.deviceIndex = device;
  check(device, cuptiPmSamplingEnable(&enable), "cuptiPmSamplingEnable");
  gpu->sampler = enable.pPmSamplingObject;
  try {
    auto availability = makeParams<CUpti_PmSampling_GetCounterAvailability_Params>(
        CUpti_PmSampling_GetCounterAvailability_Params_STRUCT_SIZE);
    availability.deviceIndex = device;
    check(device, cuptiPmSamplingGetCounterAvailability(&availability), "cuptiPmSamplingGetCounterAvailability");
    gpu->availability.resize(availability.counterAvailabilityImageSize);
    availability.pCounterAvailabilityImage = gpu->availability.data();
    check(device, cuptiPmSamplingGetCounterAvailability(&availability), "cuptiPmSamplingGetCounterAvailability");

    auto host = makeParams<CUpti_Profiler_Host_Initialize_Params>(CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
    host.profilerType = CUPTI_PROFILER_TYPE_PM_SAMPLING;
    host.pChipName = gpu->chip.c_str();
    host.pCounterAvailabilityImage = gpu->availability.data();
    check(device, cuptiProfilerHostInitialize(&host), "cuptiProfilerHostInitialize");
    gpu->host = host.pHostObject;

    auto add = makeParams<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
    add.pHostObject = gpu->host;
    add.ppMetricNames = state.metricNames.data();
    add.numMetrics = state.metricNames.size();
    CUptiResult added = cuptiProfilerHostConfigAddMetrics(&add);
    if (added != CUPTI_SUCCESS)
      throw Refusal{"GPU metrics are not recorded on GPU " + std::to_string(device) + ": its chip " + gpu->chip +
                    " lacks counters of the set '" + std::string(state.set->name) + "' (" + resultText(added) + ")"};
    auto size = makeParams<CUpti_Profiler_Host_GetConfigImageSize_Params>(
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
    size.pHostObject = gpu->host;
    check(device, cuptiProfilerHostGetConfigImageSize(&size), "cuptiProfilerHostGetConfigImageSize");
    gpu->config.resize(size.configImageSize);
    auto image =
        makeParams<CUpti_Profiler_Host_GetConfigImage_Params>(CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
    image.pHostObject = gpu->host;
    image.configImageSize = gpu->config.size();
    image.pConfigImage = gpu->config.data();
    check(device, cuptiProfilerHostGetConfigImage(&image), "cuptiProfilerHostGetConfigImage");

    auto config = makeParams<CUpti_PmSampling_SetConfig_Params>(CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE);
    config.pPmSamplingObject = gpu->sampler;
    config.configSize = gpu->config.size();
    config.pConfig = gpu->config.data();
    config.hardwareBufferSize = kHardwareBufferBytes;
    config.samplingInterval = static_cast<uint64_t>(intervalNs(state));
    // A fixed time base, as nsys's frequency is in samples per second (the SYS clock varies).
    config.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
    // Keep the oldest: an overflow is then reported, and counted, instead of silently overwriting samples.
    config.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST;
    check(device, cuptiPmSamplingSetConfig(&config), "cuptiPmSamplingSetConfig");

    auto dataSize =
        makeParams<CUpti_PmSampling_GetCounterDataSize_Params>(CUpti_PmSampling_GetCounterDataSize_Params_STRUCT_SIZE);
    dataSize.pPmSamplingObject = gpu->sampler;
    dataSize.pMetricNames = state.metricNames.data();
    dataSize.numMetrics = state.metricNames.size();
    // About 100 ms of samples, within bounds: decoded every few tens of milliseconds.
    dataSize.maxSamples = static_cast<uint32_t>(std::clamp<int64_t>(state.frequencyHz / 10, 64, kMaxImageSamples));
    check(device, cuptiPmSamplingGetCounterDataSize(&dataSize), "cuptiPmSamplingGetCounterDataSize");
    gpu->counterData.resize(dataSize.counterDataSize);
    gpu->capacity = dataSize.maxSamples;
    initializeImage(*gpu);

    auto start = makeParams<CUpti_PmSampling_Start_Params>(CUpti_PmSampling_Start_Params_STRUCT_SIZE);
    start.pPmSamplingObject = gpu->sampler;
    check(device, cuptiPmSamplingStart(&start), "cuptiPmSamplingStart");
  } catch (const Refusal&) {
    auto disable = makeParams<CUpti_PmSampling_Disable_Params>(CUpti_PmSampling_Disable_Params_STRUCT_SIZE);
    disable.pPmSamplingObject = gpu->sampler;
    cuptiPmSamplingDisable(&disable);
    throw;
  }
  return gpu;
}

// Sends the image's completed samples not sent yet. The first sample's interval begins before sampling did
// (CUPTI gives it the time of an earlier state): it is left out, as its values are not one interval's.
void sendCompleted(SamplingState& state, DeviceSampler& gpu, size_t completed) {
  std::vector<double> values(state.metricNames.size());
  int64_t interval = intervalNs(state);
  ClockPair clocks = readClocks(gpu.context);
  if (!clocks.valid) {
    gpu.lost += completed - gpu.decoded;  // samples that cannot be placed in time are not kept
    gpu.decoded = completed;
    return;
  }
  for (; gpu.decoded < completed; ++gpu.decoded) {
    auto info = makeParams<CUpti_PmSampling_CounterData_GetSampleInfo_Params>(
        CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE);
    info.pPmSamplingObject = gpu.sampler;
    info.pCounterDataImage = gpu.counterData.data();
    info.counterDataImageSize = gpu.counterData.size();
    info.sampleIndex = gpu.decoded;
    if (cuptiPmSamplingCounterDataGetSampleInfo(&info) != CUPTI_SUCCESS) {
      ++gpu.lost;
      continue;
    }
    auto start = static_cast<int64_t>(info.startTimestamp);
    auto end = static_cast<int64_t>(info.endTimestamp);
    if (end - start > 2 * interval && gpu.lastEndGpu == 0) {
      gpu.lastEndGpu = end;  // the first sample: not one interval
      continue;
    }
    // A gap between two samples is samples the hardware did not keep.
    if (gpu.lastEndGpu != 0 && start - gpu.lastEndGpu > interval / 2)
      gpu.lost += static_cast<uint64_t>((start - gpu.lastEndGpu + interval / 2) / interval);
    gpu.lastEndGpu = end;
    auto evaluate = makeParams<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
        CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
    evaluate.pHostObject = gpu.host;
    evaluate.pCounterDataImage = gpu.counterData.data();
    evaluate.counterDataImageSize = gpu.counterData.size();
    evaluate.rangeIndex = gpu.decoded;
    evaluate.ppMetricNames = state.metricNames.data();
    evaluate.numMetrics = state.metricNames.size();
    evaluate.pMetricValues = values.data();
    if (cuptiProfilerHostEvaluateToGpuValues(&evaluate) != CUPTI_SUCCESS) {
      ++gpu.lost;
      continue;
    }
    emitSample(state, gpu.device,
               gpu_metrics::sessionTimeOfGpuTime(info.startTimestamp, clocks.gpuNs, clocks.sessionNs),
               gpu_metrics::sessionTimeOfGpuTime(info.endTimestamp, clocks.gpuNs, clocks.sessionNs), values);
  }
}

// Decodes what the GPU sampled since the last call and sends it. The image is reset once half full, before a
// decode, so a decode never fills it: on an H200 each decode that filled the image lost the raw samples that
// did not fit (a third of them at 5 and 20 kHz, in gaps of 30-100 ms right after each full image).
void drain(SamplingState& state, DeviceSampler& gpu) {
  for (int round = 0; round < 64; ++round) {
    if (gpu.capacity > 0 && gpu.decoded >= gpu.capacity / 2) {
      try {
        initializeImage(gpu);
      } catch (const Refusal&) {
        return;
      }
    }
    auto decode = makeParams<CUpti_PmSampling_DecodeData_Params>(CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE);
    decode.pPmSamplingObject = gpu.sampler;
    decode.pCounterDataImage = gpu.counterData.data();
    decode.counterDataImageSize = gpu.counterData.size();
    CUptiResult decoded = cuptiPmSamplingDecodeData(&decode);
    if (decode.overflow || decoded == CUPTI_ERROR_OUT_OF_MEMORY) gpu.overflowed = true;
    auto info =
        makeParams<CUpti_PmSampling_GetCounterDataInfo_Params>(CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE);
    info.pCounterDataImage = gpu.counterData.data();
    info.counterDataImageSize = gpu.counterData.size();
    if (cuptiPmSamplingGetCounterDataInfo(&info) != CUPTI_SUCCESS) return;
    traceStep("decoded samples", static_cast<int>(info.numCompletedSamples));
    sendCompleted(state, gpu, info.numCompletedSamples);
    // An image with no sample yet reports no total either: it is not full then.
    bool full = decode.decodeStopReason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL ||
                (info.numTotalSamples > 0 && info.numCompletedSamples >= info.numTotalSamples);
    if (!full) return;
    try {
      initializeImage(gpu);
    } catch (const Refusal&) {
      return;
    }
    if (decoded != CUPTI_SUCCESS) return;
  }
}

void reportLost(SamplingState& state, DeviceSampler& gpu, bool final) {
  if (gpu.lost == gpu.reportedLost && !(final && gpu.overflowed)) return;
  if (!final) return;  // said once, at the end, with the total
  std::string message =
      "GPU metrics of GPU " + std::to_string(gpu.device) + ": " + std::to_string(gpu.lost) + " samples were lost" +
      (gpu.overflowed ? " (the GPU's sample buffer overflowed: try a lower --gpu-metrics-frequency)" : "");
  emitState(state, gpu.device, transport::GpuMetricsState::Lost, gpu.lost - gpu.reportedLost, message);
  gpu.reportedLost = gpu.lost;
}

void stopDevice(SamplingState& state, DeviceSampler& gpu) {
  auto stop = makeParams<CUpti_PmSampling_Stop_Params>(CUpti_PmSampling_Stop_Params_STRUCT_SIZE);
  stop.pPmSamplingObject = gpu.sampler;
  traceStep("cuptiPmSamplingStop", static_cast<int>(cuptiPmSamplingStop(&stop)));
  drain(state, gpu);
  reportLost(state, gpu, true);
  auto disable = makeParams<CUpti_PmSampling_Disable_Params>(CUpti_PmSampling_Disable_Params_STRUCT_SIZE);
  disable.pPmSamplingObject = gpu.sampler;
  traceStep("cuptiPmSamplingDisable", static_cast<int>(cuptiPmSamplingDisable(&disable)));
  if (gpu.host) {
    auto deinit =
        makeParams<CUpti_Profiler_Host_Deinitialize_Params>(CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
    deinit.pHostObject = gpu.host;
    traceStep("cuptiProfilerHostDeinitialize", static_cast<int>(cuptiProfilerHostDeinitialize(&deinit)));
  }
}

// How often the samples are decoded: a quarter of an image's worth, between 5 and 50 ms, so that the image, reset
// once half full, has room for what one decode brings.
std::chrono::milliseconds decodePeriod(const SamplingState& state) {
  int64_t samples = std::clamp<int64_t>(state.frequencyHz / 10, 64, kMaxImageSamples);
  int64_t ms = samples * 1000 / state.frequencyHz / 4;
  return std::chrono::milliseconds(std::clamp<int64_t>(ms, 5, 50));
}

// The metrics host (gpu_metrics_host_main.cpp) waits for a byte per GPU that has started or refused.
void tellStarted() {
  static const int fd = [] {
    const char* text = std::getenv("GPUSCOPE_PM_STARTED_FD");
    return text ? std::atoi(text) : -1;
  }();
  if (fd < 0) return;
  char byte = 1;
  ssize_t written = write(fd, &byte, 1);
  (void)written;
}

void runSampler(SamplingState& state) {
  inject::markToolThread();
  pthread_setname_np(pthread_self(), "gpuscope-pmsamp");
  std::map<uint32_t, std::unique_ptr<DeviceSampler>> gpus;
  auto period = decodePeriod(state);
  for (;;) {
    std::deque<std::pair<uint32_t, CUcontext>> starting;
    bool stopping;
    {
      std::unique_lock<std::mutex> guard(state.lock);
      state.wake.wait_for(guard, period, [&] { return state.stopping || !state.pending.empty(); });
      starting.swap(state.pending);
      stopping = state.stopping;
    }
    for (auto [device, context] : starting) {
      traceStep("starting device", static_cast<int>(device));
      makeCurrent(context);
      try {
        gpus[device] = startDevice(state, device, context);
        emitState(state, device, transport::GpuMetricsState::Started, 0, {});
      } catch (const Refusal& refusal) {
        emitState(state, device, transport::GpuMetricsState::Refused, 0, refusal.message);
      }
      tellStarted();
    }
    for (auto& [device, gpu] : gpus) drain(state, *gpu);
    if (stopping) break;
  }
  for (auto& [device, gpu] : gpus) stopDevice(state, *gpu);
}

}  // namespace

bool pmSamplingRequested() {
  const char* hz = std::getenv("GPUSCOPE_GPU_METRICS_HZ");
  return hz && *hz;
}

bool startPmSampling(ProcessRecorder& recorder, CUpti_SubscriberHandle subscriber) {
  auto state = std::make_unique<SamplingState>();
  state->recorder = &recorder;
  state->pid = static_cast<uint32_t>(getpid());
  const char* hz = std::getenv("GPUSCOPE_GPU_METRICS_HZ");
  const char* set = std::getenv("GPUSCOPE_GPU_METRICS_SET");
  state->frequencyHz = hz ? std::strtoll(hz, nullptr, 10) : gpu_metrics::kDefaultFrequencyHz;
  std::string setName = set && *set ? set : std::string(gpu_metrics::kDefaultSet);
  std::string problem = gpu_metrics::gpuMetricsOptionsProblem(state->frequencyHz, setName);
  if (!problem.empty()) {
    emitState(*state, 0, transport::GpuMetricsState::Refused, 0, "GPU metrics are not recorded: " + problem);
    return false;
  }
  state->setIndex = static_cast<uint16_t>(gpu_metrics::metricSetIndex(setName));
  state->set = gpu_metrics::findMetricSet(setName);
  for (const auto& counter : state->set->counters) state->metricStorage.emplace_back(counter.expression);
  for (const std::string& name : state->metricStorage) state->metricNames.push_back(name.c_str());
  CUptiResult enabled =
      cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
  if (enabled != CUPTI_SUCCESS) {
    emitState(*state, 0, transport::GpuMetricsState::Refused, 0,
              "GPU metrics are not recorded: CUPTI refused the context callback (" + resultText(enabled) + ")");
    return false;
  }
  traceStep("sampling thread starts", static_cast<int>(state->frequencyHz));
  g_sampling = state.release();
  g_sampling->running.store(true);
  g_sampling->worker = std::thread(runSampler, std::ref(*g_sampling));
  return true;
}

void pmSamplingSawContext(CUcontext context) {
  SamplingState* state = g_sampling;
  traceStep("context created", state ? 1 : 0);
  if (!state || !state->running.load()) return;
  uint32_t device = 0;
  if (cuptiGetDeviceId(context, &device) != CUPTI_SUCCESS || device >= 64) return;
  {
    std::lock_guard<std::mutex> guard(state->lock);
    if (state->seenDevices & (uint64_t{1} << device)) return;
    state->seenDevices |= uint64_t{1} << device;
    state->pending.emplace_back(device, context);
  }
  state->wake.notify_one();
}

void stopPmSampling() {
  SamplingState* state = g_sampling;
  if (!state || !state->running.exchange(false) || state->pid != static_cast<uint32_t>(getpid())) return;
  {
    std::lock_guard<std::mutex> guard(state->lock);
    state->stopping = true;
  }
  state->wake.notify_one();
  if (state->worker.joinable()) state->worker.join();
}

}  // namespace gpuscope::cuda
