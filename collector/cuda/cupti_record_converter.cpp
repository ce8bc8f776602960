#include "collector/cuda/cupti_record_converter.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "collector/cuda/kernel_demangler.h"

namespace gpuscope::cuda {

using transport::RecordType;

namespace {

// Runtime correlation ids remembered to recognize nested driver calls.
constexpr size_t kRememberedRuntimeCalls = 1 << 16;
// Untimed kernels waiting for the profiler's times, at most.
constexpr size_t kMaxHeldKernels = 1 << 12;

// CUpti_ActivityMemoryKind (0 unknown, 1 pageable, ...) to ENUM_CUDA_MEM_KIND (0 pageable, ..., 7 unknown).
uint8_t memoryKind(uint32_t cuptiKind) {
  return cuptiKind >= 1 && cuptiKind <= 7 ? static_cast<uint8_t>(cuptiKind - 1) : 7;
}

// CUpti_ActivityLaunchType (0 regular) to ENUM_CUDA_KERNEL_LAUNCH_TYPE (1 regular).
uint8_t launchType(uint8_t cuptiType) { return static_cast<uint8_t>(cuptiType + 1); }

bool untimed(uint64_t start, uint64_t end) { return start == 0 && end == 0; }

}  // namespace

std::string demangle(const char* name) { return demangleKernelName(name); }

bool memoryUsageBody(const CUpti_ActivityMemory4& memory, transport::MemoryUsageBody& body) {
  body = {};
  switch (memory.memoryOperationType) {
    case CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION:
      body.operation = 0;  // nsys_enum::kDevMemAllocation
      break;
    case CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE:
      body.operation = 1;  // nsys_enum::kDevMemDeallocation
      break;
    default:
      return false;
  }
  body.start = static_cast<int64_t>(memory.timestamp);
  body.address = memory.address;
  body.bytes = memory.bytes;
  body.pc = memory.PC;
  body.deviceId = memory.deviceId;
  body.contextId = memory.contextId;
  body.streamId = memory.streamId;
  body.correlationId = memory.correlationId;
  body.memKind = memoryKind(static_cast<uint32_t>(memory.memoryKind));
  body.poolType = static_cast<uint32_t>(memory.memoryPoolConfig.memoryPoolType);
  body.poolAddress = memory.memoryPoolConfig.address;
  body.poolReleaseThreshold = memory.memoryPoolConfig.releaseThreshold;
  body.poolSizeOrProcessId = memory.memoryPoolConfig.pool.size;
  body.poolUtilizedSize = memory.memoryPoolConfig.utilizedSize;
  body.nameLength = memory.name ? static_cast<uint32_t>(std::strlen(memory.name)) : 0;
  return true;
}

std::string kernelShortName(std::string_view name) {
  // Cut the parameter list: the last top-level "(...)" group.
  if (!name.empty() && name.back() == ')') {
    int depth = 0;
    for (size_t i = name.size(); i-- > 0;) {
      if (name[i] == ')') ++depth;
      if (name[i] == '(' && --depth == 0) {
        name = name.substr(0, i);
        break;
      }
    }
  }
  // Cut trailing template arguments.
  while (!name.empty() && name.back() == '>') {
    int depth = 0;
    size_t open = std::string_view::npos;
    for (size_t i = name.size(); i-- > 0;) {
      if (name[i] == '>') ++depth;
      if (name[i] == '<' && --depth == 0) {
        open = i;
        break;
      }
    }
    if (open == std::string_view::npos || open == 0) break;
    name = name.substr(0, open);
  }
  // The last "::" or space outside brackets starts the function's own name.
  int depth = 0;
  size_t begin = 0;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (c == '<' || c == '(' || c == '[') ++depth;
    if (c == '>' || c == ')' || c == ']') --depth;
    if (depth != 0) continue;
    if (c == ' ') begin = i + 1;
    if (c == ':' && i + 1 < name.size() && name[i + 1] == ':') begin = i + 2;
  }
  std::string_view result = name.substr(begin);
  return std::string(result.empty() ? name : result);
}

CuptiRecordConverter::CuptiRecordConverter(RecordSink& sink, ApiNameLookup apiNames)
    : sink_(sink), apiNames_(std::move(apiNames)) {}

void CuptiRecordConverter::reset() {
  strings_.clear();
  kernels_.clear();
  apiNameIds_.clear();
  runtimeCorrelations_.clear();
  runtimeOrder_.clear();
  heldDriverCalls_.clear();
  heldKernels_.clear();
}

