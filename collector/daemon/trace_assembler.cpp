#include "collector/daemon/trace_assembler.h"

#include <cstring>
#include <fstream>
#include <set>
#include <string_view>
#include <utility>

#include "collector/daemon/kernel_metrics_rows.h"
#include "collector/transport/osrt_functions.h"
#include "core/model/global_id.h"
#include "core/write/trace_writer.h"

namespace gpuscope {

using transport::RecordType;
using transport::RecordView;

namespace {

// nsys numbers the hardware and the virtual machine of a local recording 0 and 1.
constexpr uint32_t kHardwareId = 0;
constexpr uint32_t kVmId = 1;

int64_t globalPidOf(uint32_t pid) { return global_id::make(kHardwareId, kVmId, pid, 0); }
int64_t globalTidOf(uint32_t pid, uint32_t tid) { return global_id::make(kHardwareId, kVmId, pid, tid); }

// Copies the fixed-size body of a record; false when the record is too short for it.
template <typename Body>
bool readBody(const RecordView& record, Body& body) {
  if (record.bodyBytes < sizeof(Body)) return false;
  std::memcpy(&body, record.body, sizeof(Body));
  return true;
}

// Text stored after the body, cut to what the record really holds.
std::string_view textAfter(const RecordView& record, size_t offset, uint64_t length) {
  if (offset > record.bodyBytes) return {};
  uint64_t available = record.bodyBytes - offset;
  return {reinterpret_cast<const char*>(record.body) + offset, static_cast<size_t>(std::min(available, length))};
}

std::string threadNameFromProc(uint32_t pid, uint32_t tid) {
  std::ifstream file("/proc/" + std::to_string(pid) + "/task/" + std::to_string(tid) + "/comm");
  std::string name;
  if (!std::getline(file, name)) return {};
  return name;
}

}  // namespace

// What the assembler keeps per ring file.
class ProcessTrace {
 public:
  struct OpenRange {
    int64_t start = 0;
    uint32_t tid = 0;
    std::string text;
    bool registered = false;
    int64_t domain = 0;
    std::optional<uint32_t> color;
    std::optional<uint32_t> category;
  };

  uint64_t key = 0;
  uint32_t pid = 0;
  uint32_t ppid = 0;
  int64_t globalPid = 0;
  int64_t lastTime = std::numeric_limits<int64_t>::min();
  std::unordered_map<uint64_t, std::string> strings;
  std::unordered_map<uint64_t, std::string> nvtxStrings;
  std::unordered_map<uint64_t, int64_t> domains;                          // local id -> file-wide domain id
  std::map<std::pair<uint32_t, int64_t>, std::vector<OpenRange>> stacks;  // (tid, domain) -> pushed ranges
  std::unordered_map<uint64_t, OpenRange> startedRanges;
  std::unordered_map<uint64_t, std::pair<int64_t, uint32_t>> endedRanges;  // range id -> (time, tid)
  std::unordered_map<uint32_t, uint32_t> contextDevices;
  std::set<uint32_t> knownThreads;

