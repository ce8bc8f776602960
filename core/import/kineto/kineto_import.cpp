#include "core/import/kineto/kineto_import.h"

#include <istream>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "core/error.h"
#include "core/identity/kernel_identity.h"
#include "core/import/kineto/gzip_stream.h"
#include "core/import/kineto/kineto_sax.h"
#include "core/model/global_id.h"
#include "core/schema/nsys_enums.h"
#include "core/schema/trace_schema.h"
#include "core/write/trace_writer.h"

namespace gpuscope {
namespace {

using kineto::KinetoEvent;

// NVTX domains the CPU-side ranges are written to; user annotations (record_function) use the default one.
constexpr int64_t kCpuOpDomain = 1;
constexpr int64_t kPythonDomain = 2;
constexpr int64_t kGpuAnnotationDomain = 3;
// PyTorch profiler's allocator events (profile_memory=True), and c10::DeviceType::CUDA in their "Device Type".
constexpr std::string_view kMemoryEventName = "[memory]";
constexpr int64_t kCudaDeviceType = 1;
// gpu_user_annotation ranges live on a GPU stream, which has no thread: each stream's get a row of their
// own in the launching process, a thread id no Linux thread has (tids stay below 2^22 by default).
constexpr uint32_t kGpuAnnotationTidBase = 0xC00000;

// A gpu_user_annotation range: written at the end, when the launching process is known.
struct PendingGpuRange {
  TimeNs start, end;
  uint32_t device, stream;
  std::string name;
};

// Where a flow event lands: Kineto puts the ac2g start on the API call and the end on the GPU op.
struct FlowPoint {
  int64_t pid, tid;
  TimeNs ts;
  bool operator<(const FlowPoint& other) const {
    return std::tie(pid, tid, ts) < std::tie(other.pid, other.tid, other.ts);
  }
};

// GPU work waits until the end: its launching process (the pid of the API call with the same
// correlation id) may come later in the file.
struct PendingGpuWork {
  enum class Kind : uint8_t { Kernel, Memcpy, Memset } kind;
  TimeNs start, end;
  uint32_t device, context, stream, correlation;
  int64_t pid, tid;  // as the file has them: where its ac2g flow ends
  uint32_t name;     // index into names_
  int64_t bytes;
  int registers;
  int64_t sharedMemory;
  std::array<int, 3> grid, block;
};

int copyKindOf(const std::string& name) {
  if (name.find("HtoD") != std::string::npos) return nsys_enum::kCopyHtoD;
  if (name.find("DtoH") != std::string::npos) return nsys_enum::kCopyDtoH;
  if (name.find("DtoD") != std::string::npos) return nsys_enum::kCopyDtoD;
  if (name.find("HtoH") != std::string::npos) return nsys_enum::kCopyHtoH;
  if (name.find("PtoP") != std::string::npos) return nsys_enum::kCopyPtoP;
  return nsys_enum::kCopyUnknown;
}

// "Memcpy HtoD (Pageable -> Device)": the memory kinds in parentheses, as ENUM_CUDA_MEM_KIND ids.
int memKindOf(std::string_view word) {
  for (const auto& row : nsys_enum::kMemKindRows)
    if (word == row.label) return row.id;
  return nsys_enum::kMemUnknown;
}

std::pair<int, int> memcpyKindsOf(const std::string& name) {
  size_t open = name.find('('), arrow = name.find(" -> "), close = name.find(')');
  if (open == std::string::npos || arrow == std::string::npos || close == std::string::npos || arrow < open ||
      close < arrow)
    return {nsys_enum::kMemUnknown, nsys_enum::kMemUnknown};
  return {memKindOf(std::string_view(name).substr(open + 1, arrow - open - 1)),
          memKindOf(std::string_view(name).substr(arrow + 4, close - arrow - 4))};
}

int memsetKindOf(const std::string& name) {
  size_t open = name.find('('), close = name.find(')');
  if (open == std::string::npos || close == std::string::npos || close < open) return nsys_enum::kMemDevice;
  return memKindOf(std::string_view(name).substr(open + 1, close - open - 1));
}

// The fields every GPU row (kernel, memcpy, memset) takes from the work and its launching process.
template <typename Row>
void fillGpuRow(Row& row, const PendingGpuWork& work, int64_t globalPid) {
  row.start = work.start;
  row.end = work.end;
  row.deviceId = work.device;
  row.contextId = work.context;
  row.streamId = work.stream;
  row.correlationId = work.correlation;
  row.globalPid = globalPid;
}

class KinetoImporter {
 public:
  KinetoImporter(const std::string& jsonPath, const std::string& sqlitePath)
      : jsonPath_(jsonPath), writer_(sqlitePath) {}