uint64_t CuptiRecordConverter::stringId(const std::string& text) {
  auto found = strings_.find(text);
  if (found != strings_.end()) return found->second;
  uint64_t id = nextStringId_++;
  strings_.emplace(text, id);
  transport::StringBody body{id, static_cast<uint32_t>(text.size()), 0};
  sink_.define(RecordType::String, &body, sizeof body, text);
  return id;
}

const CuptiRecordConverter::KernelNames& CuptiRecordConverter::kernelNames(const char* name) {
  // CUPTI shares one name pointer among all records of a kernel.
  auto found = kernels_.find(name);
  if (found != kernels_.end() && (!name || found->second.text == name)) return found->second;
  std::string mangled = name ? name : "[unknown kernel]";
  std::string demangled = name ? demangle(name) : mangled;
  KernelNames names{stringId(demangled), stringId(kernelShortName(demangled)), stringId(mangled), mangled};
  return kernels_.insert_or_assign(name, std::move(names)).first->second;
}

uint64_t CuptiRecordConverter::apiNameId(bool driver, uint32_t callbackId) {
  uint64_t key = (uint64_t{driver} << 32) | callbackId;
  auto found = apiNameIds_.find(key);
  if (found != apiNameIds_.end()) return found->second;
  std::string name = apiNames_ ? apiNames_(driver, callbackId) : std::string();
  if (name.empty()) name = (driver ? "[driver API " : "[runtime API ") + std::to_string(callbackId) + "]";
  uint64_t id = stringId(name);
  apiNameIds_.emplace(key, id);
  return id;
}

void CuptiRecordConverter::writeApi(const transport::CudaApiBody& body, transport::CudaApiKind kind, uint32_t tid) {
  sink_.write(RecordType::CudaApi, static_cast<uint16_t>(kind), tid, &body, sizeof body, {});
  ++counts_.converted;
}

void CuptiRecordConverter::noteRuntimeCorrelation(uint32_t correlationId) {
  if (!runtimeCorrelations_.insert(correlationId).second) return;
  runtimeOrder_.push_back(correlationId);
  if (runtimeOrder_.size() > kRememberedRuntimeCalls) {
    runtimeCorrelations_.erase(runtimeOrder_.front());
    runtimeOrder_.pop_front();
  }
  // A driver call held back with this id was made inside this runtime call.
  for (size_t i = 0; i < heldDriverCalls_.size(); ++i) {
    if (heldDriverCalls_[i].body.correlationId == correlationId) {
      heldDriverCalls_.erase(heldDriverCalls_.begin() + static_cast<std::ptrdiff_t>(i));
      ++counts_.nestedDriverCalls;
      break;
    }
  }
}

void CuptiRecordConverter::writeKernel(const CUpti_ActivityKernel10& kernel, int64_t start, int64_t end) {
  const KernelNames& names = kernelNames(kernel.name);
  transport::KernelBody body{};
  body.start = start;
  body.end = end;
  body.demangledNameId = names.demangled;
  body.shortNameId = names.shortName;
  body.mangledNameId = names.mangled;
  body.gridId = kernel.gridId;
  body.localMemoryTotal = static_cast<int64_t>(kernel.localMemoryTotal_v2);
  body.graphNodeId = kernel.graphNodeId;
  body.deviceId = kernel.deviceId;
  body.contextId = kernel.contextId;
  body.streamId = kernel.streamId;
  body.correlationId = kernel.correlationId;
  body.gridX = kernel.gridX;
  body.gridY = kernel.gridY;
  body.gridZ = kernel.gridZ;
  body.blockX = kernel.blockX;
  body.blockY = kernel.blockY;
  body.blockZ = kernel.blockZ;
  body.staticSharedMemory = kernel.staticSharedMemory;
  body.dynamicSharedMemory = kernel.dynamicSharedMemory;
  body.localMemoryPerThread = kernel.localMemoryPerThread;
  body.sharedMemoryExecuted = kernel.sharedMemoryExecuted;
  body.registersPerThread = kernel.registersPerThread;
  body.launchType = launchType(kernel.launchType);
  body.cacheConfigRequested = kernel.cacheConfig.config.requested;
  body.cacheConfigExecuted = kernel.cacheConfig.config.executed;
  body.sharedMemoryLimitConfig = static_cast<uint8_t>(kernel.shmemLimitConfig);
  sink_.write(RecordType::Kernel, 0, 0, &body, sizeof body, {});
  ++counts_.converted;
}

