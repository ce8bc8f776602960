#include "core/model/trace.h"

#include <algorithm>
#include <future>

#include "core/db/sqlite_database.h"
#include "core/model/correlation_index.h"

namespace gpuscope {
namespace {

const std::string kEmpty;

}  // namespace

std::string_view trackKindName(TrackKind kind) {
  switch (kind) {
    case TrackKind::CudaApi:
      return "CUDA API";
    case TrackKind::Nvtx:
      return "NVTX";
    case TrackKind::OsRuntime:
      return "OS runtime";
    case TrackKind::GpuKernels:
      return "Kernels";
    case TrackKind::GpuMemory:
      return "Memory";
  }
  return "Events";
}

void Lane::pushInterval(TimeNs s, TimeNs e) {
  // Unsigned, so that a span wider than int64 (a hostile file's extremes) is still measured right.
  uint64_t span = e >= s ? static_cast<uint64_t>(e) - static_cast<uint64_t>(s) : 0;
  if (span >= kLongLength) {
    longEnds.emplace_back(static_cast<uint32_t>(start.size()), e);
    length.push_back(kLongLength);
  } else {
    length.push_back(static_cast<uint32_t>(span));
  }
  start.push_back(s);
}

TimeNs Lane::longEnd(size_t i) const {
  auto it =
      std::lower_bound(longEnds.begin(), longEnds.end(), i,
                       [](const std::pair<uint32_t, TimeNs>& entry, size_t index) { return entry.first < index; });
  return it != longEnds.end() && it->first == i ? it->second : start[i];
}

size_t Lane::firstEndAtOrAfter(size_t lo, size_t hi, TimeNs limit) const {
  // A bisection by hand: std::ranges over std::views::iota does not build with clang 14 and
  // libstdc++ 12 (the fuzz build), and std::lower_bound needs an iterator over the computed ends.
  size_t count = hi > lo ? hi - lo : 0;
  while (count > 0) {
    size_t half = count / 2;
    if (end(lo + half) < limit) {
      lo += half + 1;
      count -= half + 1;
    } else {
      count = half;
    }
  }
  return lo;
}

size_t Track::eventCount() const {
  size_t count = 0;
  for (const auto& lane : lanes) count += lane.size();
  return count;
}

Trace::Trace() = default;
Trace::~Trace() = default;

const DeviceInfo* Trace::device(uint32_t id) const {
  for (const auto& d : devices_) {
    if (d.id == id) return &d;
  }
  return nullptr;
}

const std::string& Trace::string(StringId id) const { return id < strings_.size() ? strings_[id] : kEmpty; }

StringId Trace::longNameId(EventRef ref) const {
  const Lane& l = lane(ref);
  if (tracks_[ref.track].kind != TrackKind::GpuKernels || l.style.size() <= ref.index) return l.name[ref.index];
  return l.style[ref.index];
}

std::optional<EventRef> Trace::launchingCall(EventRef gpuWork) const {
  const auto& track = tracks_.at(gpuWork.track);
  uint32_t correlation = lane(gpuWork).correlation[gpuWork.index];
  if (!track.isGpu() || correlation == 0) return std::nullopt;
  buildCorrelationIndexes();
  auto calls = apiByCorrelation_->find(tracks_, track.pid, correlation);
  if (calls.empty()) return std::nullopt;
  return calls.front();
}

std::optional<EventRef> Trace::apiCallByCorrelation(uint32_t pid, uint32_t correlation) const {
  if (correlation == 0) return std::nullopt;
  buildCorrelationIndexes();
  auto calls = apiByCorrelation_->find(tracks_, pid, correlation);
  if (calls.empty()) return std::nullopt;
  return calls.front();
}

std::vector<EventRef> Trace::launchedWork(EventRef apiCall) const {
  const auto& track = tracks_.at(apiCall.track);
  uint32_t correlation = lane(apiCall).correlation[apiCall.index];
  if (track.kind != TrackKind::CudaApi || correlation == 0) return {};
  buildCorrelationIndexes();
  return gpuByCorrelation_->find(tracks_, track.pid, correlation);
}

void Trace::buildCorrelationIndexes() const {
  std::call_once(correlationBuilt_, [this] {
    auto gpu = std::async(std::launch::async, [this] {
      return CorrelationIndex::build(tracks_, [](const Track& t) { return t.isGpu(); });
    });
    auto api = CorrelationIndex::build(tracks_, [](const Track& t) { return t.kind == TrackKind::CudaApi; });
    apiByCorrelation_ = std::make_unique<CorrelationIndex>(std::move(api));
    gpuByCorrelation_ = std::make_unique<CorrelationIndex>(gpu.get());
  });
}

Trace::MemoSlot& Trace::memoSlot(std::type_index type) const {
  std::lock_guard lock(memoMutex_);
  std::unique_ptr<MemoSlot>& slot = memos_[type];
  if (!slot) slot = std::make_unique<MemoSlot>();
  return *slot;
}

size_t Trace::residentBytes() const {
  size_t bytes = sizeof(Trace);
  for (const auto& s : strings_) bytes += sizeof(std::string) + (s.size() > 15 ? s.capacity() + 1 : 0);
  for (const auto& track : tracks_) {
    bytes += sizeof(Track) + track.label.capacity();
    for (const auto& lane : track.lanes) {
      bytes += sizeof(Lane) + lane.start.capacity() * sizeof(TimeNs) + lane.length.capacity() * sizeof(uint32_t) +
               lane.longEnds.capacity() * sizeof(lane.longEnds[0]) + lane.name.capacity() * sizeof(StringId) +
               lane.correlation.capacity() * sizeof(uint32_t) + lane.row.capacity() * sizeof(uint32_t) +
               lane.style.capacity() * sizeof(uint32_t);
    }
  }
  for (const auto* index : {apiByCorrelation_.get(), gpuByCorrelation_.get()})
    if (index) bytes += sizeof(CorrelationIndex) + index->residentBytes();
  for (const auto& p : processes_) bytes += sizeof(ProcessInfo) + p.threads.capacity() * sizeof(ThreadInfo);
  for (const auto& d : devices_) bytes += sizeof(DeviceInfo) + d.streams.capacity() * sizeof(StreamInfo);
  return bytes;
}

}  // namespace gpuscope