  KinetoImportSummary run() {
    GzipFileBuffer buffer(jsonPath_);
    std::istream input(&buffer);
    auto header = kineto::parseKinetoStream(input, jsonPath_, [this](const KinetoEvent& e) { onEvent(e); });
    buffer.readToEnd();  // a stream cut in its trailer ends the JSON whole: only its end says it was cut
    pairFlows();
    writeGpuWork();
    writeGpuRanges();
    writeProcessesAndThreads();
    writeDevices(header);
    if (header.baseTimeNanoseconds) writer_.setSessionStart(*header.baseTimeNanoseconds);
    if (header.rank) writer_.addMeta(rank_meta::kRank, std::to_string(*header.rank));
    if (header.worldSize) writer_.addMeta(rank_meta::kWorldSize, std::to_string(*header.worldSize));
    writer_.addMeta("source_format", "kineto");
    writer_.finish();
    return summary_;
  }

 private:
  void onEvent(const KinetoEvent& e) {
    if (e.ph == "M") return onMetadata(e);
    if (e.cat == "ac2g" && (e.ph == "s" || e.ph == "f")) return addFlowEnd(e);
    if (e.name == kMemoryEventName && e.ph == "i") return addMemoryEvent(e);
    if (e.ph != "X" || !e.ts || !e.dur || !e.pid.isNumber() || !e.tid.isNumber()) return;
    const std::string& cat = e.cat;
    if (cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset") return addGpuWork(e);
    if (cat == "cuda_runtime" || cat == "cuda_driver") return addApiCall(e);
    if (cat == "cpu_op" || cat == "python_function" || cat == "user_annotation") return addRange(e);
    if (cat == "gpu_user_annotation") return addGpuRange(e);
  }

  void addFlowEnd(const KinetoEvent& e) {
    if (!e.flowId || !e.ts || !e.pid.isNumber() || !e.tid.isNumber()) return;
    FlowPoint point{*e.pid.number, *e.tid.number, *e.ts};
    (e.ph == "s" ? flowStarts_ : flowEnds_)[*e.flowId] = point;
  }

  // A GPU op without args.correlation takes the id of the ac2g flow ending on it, when that flow also
  // has its start (on the API call); Kineto's flow ids are the correlation ids.
  void pairFlows() {
    std::map<FlowPoint, uint32_t> pairedEnds;
    for (const auto& [id, end] : flowEnds_) {
      if (!flowStarts_.count(id)) continue;
      pairedEnds[end] = static_cast<uint32_t>(id);
      ++summary_.pairedFlows;
    }
    for (auto& work : pending_) {
      if (work.correlation) continue;
      auto flow = pairedEnds.find({work.pid, work.tid, work.start});
      if (flow != pairedEnds.end()) work.correlation = flow->second;
    }
  }

  void addGpuRange(const KinetoEvent& e) {
    pendingRanges_.push_back({*e.ts, *e.ts + *e.dur, static_cast<uint32_t>(e.device.value_or(*e.pid.number)),
                              static_cast<uint32_t>(e.stream.value_or(*e.tid.number)), e.name});
  }

  void writeGpuRanges() {
    uint32_t pid = launchingPid_.empty() ? 0 : launchingPid_.begin()->second;
    for (const auto& range : pendingRanges_) {
      uint32_t tid = kGpuAnnotationTidBase | ((range.device & 0x3F) << 16) | (range.stream & 0xFFFF);
      devicesWithWork_.insert(range.device);
      auto [thread, added] = gpuRangeThreads_.insert({pid, tid});
      if (added)
        gpuRangeThreadNames_.push_back(
            {global_id::make(0, 0, pid, tid),
             "GPU " + std::to_string(range.device) + " stream " + std::to_string(range.stream) + " annotations"});
      NvtxRow row;
      row.start = range.start;
      row.end = range.end;
      row.globalTid = global_id::make(0, 0, pid, tid);
      row.text = range.name;
      row.domainId = kGpuAnnotationDomain;
      domainsUsed_.insert(kGpuAnnotationDomain);
      writer_.addNvtxPushPopRange(row);
      ++summary_.gpuAnnotations;
    }
    if (!pendingRanges_.empty()) threads_.insert(gpuRangeThreads_.begin(), gpuRangeThreads_.end());
    pendingRanges_.clear();
  }

  void onMetadata(const KinetoEvent& e) {
    if (!e.pid.isNumber()) return;
    if (e.name == "process_name") processNames_[*e.pid.number] = e.argName;
    if (e.name == "thread_name" && e.tid.isNumber()) threadNames_[{*e.pid.number, *e.tid.number}] = e.argName;
  }

  int64_t globalTidOf(const KinetoEvent& e) {
    auto pid = static_cast<uint32_t>(*e.pid.number), tid = static_cast<uint32_t>(*e.tid.number);
    threads_.insert({pid, tid});
    return global_id::make(0, 0, pid, tid);
  }

  void addApiCall(const KinetoEvent& e) {
    CudaApiRow row;
    row.start = *e.ts;
    row.end = *e.ts + *e.dur;
    row.kind = e.cat == "cuda_driver" ? CudaApiKind::Driver : CudaApiKind::Runtime;
    row.globalTid = globalTidOf(e);
    row.correlationId = static_cast<uint32_t>(e.correlation.value_or(0));
    row.name = e.name;
    writer_.addCudaApi(row);
    if (row.correlationId) launchingPid_[row.correlationId] = static_cast<uint32_t>(*e.pid.number);
    ++summary_.apiCalls;
  }

  // A "[memory]" event of PyTorch's CUDA caching allocator: one block allocated (Bytes > 0) or freed (< 0).
  void addMemoryEvent(const KinetoEvent& e) {
    if (!e.ts || !e.pid.isNumber() || !e.memoryBytes || !e.memoryDeviceType) return;
    if (*e.memoryDeviceType != kCudaDeviceType) {
      ++summary_.hostMemoryEvents;
      return;
    }
    if (memoryRows_ < 0)
      memoryRows_ = writer_.tableRows(table::kGpuMemoryUsage, {"start", "globalPid", "deviceId", "contextId", "address",
                                                               "pc", "bytes", "memKind", "memoryOperationType"});
    int64_t bytes = *e.memoryBytes;
    auto pid = static_cast<uint32_t>(*e.pid.number);
    writer_.addRow(memoryRows_, {*e.ts, global_id::make(0, 0, pid, 0), e.memoryDeviceId.value_or(0), int64_t{0},
                                 e.memoryAddress.value_or(0), int64_t{0}, bytes < 0 ? -bytes : bytes,
                                 int64_t{nsys_enum::kMemKindDevice},
                                 int64_t{bytes < 0 ? nsys_enum::kDevMemDeallocation : nsys_enum::kDevMemAllocation}});
    ++summary_.memoryEvents;
  }

  void addRange(const KinetoEvent& e) {
    NvtxRow row;
    row.start = *e.ts;
    row.end = *e.ts + *e.dur;
    row.globalTid = globalTidOf(e);
    row.text = e.name;
    row.domainId = e.cat == "cpu_op" ? kCpuOpDomain : e.cat == "python_function" ? kPythonDomain : 0;
    if (row.domainId) domainsUsed_.insert(row.domainId);
    writer_.addNvtxPushPopRange(row);
    ++summary_.ranges;
  }

  void addGpuWork(const KinetoEvent& e) {
    PendingGpuWork work{};
    work.kind = e.cat == "kernel"       ? PendingGpuWork::Kind::Kernel
                : e.cat == "gpu_memcpy" ? PendingGpuWork::Kind::Memcpy
                                        : PendingGpuWork::Kind::Memset;
    work.start = *e.ts;
    work.end = *e.ts + *e.dur;
    work.pid = *e.pid.number;
    work.tid = *e.tid.number;
    work.device = static_cast<uint32_t>(e.device.value_or(*e.pid.number));
    work.stream = static_cast<uint32_t>(e.stream.value_or(*e.tid.number));
    work.context = static_cast<uint32_t>(e.context.value_or(0));
    work.correlation = static_cast<uint32_t>(e.correlation.value_or(0));
    work.name = nameIndex(e.name);
    work.bytes = e.bytes.value_or(0);
    work.registers = static_cast<int>(e.registers.value_or(0));
    work.sharedMemory = e.sharedMemory.value_or(0);
    for (size_t i = 0; i < 3; ++i) {
      work.grid[i] = static_cast<int>(e.grid[i]);
      work.block[i] = static_cast<int>(e.block[i]);
    }
    pending_.push_back(work);
  }

  uint32_t nameIndex(const std::string& name) {
    auto [it, added] = nameIds_.try_emplace(name, static_cast<uint32_t>(names_.size()));
    if (added) names_.push_back(name);
    return it->second;
  }

  // The pid of the process that launched WORK: its API call's, else the one process that made API calls.
  uint32_t launchingPid(const PendingGpuWork& work) const {
    auto it = launchingPid_.find(work.correlation);
    if (it != launchingPid_.end()) return it->second;
    return launchingPid_.empty() ? 0 : launchingPid_.begin()->second;
  }

  void writeGpuWork() {
    std::vector<std::string> shortNames;
    for (const auto& name : names_) shortNames.push_back(kernelShortName(name));
    for (const auto& work : pending_) {
      int64_t globalPid = global_id::make(0, 0, launchingPid(work), 0);
      processesWithGpuWork_.insert(launchingPid(work));
      devicesWithWork_.insert(work.device);
      if (work.kind == PendingGpuWork::Kind::Kernel) {
        KernelRow row;
        fillGpuRow(row, work, globalPid);
        row.demangledName = names_[work.name];
        row.shortName = shortNames[work.name];
        row.registersPerThread = work.registers;
        row.staticSharedMemory = work.sharedMemory;
        row.gridX = work.grid[0], row.gridY = work.grid[1], row.gridZ = work.grid[2];
        row.blockX = work.block[0], row.blockY = work.block[1], row.blockZ = work.block[2];
        writer_.addKernel(row);
        ++summary_.kernels;
      } else if (work.kind == PendingGpuWork::Kind::Memcpy) {
        MemcpyRow row;
        fillGpuRow(row, work, globalPid);
        row.bytes = work.bytes;
        row.copyKind = copyKindOf(names_[work.name]);
        std::tie(row.srcKind, row.dstKind) = memcpyKindsOf(names_[work.name]);
        writer_.addMemcpy(row);
        ++summary_.memcpys;
      } else {
        MemsetRow row;
        fillGpuRow(row, work, globalPid);
        row.bytes = work.bytes;
        row.memKind = memsetKindOf(names_[work.name]);
        writer_.addMemset(row);
        ++summary_.memsets;
      }
    }
    pending_.clear();
  }

  void writeProcessesAndThreads() {
    std::set<uint32_t> pids(processesWithGpuWork_.begin(), processesWithGpuWork_.end());
    for (const auto& [pid, tid] : threads_) pids.insert(pid);
    for (uint32_t pid : pids) {
      auto name = processNames_.find(pid);
      writer_.addProcess({global_id::make(0, 0, pid, 0), pid, name != processNames_.end() ? name->second : ""});
    }
    for (const auto& [pid, tid] : threads_) {
      auto name = threadNames_.find({pid, tid});
      if (name != threadNames_.end()) writer_.addThreadName({global_id::make(0, 0, pid, tid), name->second, 0});
    }
    for (const auto& [globalTid, name] : gpuRangeThreadNames_) writer_.addThreadName({globalTid, name, 0});
    for (int64_t domain : domainsUsed_) {
      auto first = threads_.begin();
      int64_t globalTid = first == threads_.end() ? 0 : global_id::make(0, 0, first->first, first->second);
      writer_.addNvtxDomainCreate({0, globalTid, domain, domainName(domain)});
    }
  }

  static std::string domainName(int64_t domain) {
    if (domain == kCpuOpDomain) return std::string(kKinetoCpuOpDomain);
    if (domain == kPythonDomain) return std::string(kKinetoPythonDomain);
    return std::string(kKinetoGpuAnnotationDomain);
  }

  // The devices the trace has GPU work on. PyTorch lists every GPU the process could see (both of a node's GPUs in
  // each rank's trace); one without work would be an empty row and a device the run never used.
  void writeDevices(const kineto::KinetoHeader& header) {
    for (const auto& d : header.devices) {
      if (d.id < 0 || !devicesWithWork_.contains(static_cast<uint32_t>(d.id))) continue;
      GpuInfoRow row;
      row.id = static_cast<uint32_t>(d.id);
      row.name = d.name;
      row.totalMemory = d.totalGlobalMem;
      auto narrow = [](const std::optional<int64_t>& v) -> std::optional<int> {
        if (!v) return std::nullopt;
        return static_cast<int>(*v);
      };
      row.computeMajor = narrow(d.computeMajor);
      row.computeMinor = narrow(d.computeMinor);
      row.maxThreadsPerBlock = narrow(d.maxThreadsPerBlock);
      row.maxRegistersPerBlock = narrow(d.regsPerBlock);
      row.maxRegistersPerSm = narrow(d.regsPerMultiprocessor);
      row.threadsPerWarp = narrow(d.warpSize);
      row.smCount = narrow(d.numSms);
      row.maxShmemPerBlock = d.sharedMemPerBlock;
      row.maxShmemPerBlockOptin = d.sharedMemPerBlockOptin;
      row.maxShmemPerSm = d.sharedMemPerMultiprocessor;
      if (d.maxThreadsPerMultiprocessor && d.warpSize && *d.warpSize > 0)
        row.maxWarpsPerSm = static_cast<int>(*d.maxThreadsPerMultiprocessor / *d.warpSize);
      writer_.addGpu(row);
    }
  }

  std::string jsonPath_;
  TraceWriter writer_;
  KinetoImportSummary summary_;
  std::vector<PendingGpuWork> pending_;
  std::vector<std::string> names_;
  std::unordered_map<std::string, uint32_t> nameIds_;
  std::unordered_map<uint32_t, uint32_t> launchingPid_;
  std::set<uint32_t> processesWithGpuWork_;
  std::set<uint32_t> devicesWithWork_;
  std::set<std::pair<uint32_t, uint32_t>> threads_;
  std::map<int64_t, std::string> processNames_;
  std::map<std::pair<int64_t, int64_t>, std::string> threadNames_;
  std::set<int64_t> domainsUsed_;
  std::vector<PendingGpuRange> pendingRanges_;
  std::set<std::pair<uint32_t, uint32_t>> gpuRangeThreads_;
  std::vector<std::pair<int64_t, std::string>> gpuRangeThreadNames_;
  std::map<int64_t, FlowPoint> flowStarts_, flowEnds_;
  int memoryRows_ = -1;  // the writer's CUDA_GPU_MEMORY_USAGE_EVENTS handle, once a "[memory]" event needs it
};

}  // namespace

KinetoImportSummary importKinetoTrace(const std::string& jsonPath, const std::string& sqlitePath) {
  return KinetoImporter(jsonPath, sqlitePath).run();
}

}  // namespace gpuscope