bool CuptiRecordConverter::writeWithProfilerTimes(const CUpti_ActivityKernel10& kernel) {
  std::optional<KernelTimes> times = untimedKernelTimes_(kernel.correlationId);
  if (!times) return false;
  writeKernel(kernel, times->start, times->end);
  ++counts_.kernelsTimedByProfiler;
  return true;
}

void CuptiRecordConverter::convertUntimedKernel(const CUpti_ActivityKernel10& kernel) {
  if (untimedKernelTimes_) {
    if (writeWithProfilerTimes(kernel)) return;
    // The profiler may note the times just after CUPTI handed the record over: try again later.
    if (heldKernels_.size() < kMaxHeldKernels) {
      heldKernels_.push_back(kernel);
      return;
    }
  }
  ++counts_.withoutTimestamps;
  ++counts_.kernelsWithoutTimestamps;
}

void CuptiRecordConverter::retryHeldKernels(bool final) {
  std::vector<CUpti_ActivityKernel10> keep;
  for (const CUpti_ActivityKernel10& kernel : heldKernels_) {
    if (writeWithProfilerTimes(kernel)) continue;
    if (!final) {
      keep.push_back(kernel);
      continue;
    }
    ++counts_.withoutTimestamps;
    ++counts_.kernelsWithoutTimestamps;
  }
  heldKernels_ = std::move(keep);
}

void CuptiRecordConverter::endBuffer(bool final) {
  if (!heldKernels_.empty()) retryHeldKernels(final);
  // Kernel and memory buffers say nothing about API calls: only buffers with API records count.
  if (!final && !bufferHasApi_) return;
  bufferHasApi_ = false;
  ++buffer_;
  std::vector<HeldDriverCall> keep;
  for (const HeldDriverCall& held : heldDriverCalls_) {
    if (final || held.buffer + 2 <= buffer_) {
      writeApi(held.body, transport::CudaApiKind::Driver, held.tid);
    } else {
      keep.push_back(held);
    }
  }
  heldDriverCalls_ = std::move(keep);
}

