#pragma once
// CuptiRecordConverter: turns CUPTI activity records (kernels, memcpy, memset, synchronization,
// runtime and driver API calls, contexts, streams) into ring records. It runs on the CUDA
// injection's worker thread, never in a CUPTI callback, and only reads the records: tests replay
// hand-built CUpti_Activity* records through it without a GPU.
#include <cupti.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "collector/cuda/profiled_launch_times.h"
#include "collector/transport/records.h"

namespace gpuscope::cuda {

// Where converted records go: the process's rings in the target, a ring file in tests.
class RecordSink {
 public:
  virtual ~RecordSink() = default;
  // An event record about thread TID (0 for GPU work).
  virtual void write(transport::RecordType type, uint16_t aux, uint32_t tid, const void* body, uint32_t bodyBytes,
                     std::initializer_list<std::string_view> texts) = 0;
  // A definition (a String record) that must reach the daemon before records that use it.
  virtual void define(transport::RecordType type, const void* body, uint32_t bodyBytes, std::string_view text) = 0;
};

// The name of a runtime (DRIVER false) or driver API function by callback id, as
// cuptiGetCallbackName gives it ("cudaLaunchKernel_v7000", "cuLaunchKernel").
using ApiNameLookup = std::function<std::string(bool driver, uint32_t callbackId)>;

// Times for a kernel CUPTI left untimed, by correlation id (profiled_launch_times.h says when).
using UntimedKernelTimes = std::function<std::optional<KernelTimes>(uint32_t correlationId)>;

// The short name nsys shows for a kernel: the function's own name, without return type, scope,
// template arguments or parameters ("void ns::gemm<float>(float*)" gives "gemm").
std::string kernelShortName(std::string_view demangled);
// The demangled name of a C++ symbol, or the name itself when it is not mangled.
std::string demangle(const char* name);

// A device allocation or free (CUPTI_ACTIVITY_KIND_MEMORY2) as the ring carries it: kinds in nsys's enums
// (ENUM_CUDA_MEM_KIND, ENUM_CUDA_DEV_MEM_EVENT_OPER), bytes as CUPTI gives them (positive for frees too, as
// nsys stores them). False for a record that is neither an allocation nor a free.
bool memoryUsageBody(const CUpti_ActivityMemory4& memory, transport::MemoryUsageBody& body);

struct ConverterCounts {
  uint64_t converted = 0;                 // ring records written
  uint64_t nestedDriverCalls = 0;         // driver calls made inside a runtime call, left out as nsys does
  uint64_t withoutTimestamps = 0;         // GPU records CUPTI could not time
  uint64_t kernelsWithoutTimestamps = 0;  // of which kernels
  uint64_t kernelsTimedByProfiler = 0;    // untimed kernels given the range profiler's times
  uint64_t toolThreadCalls = 0;           // API calls gpuscope's own threads made (reading device facts)
  uint64_t unknownKinds = 0;              // activity kinds we do not record
};

class CuptiRecordConverter {
 public:
  CuptiRecordConverter(RecordSink& sink, ApiNameLookup apiNames);

  void convert(const CUpti_Activity& record);
  // Ends one CUPTI buffer. A driver call is held back until one more buffer of API records has
  // been read, in case the runtime call that made it (same correlation id, ending later) is still
  // to come; FINAL writes everything held.
  void endBuffer(bool final = false);
  // Driver calls held back now.
  size_t heldDriverCalls() const { return heldDriverCalls_.size(); }
  // Drops process-local string ids (a forked child starts afresh).
  void reset();
  // API calls made on thread TID (one of gpuscope's own) are left out: they are not the program's.
  void ignoreThread(uint32_t tid) { ignoredThreads_.push_back(tid); }
  // Where untimed kernels get their times; without it they are counted and left out.
  void setUntimedKernelTimes(UntimedKernelTimes lookup) { untimedKernelTimes_ = std::move(lookup); }

  const ConverterCounts& counts() const { return counts_; }

 private:
  struct KernelNames {
    uint64_t demangled;
    uint64_t shortName;
    uint64_t mangled;
    std::string text;  // the name the pointer pointed to, in case it is reused after a module unload
  };
  struct HeldDriverCall {
    transport::CudaApiBody body;
    uint32_t tid;
    uint64_t buffer;
  };

  uint64_t stringId(const std::string& text);
  const KernelNames& kernelNames(const char* name);
  uint64_t apiNameId(bool driver, uint32_t callbackId);
  void writeKernel(const CUpti_ActivityKernel10& kernel, int64_t start, int64_t end);
  bool writeWithProfilerTimes(const CUpti_ActivityKernel10& kernel);
  void convertUntimedKernel(const CUpti_ActivityKernel10& kernel);
  void retryHeldKernels(bool final);
  void writeApi(const transport::CudaApiBody& body, transport::CudaApiKind kind, uint32_t tid);
  void noteRuntimeCorrelation(uint32_t correlationId);

  RecordSink& sink_;
  ApiNameLookup apiNames_;
  uint64_t nextStringId_ = 1;
  std::unordered_map<std::string, uint64_t> strings_;
  std::unordered_map<const char*, KernelNames> kernels_;
  std::unordered_map<uint64_t, uint64_t> apiNameIds_;
  // Correlation ids of recent runtime calls (bounded), and driver calls not yet known to be nested.
  std::unordered_set<uint32_t> runtimeCorrelations_;
  std::deque<uint32_t> runtimeOrder_;
  std::vector<HeldDriverCall> heldDriverCalls_;
  uint64_t buffer_ = 0;  // buffers with API records read so far
  bool bufferHasApi_ = false;
  std::vector<uint32_t> ignoredThreads_;
  UntimedKernelTimes untimedKernelTimes_;
  std::vector<CUpti_ActivityKernel10> heldKernels_;  // untimed, waiting for the profiler's times
  ConverterCounts counts_;
};

}  // namespace gpuscope::cuda