  void saw(int64_t time) {
    if (time > lastTime) lastTime = time;
  }
  const std::string& string(uint64_t id) const {
    static const std::string kUnknown = "[unknown]";
    auto found = strings.find(id);
    return found != strings.end() ? found->second : kUnknown;
  }
  int64_t domain(uint64_t localId) const {
    if (localId == 0) return 0;
    auto found = domains.find(localId);
    return found != domains.end() ? found->second : 0;
  }
};

TraceAssembler::TraceAssembler(TraceWriter& writer, CaptureWindow window, bool threaded)
    : writer_(writer), rows_(writer, threaded), window_(window) {}

TraceAssembler::~TraceAssembler() = default;

ProcessTrace& TraceAssembler::openProcess(uint32_t pid, uint32_t ppid) {
  auto process = std::make_unique<ProcessTrace>();
  process->key = nextProcessKey_++;
  process->pid = pid;
  process->ppid = ppid;
  process->globalPid = globalPidOf(pid);
  ProcessTrace& result = *process;
  processes_.emplace(result.key, std::move(process));
  return result;
}

bool TraceAssembler::inWindow(int64_t start) {
  if (start >= window_.begin && start <= window_.end) return true;
  ++counts_.outsideWindow;
  return false;
}

void TraceAssembler::nameThread(int64_t globalTid, std::string_view name, bool fromNvtx) {
  ThreadName& entry = threadNames_[globalTid];
  if (entry.fromNvtx && !fromNvtx) return;
  entry.name = std::string(name);
  entry.fromNvtx = fromNvtx;
}

void TraceAssembler::noteThread(ProcessTrace& process, uint32_t tid) {
  if (!process.knownThreads.insert(tid).second) return;
  int64_t globalTid = globalTidOf(process.pid, tid);
  if (threadNames_.count(globalTid)) return;
  // Threads seen only through CUDA records never named themselves: ask the system while they live.
  std::string name = threadNameFromProc(process.pid, tid);
  if (name.empty() && tid == process.pid && processNames_.count(process.pid)) name = processNames_[process.pid];
  if (!name.empty()) nameThread(globalTid, name, false);
}

void TraceAssembler::noteStream(uint32_t pid, uint32_t contextId, uint32_t streamId) {
  streams_.try_emplace(StreamKey{pid, contextId, streamId});
}

std::pair<int64_t, std::string_view> TraceAssembler::globalDomain(std::string_view name) {
  auto found = domains_.find(name);
  if (found == domains_.end()) {
    int64_t id = static_cast<int64_t>(domains_.size()) + 1;
    found = domains_.emplace(std::string(name), id).first;
  }
  return {found->second, found->first};
}

void TraceAssembler::add(ProcessTrace& process, const RecordView& record) {
  ++counts_.records;
  switch (record.type) {
    case RecordType::OsRuntime: {
      transport::OsRuntimeBody body{};
      if (!readBody(record, body)) break;
      process.saw(body.end);
      if (!inWindow(body.start)) return;
      OsRuntimeRow row;
      row.start = traceTime(body.start);
      row.end = traceTime(body.end);
      row.globalTid = globalTidOf(process.pid, record.tid);
      row.name = transport::osrtFunctionName(record.aux);
      if (row.name.empty()) row.name = "[Unknown]";
      row.returnValue = body.returnValue;
      rows_.add(row);
      ++counts_.osrt;
      return;
    }
    case RecordType::NvtxPush:
    case RecordType::NvtxPop:
    case RecordType::NvtxMark:
    case RecordType::NvtxRangeStart:
    case RecordType::NvtxRangeEnd:
      addNvtx(process, record);
      return;
    case RecordType::CudaApi:
    case RecordType::Kernel:
    case RecordType::Memcpy:
    case RecordType::Memset:
    case RecordType::Sync:
    case RecordType::Gpu:
    case RecordType::Context:
    case RecordType::Stream:
      addCuda(process, record);
      return;
    case RecordType::Process:
    case RecordType::ThreadName:
    case RecordType::String:
    case RecordType::NvtxDomain:
    case RecordType::NvtxString:
    case RecordType::NvtxCategory:
    case RecordType::Dropped:
    case RecordType::Diagnostic:
      addDefinition(process, record);
      return;
    case RecordType::KernelMetrics:
      addKernelMetrics(process, record);
      return;
    case RecordType::Padding:
    case RecordType::Count:
      return;
  }
  ++counts_.malformed;
}

void TraceAssembler::addKernelMetrics(ProcessTrace& process, const RecordView& record) {
  transport::KernelMetricsBody body{};
  if (!readBody(record, body)) {
    ++counts_.malformed;
    return;
  }
  std::string_view name = textAfter(record, sizeof body, body.nameLength);
  std::string_view counters = textAfter(record, sizeof body + body.nameLength, body.countersLength);
  KernelMetrics row = kernelMetricsFromCounters(transport::decodeCounters(counters));
  row.globalPid = process.globalPid;
  row.correlationId = body.correlationId;
  row.kernelName = std::string(name);
  kernelMetrics_.push_back(std::move(row));
  ++counts_.profiledKernels;
  if (body.profilingNs > 0) counts_.profilingNs += body.profilingNs;
}

void TraceAssembler::addDefinition(ProcessTrace& process, const RecordView& record) {
  switch (record.type) {
    case RecordType::Process: {
      transport::ProcessBody body{};
      if (!readBody(record, body)) break;
      processNames_[process.pid] = std::string(textAfter(record, sizeof body, body.nameLength));
      return;
    }
    case RecordType::ThreadName: {
      transport::ThreadNameBody body{};
      if (!readBody(record, body)) break;
      process.knownThreads.insert(record.tid);
      nameThread(globalTidOf(process.pid, record.tid), textAfter(record, sizeof body, body.nameLength),
                 body.source == static_cast<uint32_t>(transport::ThreadNameSource::Nvtx));
      return;
    }
    case RecordType::String: {
      transport::StringBody body{};
      if (!readBody(record, body)) break;
      process.strings[body.id] = std::string(textAfter(record, sizeof body, body.length));
      return;
    }
    case RecordType::NvtxDomain: {
      transport::NvtxDomainBody body{};
      if (!readBody(record, body)) break;
      auto [id, name] = globalDomain(textAfter(record, sizeof body, body.nameLength));
      process.domains[body.domain] = id;
      NvtxDomainRow row;
      row.start = traceTime(body.time);
      row.globalTid = globalTidOf(process.pid, record.tid);
      row.domainId = id;
      row.name = name;
      rows_.add(row);
      return;
    }
    case RecordType::NvtxString: {
      transport::NvtxStringBody body{};
      if (!readBody(record, body)) break;
      process.nvtxStrings[body.id] = std::string(textAfter(record, sizeof body, body.length));
      return;
    }
    case RecordType::NvtxCategory: {
      transport::NvtxCategoryBody body{};
      if (!readBody(record, body)) break;
      // NVTX_EVENTS keeps the category id of each event; the names have no column of their own.
      return;
    }
    case RecordType::Dropped: {
      transport::DroppedBody body{};
      if (!readBody(record, body)) break;
      counts_.cuptiDropped += body.count;
      return;
    }
    case RecordType::Diagnostic: {
      transport::DiagnosticBody body{};
      if (!readBody(record, body)) break;
      diagnostics_.push_back({process.pid, static_cast<transport::DiagnosticLevel>(body.level),
                              std::string(textAfter(record, sizeof body, body.length))});
      return;
    }
    default:
      return;
  }
  ++counts_.malformed;
}

void TraceAssembler::addNvtx(ProcessTrace& process, const RecordView& record) {
  auto openRange = [&](const transport::NvtxEventBody& body) {
    ProcessTrace::OpenRange range;
    range.start = body.time;
    range.tid = record.tid;
    range.domain = process.domain(body.domain);
    if (body.text == static_cast<uint8_t>(transport::NvtxText::Registered)) {
      auto found = process.nvtxStrings.find(body.registeredText);
      range.text = found != process.nvtxStrings.end() ? found->second : "[unregistered string]";
      range.registered = true;
    } else if (body.text == static_cast<uint8_t>(transport::NvtxText::Inline)) {
      range.text = std::string(textAfter(record, sizeof body, body.textLength));
    }
    if (body.hasColor) range.color = body.color;
    if (body.category) range.category = body.category;
    return range;
  };
  auto writeRange = [&](const ProcessTrace::OpenRange& range, int64_t end, uint32_t endTid, RecordType kind) {
    NvtxRow row;
    row.start = traceTime(range.start);
    row.end = traceTime(end);
    row.globalTid = globalTidOf(process.pid, range.tid);
    if (endTid != range.tid) row.endGlobalTid = globalTidOf(process.pid, endTid);
    row.registeredText = range.registered;
    row.domainId = range.domain;
    row.color = range.color;
    row.category = range.category;
    if (kind == RecordType::NvtxPush) {
      rows_.addNvtx(NvtxRowKind::PushPop, row, range.text);
    } else if (kind == RecordType::NvtxRangeStart) {
      row.rangeId = nextRangeId_++;
      rows_.addNvtx(NvtxRowKind::StartEnd, row, range.text);
    } else {
      rows_.addNvtx(NvtxRowKind::Mark, row, range.text);
    }
    ++counts_.nvtx;
  };

  switch (record.type) {
    case RecordType::NvtxPush: {
      transport::NvtxEventBody body{};
      if (!readBody(record, body)) break;
      process.saw(body.time);
      process.stacks[{record.tid, process.domain(body.domain)}].push_back(openRange(body));
      return;
    }
    case RecordType::NvtxPop: {
      transport::NvtxPopBody body{};
      if (!readBody(record, body)) break;
      process.saw(body.time);
      auto stack = process.stacks.find({record.tid, process.domain(body.domain)});
      if (stack == process.stacks.end() || stack->second.empty()) {
        ++counts_.unmatched;
        return;
      }
      ProcessTrace::OpenRange range = std::move(stack->second.back());
      stack->second.pop_back();
      if (inWindow(range.start)) writeRange(range, body.time, record.tid, RecordType::NvtxPush);
      return;
    }
    case RecordType::NvtxMark: {
      transport::NvtxEventBody body{};
      if (!readBody(record, body)) break;
      process.saw(body.time);
      if (inWindow(body.time)) writeRange(openRange(body), body.time, record.tid, RecordType::NvtxMark);
      return;
    }
    case RecordType::NvtxRangeStart: {
      transport::NvtxEventBody body{};
      if (!readBody(record, body)) break;
      process.saw(body.time);
      ProcessTrace::OpenRange range = openRange(body);
      auto ended = process.endedRanges.find(body.rangeId);
      if (ended != process.endedRanges.end()) {
        // The end was drained first (it was written on another thread's ring).
        if (inWindow(range.start))
          writeRange(range, ended->second.first, ended->second.second, RecordType::NvtxRangeStart);
        process.endedRanges.erase(ended);
      } else {
        process.startedRanges[body.rangeId] = std::move(range);
      }
      return;
    }
    case RecordType::NvtxRangeEnd: {
      transport::NvtxRangeEndBody body{};
      if (!readBody(record, body)) break;
      process.saw(body.time);
      auto started = process.startedRanges.find(body.rangeId);
      if (started != process.startedRanges.end()) {
        if (inWindow(started->second.start))
          writeRange(started->second, body.time, record.tid, RecordType::NvtxRangeStart);
        process.startedRanges.erase(started);
      } else {
        process.endedRanges[body.rangeId] = {body.time, record.tid};
      }
      return;
    }
    default:
      return;
  }
  ++counts_.malformed;
}

void TraceAssembler::addCuda(ProcessTrace& process, const RecordView& record) {
  switch (record.type) {
    case RecordType::CudaApi: {
      transport::CudaApiBody body{};
      if (!readBody(record, body)) break;
      process.saw(body.end);
      noteThread(process, record.tid);
      if (!inWindow(body.start)) return;
      CudaApiRow row;
      row.start = traceTime(body.start);
      row.end = traceTime(body.end);
      row.kind = record.aux == static_cast<uint16_t>(transport::CudaApiKind::Driver) ? CudaApiKind::Driver
                                                                                     : CudaApiKind::Runtime;
      row.globalTid = globalTidOf(process.pid, record.tid);
      row.correlationId = body.correlationId;
      row.name = process.string(body.nameId);
      row.returnValue = body.returnValue;
      rows_.add(row);
      ++counts_.cudaApi;
      return;
    }
    case RecordType::Kernel: {
      transport::KernelBody body{};
      if (!readBody(record, body)) break;
      process.saw(body.end);
      noteStream(process.pid, body.contextId, body.streamId);
      if (!inWindow(body.start)) return;
      KernelRow row;
      row.start = traceTime(body.start);
      row.end = traceTime(body.end);
      row.deviceId = body.deviceId;
      row.contextId = body.contextId;
      row.streamId = body.streamId;
      row.correlationId = body.correlationId;
      row.globalPid = process.globalPid;
      row.demangledName = process.string(body.demangledNameId);
      row.shortName = process.string(body.shortNameId);
      if (body.mangledNameId) row.mangledName = process.string(body.mangledNameId);
      row.launchType = body.launchType;
      row.cacheConfig = body.cacheConfigExecuted;
      row.registersPerThread = body.registersPerThread;
      row.gridX = body.gridX;
      row.gridY = body.gridY;
      row.gridZ = body.gridZ;
      row.blockX = body.blockX;
      row.blockY = body.blockY;
      row.blockZ = body.blockZ;
      row.staticSharedMemory = body.staticSharedMemory;
      row.dynamicSharedMemory = body.dynamicSharedMemory;
      row.localMemoryPerThread = body.localMemoryPerThread;
      row.localMemoryTotal = body.localMemoryTotal;
      row.gridId = body.gridId;
      row.sharedMemoryExecuted = body.sharedMemoryExecuted;
      if (body.graphNodeId) row.graphNodeId = static_cast<int64_t>(body.graphNodeId);
      row.sharedMemoryLimitConfig = body.sharedMemoryLimitConfig;
      rows_.add(row);
      ++counts_.kernels;
      return;
    }
    case RecordType::Memcpy: {
      transport::MemcpyBody body{};
      if (!readBody(record, body)) break;
      process.saw(body.end);
      noteStream(process.pid, body.contextId, body.streamId);
      if (!inWindow(body.start)) return;
      MemcpyRow row;
      row.start = traceTime(body.start);
      row.end = traceTime(body.end);
      row.deviceId = body.deviceId;
      row.contextId = body.contextId;
      row.streamId = body.streamId;
      row.correlationId = body.correlationId;
      row.globalPid = process.globalPid;
      row.bytes = static_cast<int64_t>(body.bytes);
      row.copyKind = body.copyKind;
      row.srcKind = body.srcKind;
      row.dstKind = body.dstKind;
      if (body.isPeer) {
        row.srcDeviceId = body.srcDeviceId;
        row.srcContextId = body.srcContextId;
        row.dstDeviceId = body.dstDeviceId;
        row.dstContextId = body.dstContextId;
      }
      if (body.graphNodeId) row.graphNodeId = static_cast<int64_t>(body.graphNodeId);
      rows_.add(row);
      ++counts_.memcpys;
      return;
    }
    case RecordType::Memset: {
      transport::MemsetBody body{};
      if (!readBody(record, body)) break;
      process.saw(body.end);
      noteStream(process.pid, body.contextId, body.streamId);
      if (!inWindow(body.start)) return;
      MemsetRow row;
      row.start = traceTime(body.start);
      row.end = traceTime(body.end);
      row.deviceId = body.deviceId;
      row.contextId = body.contextId;
      row.streamId = body.streamId;
      row.correlationId = body.correlationId;
      row.globalPid = process.globalPid;
      row.value = static_cast<int>(body.value);
      row.bytes = static_cast<int64_t>(body.bytes);
      row.memKind = body.memoryKind;
      if (body.graphNodeId) row.graphNodeId = static_cast<int64_t>(body.graphNodeId);
      rows_.add(row);
      ++counts_.memsets;
      return;
    }
    case RecordType::Sync: {
      transport::SyncBody body{};
      if (!readBody(record, body)) break;
      process.saw(body.end);
      if (!inWindow(body.start)) return;
      SyncRow row;
      row.start = traceTime(body.start);
      row.end = traceTime(body.end);
      auto device = process.contextDevices.find(body.contextId);
      row.deviceId = device != process.contextDevices.end() ? device->second : 0;
      row.contextId = body.contextId;
      row.streamId = body.streamId;
      row.correlationId = body.correlationId;
      row.globalPid = process.globalPid;
      row.syncType = static_cast<int>(body.syncType);
      row.eventId = body.eventId;
      row.eventSyncId = static_cast<int64_t>(body.eventSyncId);
      rows_.add(row);
      ++counts_.syncs;
      return;
    }
    case RecordType::Gpu: {
      transport::GpuBody body{};
      if (!readBody(record, body)) break;
      if (gpus_.count(body.deviceId)) return;
      GpuEntry& gpu = gpus_[body.deviceId];
      size_t at = sizeof body;
      std::string_view name = textAfter(record, at, body.nameLength);
      at += body.nameLength;
      std::string_view uuid = textAfter(record, at, body.uuidLength);
      at += body.uuidLength;
      std::string_view bus = textAfter(record, at, body.busLocationLength);
      at += body.busLocationLength;
      std::string_view chip = textAfter(record, at, body.chipNameLength);
      auto known = [](auto value) { return value >= 0 ? std::optional<decltype(value)>(value) : std::nullopt; };
      gpu.name = std::string(name);
      gpu.uuid = std::string(uuid);
      gpu.busLocation = std::string(bus);
      gpu.chipName = std::string(chip);
      GpuInfoRow& row = gpu.row;
      row.vmId = kVmId;
      row.id = body.deviceId;
      row.isDiscrete = known(body.isDiscrete);
      row.l2CacheSize = known(body.l2CacheSize);
      row.totalMemory = known(body.totalMemory);
      row.memoryBandwidth = known(body.memoryBandwidth);
      row.clockRate = known(body.clockRate);
      row.smCount = known(body.smCount);
      row.pwGpuId = static_cast<int>(body.deviceId);
      row.luid = 0;
      row.cuDevice = static_cast<int>(body.deviceId);
      row.nodeMask = 0;
      row.constantMemory = known(body.constantMemory);
      row.maxIPC = known(body.maxIPC);
      row.maxRegistersPerBlock = known(body.maxRegistersPerBlock);
      row.maxShmemPerBlock = known(body.maxShmemPerBlock);
      row.maxShmemPerBlockOptin = known(body.maxShmemPerBlockOptin);
      row.maxShmemPerSm = known(body.maxShmemPerSm);
      row.maxRegistersPerSm = known(body.maxRegistersPerSm);
      row.threadsPerWarp = known(body.threadsPerWarp);
      row.asyncEngines = known(body.asyncEngines);
      row.maxWarpsPerSm = known(body.maxWarpsPerSm);
      row.maxBlocksPerSm = known(body.maxBlocksPerSm);
      row.maxThreadsPerBlock = known(body.maxThreadsPerBlock);
      row.maxBlockDimX = known(body.maxBlockDimX);
      row.maxBlockDimY = known(body.maxBlockDimY);
      row.maxBlockDimZ = known(body.maxBlockDimZ);
      row.maxGridDimX = known(body.maxGridDimX);
      row.maxGridDimY = known(body.maxGridDimY);
      row.maxGridDimZ = known(body.maxGridDimZ);
      row.computeMajor = known(body.computeMajor);
      row.computeMinor = known(body.computeMinor);
      row.smMajor = known(body.computeMajor);
      row.smMinor = known(body.computeMinor);
      return;
    }
    case RecordType::Context: {
      transport::ContextBody body{};
      if (!readBody(record, body)) break;
      process.contextDevices[body.contextId] = body.deviceId;
      noteStream(process.pid, body.contextId, body.nullStreamId);
      StreamInfo& info = streams_[StreamKey{process.pid, body.contextId, body.nullStreamId}];
      if (info.flag == 0) info.flag = 3;  // CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NULL
      return;
    }
    case RecordType::Stream: {
      transport::StreamBody body{};
      if (!readBody(record, body)) break;
      StreamInfo& info = streams_[StreamKey{process.pid, body.contextId, body.streamId}];
      info.priority = body.priority;
      info.flag = body.flag;
      return;
    }
    default:
      return;
  }
  ++counts_.malformed;
}

void TraceAssembler::closeProcess(ProcessTrace& process) {
  int64_t end = process.lastTime;
  for (auto& [key, stack] : process.stacks) {
    for (const ProcessTrace::OpenRange& range : stack) {
      ++counts_.unendedRanges;
      if (!inWindow(range.start)) continue;
      NvtxRow row;
      row.start = traceTime(range.start);
      row.end = traceTime(std::max(end, range.start));
      row.globalTid = globalTidOf(process.pid, range.tid);
      row.registeredText = range.registered;
      row.domainId = range.domain;
      row.color = range.color;
      row.category = range.category;
      rows_.addNvtx(NvtxRowKind::PushPop, row, range.text);
      ++counts_.nvtx;
    }
  }
  for (auto& [id, range] : process.startedRanges) {
    ++counts_.unendedRanges;
    if (!inWindow(range.start)) continue;
    NvtxRow row;
    row.start = traceTime(range.start);
    row.end = traceTime(std::max(end, range.start));
    row.globalTid = globalTidOf(process.pid, range.tid);
    row.registeredText = range.registered;
    row.domainId = range.domain;
    row.color = range.color;
    row.category = range.category;
    row.rangeId = nextRangeId_++;
    rows_.addNvtx(NvtxRowKind::StartEnd, row, range.text);
    ++counts_.nvtx;
  }
  counts_.unmatched += process.endedRanges.size();
  // Rows still queued may point at the process's name tables.
  rows_.flush();
  processes_.erase(process.key);
}

void TraceAssembler::finish() {
  if (finished_) return;
  while (!processes_.empty()) closeProcess(*processes_.begin()->second);
  rows_.flush();
  for (auto& [id, gpu] : gpus_) {
    if (!gpu.name.empty()) gpu.row.name = gpu.name;
    if (!gpu.uuid.empty()) gpu.row.uuid = gpu.uuid;
    if (!gpu.busLocation.empty()) gpu.row.busLocation = gpu.busLocation;
    if (!gpu.chipName.empty()) gpu.row.chipName = gpu.chipName;
    writer_.addGpu(gpu.row);
  }
  for (const auto& [pid, name] : processNames_) writer_.addProcess({globalPidOf(pid), pid, name});
  for (const auto& [globalTid, name] : threadNames_) writer_.addThreadName({globalTid, name.name, 0});
  for (const auto& [key, info] : streams_) {
    CudaStreamRow row;
    row.streamId = key.streamId;
    row.hwId = kHardwareId;
    row.vmId = kVmId;
    row.processId = key.pid;
    row.contextId = key.contextId;
    row.priority = info.priority;
    row.flag = info.flag;
    writer_.addCudaStream(row);
  }
  counts_.processes = processNames_.size();
  counts_.threads = threadNames_.size();
  finished_ = true;
}

std::vector<Diagnostic> TraceAssembler::takeDiagnostics() { return std::exchange(diagnostics_, {}); }

std::vector<uint32_t> TraceAssembler::pids() const {
  std::vector<uint32_t> result;
  for (const auto& [pid, name] : processNames_) result.push_back(pid);
  return result;
}

}  // namespace gpuscope
