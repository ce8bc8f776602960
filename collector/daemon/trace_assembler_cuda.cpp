// TraceAssembler's CUDA records: one handler per record type, each returning false when the
// record is too short for its body (counted as malformed by addCuda).
#include "collector/daemon/process_trace.h"
#include "collector/daemon/trace_assembler.h"
#include "core/write/trace_writer.h"

namespace gpuscope {

using transport::RecordType;
using transport::RecordView;

void TraceAssembler::addCuda(ProcessTrace& process, const RecordView& record) {
  bool wellFormed = true;
  switch (record.type) {
    case RecordType::CudaApi:
      wellFormed = addCudaApi(process, record);
      break;
    case RecordType::Kernel:
      wellFormed = addKernel(process, record);
      break;
    case RecordType::Memcpy:
      wellFormed = addMemcpy(process, record);
      break;
    case RecordType::Memset:
      wellFormed = addMemset(process, record);
      break;
    case RecordType::Sync:
      wellFormed = addSync(process, record);
      break;
    case RecordType::Gpu:
      wellFormed = addGpu(record);
      break;
    case RecordType::Context:
      wellFormed = addContext(process, record);
      break;
    case RecordType::Stream:
      wellFormed = addStream(process, record);
      break;
    default:
      return;
  }
  if (!wellFormed) ++counts_.malformed;
}

bool TraceAssembler::addCudaApi(ProcessTrace& process, const RecordView& record) {
  transport::CudaApiBody body{};
  if (!readBody(record, body)) return false;
  process.saw(body.end);
  noteThread(process, record.tid);
  if (!inWindow(body.start)) return true;
  CudaApiRow row;
  row.start = traceTime(body.start);
  row.end = traceTime(body.end);
  row.kind =
      record.aux == static_cast<uint16_t>(transport::CudaApiKind::Driver) ? CudaApiKind::Driver : CudaApiKind::Runtime;
  row.globalTid = globalTidOf(process.pid, record.tid);
  row.correlationId = body.correlationId;
  row.name = process.string(body.nameId);
  row.returnValue = body.returnValue;
  rows_->add(row);
  ++counts_.cudaApi;
  return true;
}

bool TraceAssembler::addKernel(ProcessTrace& process, const RecordView& record) {
  transport::KernelBody body{};
  if (!readBody(record, body)) return false;
  process.saw(body.end);
  noteStream(process.pid, body.contextId, body.streamId);
  if (!inWindow(body.start)) return true;
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
  rows_->add(row);
  ++counts_.kernels;
  return true;
}

bool TraceAssembler::addMemcpy(ProcessTrace& process, const RecordView& record) {
  transport::MemcpyBody body{};
  if (!readBody(record, body)) return false;
  process.saw(body.end);
  noteStream(process.pid, body.contextId, body.streamId);
  if (!inWindow(body.start)) return true;
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
  rows_->add(row);
  ++counts_.memcpys;
  return true;
}

bool TraceAssembler::addMemset(ProcessTrace& process, const RecordView& record) {
  transport::MemsetBody body{};
  if (!readBody(record, body)) return false;
  process.saw(body.end);
  noteStream(process.pid, body.contextId, body.streamId);
  if (!inWindow(body.start)) return true;
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
  rows_->add(row);
  ++counts_.memsets;
  return true;
}

bool TraceAssembler::addSync(ProcessTrace& process, const RecordView& record) {
  transport::SyncBody body{};
  if (!readBody(record, body)) return false;
  process.saw(body.end);
  if (!inWindow(body.start)) return true;
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
  rows_->add(row);
  ++counts_.syncs;
  return true;
}

bool TraceAssembler::addGpu(const RecordView& record) {
  transport::GpuBody body{};
  if (!readBody(record, body)) return false;
  if (gpus_.count(body.deviceId)) return true;
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
  return true;
}

bool TraceAssembler::addContext(ProcessTrace& process, const RecordView& record) {
  transport::ContextBody body{};
  if (!readBody(record, body)) return false;
  process.contextDevices[body.contextId] = body.deviceId;
  noteStream(process.pid, body.contextId, body.nullStreamId);
  StreamInfo& info = streams_[StreamKey{process.pid, body.contextId, body.nullStreamId}];
  if (info.flag == 0) info.flag = 3;  // CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NULL
  return true;
}

bool TraceAssembler::addStream(ProcessTrace& process, const RecordView& record) {
  transport::StreamBody body{};
  if (!readBody(record, body)) return false;
  StreamInfo& info = streams_[StreamKey{process.pid, body.contextId, body.streamId}];
  info.priority = body.priority;
  info.flag = body.flag;
  return true;
}

}  // namespace gpuscope