void CuptiRecordConverter::convert(const CUpti_Activity& record) {
  switch (record.kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
      const auto& kernel = reinterpret_cast<const CUpti_ActivityKernel10&>(record);
      if (untimed(kernel.start, kernel.end)) return convertUntimedKernel(kernel);
      writeKernel(kernel, static_cast<int64_t>(kernel.start), static_cast<int64_t>(kernel.end));
      return;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
      const auto& copy = reinterpret_cast<const CUpti_ActivityMemcpy6&>(record);
      if (untimed(copy.start, copy.end)) {
        ++counts_.withoutTimestamps;
        return;
      }
      transport::MemcpyBody body{};
      body.start = static_cast<int64_t>(copy.start);
      body.end = static_cast<int64_t>(copy.end);
      body.bytes = copy.bytes;
      body.graphNodeId = copy.graphNodeId;
      body.deviceId = copy.deviceId;
      body.contextId = copy.contextId;
      body.streamId = copy.streamId;
      // The copy's runtime call when there is one, else the driver call that made it.
      body.correlationId = copy.runtimeCorrelationId ? copy.runtimeCorrelationId : copy.correlationId;
      body.copyKind = copy.copyKind;
      body.srcKind = memoryKind(copy.srcKind);
      body.dstKind = memoryKind(copy.dstKind);
      sink_.write(RecordType::Memcpy, 0, 0, &body, sizeof body, {});
      ++counts_.converted;
      return;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY2: {
      const auto& copy = reinterpret_cast<const CUpti_ActivityMemcpyPtoP4&>(record);
      if (untimed(copy.start, copy.end)) {
        ++counts_.withoutTimestamps;
        return;
      }
      transport::MemcpyBody body{};
      body.start = static_cast<int64_t>(copy.start);
      body.end = static_cast<int64_t>(copy.end);
      body.bytes = copy.bytes;
      body.graphNodeId = copy.graphNodeId;
      body.deviceId = copy.deviceId;
      body.contextId = copy.contextId;
      body.streamId = copy.streamId;
      body.correlationId = copy.correlationId;
      body.srcDeviceId = copy.srcDeviceId;
      body.srcContextId = copy.srcContextId;
      body.dstDeviceId = copy.dstDeviceId;
      body.dstContextId = copy.dstContextId;
      body.copyKind = copy.copyKind;
      body.srcKind = memoryKind(copy.srcKind);
      body.dstKind = memoryKind(copy.dstKind);
      body.isPeer = 1;
      sink_.write(RecordType::Memcpy, 0, 0, &body, sizeof body, {});
      ++counts_.converted;
      return;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
      const auto& set = reinterpret_cast<const CUpti_ActivityMemset4&>(record);
      if (untimed(set.start, set.end)) {
        ++counts_.withoutTimestamps;
        return;
      }
      transport::MemsetBody body{};
      body.start = static_cast<int64_t>(set.start);
      body.end = static_cast<int64_t>(set.end);
      body.bytes = set.bytes;
      body.graphNodeId = set.graphNodeId;
      body.deviceId = set.deviceId;
      body.contextId = set.contextId;
      body.streamId = set.streamId;
      body.correlationId = set.correlationId;
      body.value = set.value;
      body.memoryKind = memoryKind(set.memoryKind);
      sink_.write(RecordType::Memset, 0, 0, &body, sizeof body, {});
      ++counts_.converted;
      return;
    }
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: {
      const auto& sync = reinterpret_cast<const CUpti_ActivitySynchronization2&>(record);
      if (untimed(sync.start, sync.end)) {
        ++counts_.withoutTimestamps;
        return;
      }
      transport::SyncBody body{};
      body.start = static_cast<int64_t>(sync.start);
      body.end = static_cast<int64_t>(sync.end);
      body.eventSyncId = sync.cudaEventSyncId;
      body.contextId = sync.contextId;
      body.streamId = sync.streamId;
      body.correlationId = sync.correlationId;
      body.syncType = static_cast<uint32_t>(sync.type);
      body.eventId = sync.cudaEventId;
      sink_.write(RecordType::Sync, 0, 0, &body, sizeof body, {});
      ++counts_.converted;
      return;
    }
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER: {
      const auto& api = reinterpret_cast<const CUpti_ActivityAPI&>(record);
      bool driver = record.kind == CUPTI_ACTIVITY_KIND_DRIVER;
      bufferHasApi_ = true;
      if (std::find(ignoredThreads_.begin(), ignoredThreads_.end(), api.threadId) != ignoredThreads_.end()) {
        ++counts_.toolThreadCalls;
        return;
      }
      transport::CudaApiBody body{};
      body.start = static_cast<int64_t>(api.start);
      body.end = static_cast<int64_t>(api.end);
      body.nameId = apiNameId(driver, api.cbid);
      body.correlationId = api.correlationId;
      body.returnValue = api.returnValue;
      if (!driver) {
        writeApi(body, transport::CudaApiKind::Runtime, api.threadId);
        noteRuntimeCorrelation(api.correlationId);
      } else if (runtimeCorrelations_.count(api.correlationId)) {
        ++counts_.nestedDriverCalls;  // made inside a runtime call already written
      } else {
        heldDriverCalls_.push_back({body, api.threadId, buffer_});
      }
      return;
    }
    case CUPTI_ACTIVITY_KIND_MEMORY2: {
      const auto& memory = reinterpret_cast<const CUpti_ActivityMemory4&>(record);
      transport::MemoryUsageBody body{};
      if (!memoryUsageBody(memory, body)) {
        ++counts_.unknownKinds;
        return;
      }
      sink_.write(RecordType::MemoryUsage, 0, 0, &body, sizeof body,
                  {std::string_view(memory.name ? memory.name : "", body.nameLength)});
      ++counts_.converted;
      return;
    }
    case CUPTI_ACTIVITY_KIND_CONTEXT: {
      const auto& context = reinterpret_cast<const CUpti_ActivityContext3&>(record);
      transport::ContextBody body{context.contextId, context.deviceId, context.nullStreamId, 0};
      sink_.write(RecordType::Context, 0, 0, &body, sizeof body, {});
      ++counts_.converted;
      return;
    }
    case CUPTI_ACTIVITY_KIND_STREAM: {
      const auto& stream = reinterpret_cast<const CUpti_ActivityStream&>(record);
      transport::StreamBody body{stream.contextId, stream.streamId, stream.priority,
                                 static_cast<uint32_t>(stream.flag)};
      sink_.write(RecordType::Stream, 0, 0, &body, sizeof body, {});
      ++counts_.converted;
      return;
    }
    default:
      ++counts_.unknownKinds;
      return;
  }
}

}  // namespace gpuscope::cuda
