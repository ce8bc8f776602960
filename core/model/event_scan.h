#pragma once
// Event scans: each event table of a trace file read into tracks of lanes, one table per thread.
#include <array>
#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "core/model/string_table.h"
#include "core/model/trace.h"
#include "core/model/trace_loader.h"

namespace gpuscope {

// Shared by the scans of one load: options, progress and the string ids they resolve through.
struct ScanContext {
  std::string path;
  const LoadOptions* options = nullptr;
  const StringTable* strings = nullptr;
  std::array<StringId, 14> memcpyNames{};  // "[CUDA memcpy <kind>]" by copyKind
  StringId memsetName = 0;
  StringId unknownMemcpyName = 0;
  bool hasMemcpy = false;
  bool hasMemset = false;
  bool nvtxHasColor = false;
  bool kernelHasDemangledName = false;
  int64_t rowsTotal = 1;
  std::atomic<int64_t> rowsDone{0};
  std::mutex progressMutex;

  void advance(int64_t rows);  // reports progress, throws LoadCancelled when cancelled
};

struct ScanResult {
  std::vector<Track> tracks;
  size_t events = 0;
  size_t memcpys = 0;
  size_t memsets = 0;
  // NVTX: strings met inline in the table, to be interned into the trace; event names refer to
  // them as kLocalStringBit | index until the loader remaps them.
  std::vector<std::string> localStrings;
  std::vector<std::pair<int64_t, std::string>> nvtxDomains;  // domainId -> name
};

inline constexpr StringId kLocalStringBit = 0x80000000u;

// checkIntegrity on its own connection, run beside the table scans.
ScanResult scanIntegrity(ScanContext& context);
ScanResult scanCudaApi(ScanContext& context);
ScanResult scanOsRuntime(ScanContext& context);
ScanResult scanKernels(ScanContext& context);
// Memcpy and memset rows of a stream share its memory track (style tells them apart).
ScanResult scanMemory(ScanContext& context);
ScanResult scanNvtx(ScanContext& context);

}  // namespace gpuscope
