#include "collector/sampling/cpu_sampler.h"

#include <algorithm>
#include <ctime>

#include "collector/sampling/elf_symbols.h"

namespace gpuscope::sampling {
namespace {

int64_t monotonicNow() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

int64_t percentile(std::vector<int64_t> values, double fraction) {
  if (values.empty()) return 0;
  size_t at = std::min(values.size() - 1, static_cast<size_t>(fraction * static_cast<double>(values.size())));
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(at), values.end());
  return values[at];
}

}  // namespace

CpuSampler::CpuSampler(pid_t pid, const SamplerOptions& options) {
  PerfRingOptions ringOptions;
  ringOptions.samples = options.samples;
  ringOptions.frequencyHz = options.frequencyHz;
  ringOptions.contextSwitches = options.contextSwitches;
  rings_ = std::make_unique<PerfRings>(pid, ringOptions);
}

CpuSampler::~CpuSampler() { stop(); }

void CpuSampler::start() {
  thread_ = std::thread([this] { run(); });
}

void CpuSampler::stop() {
  if (!thread_.joinable()) return;
  stopping_ = true;
  thread_.join();
}

void CpuSampler::run() {
  RecordHandlers handlers;
  handlers.sample = [this](const SampleRecord& sample) { onSample(sample); };
  handlers.contextSwitch = [this](const SwitchRecord& change) {
    switches_.push_back({static_cast<TimeNs>(change.time), change.pid, change.tid, static_cast<int32_t>(change.cpu),
                         !change.out, change.preempted});
  };
  handlers.mmap = [this](const MmapRecord& map) { onMapping(map); };
  handlers.task = [this](const TaskRecord& task) { onTask(task); };
  while (!stopping_) rings_->drain(50, handlers);
  rings_->drain(0, handlers);
}

void CpuSampler::onSample(const SampleRecord& sample) {
  uint32_t python = kNoStack;
  if (python_.knowsProcess(static_cast<pid_t>(sample.pid))) {
    auto frames = python_.read(static_cast<pid_t>(sample.pid), static_cast<pid_t>(sample.tid));
    if (!frames.empty()) {
      python = internPython(frames);
      ++pythonSamples_;
      pythonLags_.push_back(monotonicNow() - static_cast<int64_t>(sample.time));
    }
  }
  samples_.push_back(
      {sample.time, sample.pid, sample.tid, sample.cpu, internNative(sample.pid, sample.chain, sample.time), python});
}

void CpuSampler::onMapping(const MmapRecord& map) {
  spaces_.addMapping(static_cast<pid_t>(map.pid),
                     {map.start, map.start + map.length, map.pageOffset, map.time, map.path});
  std::string version = pythonVersionOf(map.path);
  if (version.empty() || !pythonLayoutKnown(version) || python_.knowsProcess(static_cast<pid_t>(map.pid))) return;
  auto symbols = ElfSymbols::load(map.path);
  auto runtime = symbols ? symbols->addressOf("_PyRuntime") : std::nullopt;
  if (!runtime) return;
  python_.addInterpreter(static_cast<pid_t>(map.pid), map.path,
                         symbols->loadBias(map.start, map.pageOffset) + *runtime);
  interpreterOf_[map.pid] = map.path;
}

void CpuSampler::onTask(const TaskRecord& task) {
  if (task.kind != TaskRecord::Fork || task.pid == task.parentPid) return;
  spaces_.addFork(static_cast<pid_t>(task.parentPid), static_cast<pid_t>(task.pid), task.time);
  python_.inherit(static_cast<pid_t>(task.parentPid), static_cast<pid_t>(task.pid));
  auto interpreter = interpreterOf_.find(task.parentPid);
  if (interpreter != interpreterOf_.end()) interpreterOf_[task.pid] = interpreter->second;
}

uint32_t CpuSampler::internNative(uint32_t pid, std::span<const uint64_t> chain, uint64_t time) {
  std::vector<uint64_t> key(chain.begin(), chain.end());
  auto [it, added] = nativeIds_.try_emplace({pid, key}, static_cast<uint32_t>(nativeStacks_.size()));
  if (added) nativeStacks_.push_back({pid, std::move(key), time});
  return it->second;
}

uint32_t CpuSampler::internPython(const std::vector<PythonFrame>& frames) {
  std::vector<std::pair<uint32_t, int>> key;
  key.reserve(frames.size());
  for (const PythonFrame& frame : frames) key.emplace_back(frame.function, frame.line);
  auto [it, added] = pythonIds_.try_emplace(std::move(key), static_cast<uint32_t>(pythonStacks_.size()));
  if (added) pythonStacks_.push_back(frames);
  return it->second;
}

SamplerCounts CpuSampler::counts() const {
  SamplerCounts counts;
  counts.samples = samples_.size();
  counts.switches = switches_.size();
  counts.lost = rings_->lostRecords();
  counts.pythonSamples = pythonSamples_;
  counts.pythonFailedReads = python_.failedReads();
  counts.pythonReadLagP50Ns = percentile(pythonLags_, 0.5);
  counts.pythonReadLagP99Ns = percentile(pythonLags_, 0.99);
  return counts;
}

}  // namespace gpuscope::sampling
