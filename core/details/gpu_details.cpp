// describeEvent for GPU work: kernels, memory copies and memory sets.
#include <algorithm>
#include <array>
#include <limits>

#include "core/db/sqlite_database.h"
#include "core/details/detail_sections.h"
#include "core/details/detail_text.h"
#include "core/details/occupancy.h"
#include "core/details/source_row.h"
#include "core/metrics/gpu_metric_names.h"
#include "core/metrics/sampled_means.h"
#include "core/model/global_id.h"
#include "core/schema/trace_schema.h"
#include "core/text/units.h"

namespace gpuscope::detail_sections {
namespace {

using OptText = std::optional<std::string>;

OptText bytesOf(const SourceRow& row, std::string_view column) {
  auto value = row.integer(column);
  return value ? OptText(detail_text::bytes(*value)) : std::nullopt;
}

OptText stringOf(const Database& db, const SourceRow& row, std::string_view column) {
  auto id = row.integer(column);
  return id ? lookupString(db, *id) : std::nullopt;
}

// "256 x 128 x 1" from the X, Y and Z columns of PREFIX.
OptText dimensions(const SourceRow& row, const std::string& prefix) {
  auto x = row.integer(prefix + "X");
  auto y = row.integer(prefix + "Y");
  auto z = row.integer(prefix + "Z");
  if (!x || !y || !z) return std::nullopt;
  return std::to_string(*x) + " x " + std::to_string(*y) + " x " + std::to_string(*z);
}

// ENUM_CUDA_MEM_KIND labels of the nsys export, by id, for files without the enum table.
constexpr std::array<const char*, 8> kMemoryKindLabels = {"Pageable", "Pinned",        "Device",         "Array",
                                                          "Managed",  "Device Static", "Managed Static", "Unknown"};

OptText memoryKind(const Database& db, const SourceRow& row, std::string_view column) {
  auto id = row.integer(column);
  if (!id) return std::nullopt;
  if (auto label = lookupEnumLabel(db, table::kEnumMemKind, *id)) return label;
  bool known = *id >= 0 && *id < static_cast<int64_t>(kMemoryKindLabels.size());
  return known ? kMemoryKindLabels[static_cast<size_t>(*id)] : "kind " + std::to_string(*id);
}

OptText throughputOf(const SourceRow& row, TimeNs duration) {
  auto bytes = row.integer("bytes");
  return bytes && duration > 0 ? OptText(detail_text::throughput(*bytes, duration)) : std::nullopt;
}

DetailSection placementSection(const Trace& trace, EventRef event) {
  const Track& track = trace.track(event.track);
  DetailSection section{"Where", {}};
  add(section, "Device", detail_text::device(trace, track.deviceId));
  add(section, "Context", detail_text::number(track.contextId));
  add(section, "Stream", detail_text::number(track.streamId));
  add(section, "Process", detail_text::process(trace, track.pid));
  uint32_t correlation = trace.lane(event).correlation[event.index];
  if (correlation != 0) add(section, "Correlation ID", detail_text::number(correlation));
  return section;
}

// The CUDA API call that launched EVENT, and how long the work waited after the call returned.
DetailSection launchSection(const Trace& trace, EventRef event, EventDetails& details) {
  DetailSection section{"Launched by", {}};
  details.launchingCall = trace.launchingCall(event);
  if (!details.launchingCall) return section;
  EventRef call = *details.launchingCall;
  add(section, "API call", trace.name(call), call);
  add(section, "Thread", detail_text::thread(trace, trace.track(call.track).globalTid));
  add(section, "API start", detail_text::time(trace.start(call) - details.timeOrigin));
  add(section, "API duration", detail_text::duration(trace.end(call) - trace.start(call)));
  add(section, "Queue latency", detail_text::queueLatency(trace.start(event), trace.end(call)));
  return section;
}

OptText blockLimit(int blocks) {
  return blocks == std::numeric_limits<int>::max() ? OptText("no limit") : OptText(detail_text::number(blocks));
}

DetailSection occupancySection(const Trace& trace, EventRef event, const SourceRow& row) {
  DetailSection section{"Theoretical occupancy", {}};
  const DeviceInfo* device = trace.device(trace.track(event.track).deviceId);
  auto bx = row.integer("blockX"), by = row.integer("blockY"), bz = row.integer("blockZ");
  if (!device || !bx || !by || !bz) return section;
  KernelResources kernel;
  kernel.blockThreads = static_cast<int>(std::min<int64_t>(*bx * *by * *bz, std::numeric_limits<int>::max()));
  kernel.registersPerThread = static_cast<int>(row.integer("registersPerThread").value_or(0));
  kernel.sharedMemoryBytes =
      row.integer("staticSharedMemory").value_or(0) + row.integer("dynamicSharedMemory").value_or(0);
  kernel.sharedMemoryConfigBytes = row.integer("sharedMemoryExecuted").value_or(0);
  auto occupancy = computeOccupancy(*device, kernel);
  if (!occupancy.valid && occupancy.warpsPerBlock == 0) {
    add(section, "Occupancy", occupancy.problem);
    return section;
  }
  add(section, "Occupancy", occupancy.valid ? detail_text::percent(occupancy.occupancyPercent) : occupancy.problem);
  add(section, "Active warps per SM",
      std::to_string(occupancy.activeWarpsPerSm) + " of " + std::to_string(occupancy.maxWarpsPerSm));
  add(section, "Active blocks per SM", detail_text::number(occupancy.activeBlocksPerSm));
  add(section, "Limited by", bindingLimitsText(occupancy));
  add(section, "Block limit: warps", blockLimit(occupancy.blocksByWarps));
  add(section, "Block limit: blocks per SM", blockLimit(occupancy.blocksByBlocks));
  add(section, "Block limit: registers", blockLimit(occupancy.blocksByRegisters));
  add(section, "Block limit: shared memory", blockLimit(occupancy.blocksBySharedMemory));
  add(section, "Registers per warp (allocated)", detail_text::number(occupancy.registersPerWarp));
  add(section, "Shared memory per block (allocated)", detail_text::bytes(occupancy.sharedMemoryPerBlock));
  add(section, "Shared memory per SM", detail_text::bytes(occupancy.sharedMemoryPerSm));
  return section;
}

// The GPU's sampled metrics averaged over the kernel: GPU-wide, so they say so, and they say "too short"
// rather than average one or two samples that mostly describe other work.
DetailSection sampledMetricsSection(const Trace& trace, EventRef event) {
  DetailSection section{"GPU metrics (sampled, whole GPU)", {}};
  TimeInterval kernel{trace.start(event), trace.end(event)};
  const Track& track = trace.track(event.track);
  SampledMeans means =
      sampledMeans(gpuMetrics(trace), static_cast<int>(track.deviceId), kernel, global_id::hw(track.globalTid));
  if (!means.haveMetrics) return section;
  std::string rate = engineeringText(means.frequencyHz, "Hz");
  if (means.tooShort()) {
    add(section, "Samples",
        std::to_string(means.samples) + " inside the kernel at " + rate +
            ": too short for the sampling rate (the means need " + std::to_string(kLeastSamplesForMeans) + ")");
    return section;
  }
  add(section, "Samples", std::to_string(means.samples) + " inside the kernel at " + rate);
  for (const SampledMean& mean : means.means) {
    std::string label(gpu_metric::labelOf(mean.metric));
    add(section, label,
        gpu_metric::isPercent(mean.metric) ? detail_text::percent(mean.mean)
                                           : engineeringText(mean.mean, gpu_metric::unitOf(mean.metric)));
  }
  return section;
}

void addCommonGpuSections(const Trace& trace, EventRef event, EventDetails& details) {
  addSection(details, timeSection(trace, event, details.timeOrigin));
  addSection(details, placementSection(trace, event));
  addSection(details, launchSection(trace, event, details));
}

}  // namespace

void describeKernel(const Trace& trace, EventRef event, EventDetails& details) {
  details.kind = "Kernel";
  const Database& db = trace.database();
  SourceRow row(db, table::kKernel, trace.lane(event).row[event.index],
                {"demangledName", "shortName", "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ",
                 "registersPerThread", "staticSharedMemory", "dynamicSharedMemory", "localMemoryPerThread",
                 "localMemoryTotal", "sharedMemoryExecuted", "gridId"});
  DetailSection kernel{"Kernel", {}};
  add(kernel, "Name", stringOf(db, row, "demangledName").value_or(trace.name(event)));
  add(kernel, "Grid", dimensions(row, "grid"));
  OptText block = dimensions(row, "block");
  if (block) {
    auto threads =
        row.integer("blockX").value_or(0) * row.integer("blockY").value_or(0) * row.integer("blockZ").value_or(0);
    block = *block + " (" + std::to_string(threads) + " threads)";
  }
  add(kernel, "Block", block);
  add(kernel, "Registers per thread", numberOf(row, "registersPerThread"));
  add(kernel, "Static shared memory", bytesOf(row, "staticSharedMemory"));
  add(kernel, "Dynamic shared memory", bytesOf(row, "dynamicSharedMemory"));
  add(kernel, "Local memory per thread", bytesOf(row, "localMemoryPerThread"));
  add(kernel, "Local memory total", bytesOf(row, "localMemoryTotal"));
  add(kernel, "Shared memory configuration", bytesOf(row, "sharedMemoryExecuted"));
  add(kernel, "Grid ID", numberOf(row, "gridId"));
  addSection(details, std::move(kernel));
  // The sampled metrics right after the times they average over, before where and by whom it ran: in a short
  // pane they are what a user with metrics looks for first.
  addSection(details, timeSection(trace, event, details.timeOrigin));
  addSection(details, sampledMetricsSection(trace, event));
  addSection(details, placementSection(trace, event));
  addSection(details, launchSection(trace, event, details));
  addSection(details, occupancySection(trace, event, row));
}

void describeMemory(const Trace& trace, EventRef event, EventDetails& details) {
  const Database& db = trace.database();
  bool memset = trace.lane(event).style[event.index] == kMemsetStyle;
  uint32_t rowid = trace.lane(event).row[event.index];
  TimeNs duration = trace.end(event) - trace.start(event);
  DetailSection section{memset ? "Memory set" : "Memory copy", {}};
  details.kind = section.title;
  if (memset) {
    SourceRow row(db, table::kMemset, rowid, {"bytes", "value", "memKind"});
    add(section, "Bytes", bytesOf(row, "bytes"));
    add(section, "Value", numberOf(row, "value"));
    add(section, "Memory kind", memoryKind(db, row, "memKind"));
    add(section, "Throughput", throughputOf(row, duration));
  } else {
    SourceRow row(db, table::kMemcpy, rowid, {"bytes", "copyKind", "srcKind", "dstKind", "srcDeviceId", "dstDeviceId"});
    if (auto kind = row.integer("copyKind")) {
      auto label = lookupEnumLabel(db, table::kEnumMemcpyOper, *kind);
      add(section, "Kind", label ? *label : "kind " + std::to_string(*kind));
    }
    add(section, "Bytes", bytesOf(row, "bytes"));
    add(section, "Source memory", memoryKind(db, row, "srcKind"));
    add(section, "Destination memory", memoryKind(db, row, "dstKind"));
    add(section, "Source device", numberOf(row, "srcDeviceId"));
    add(section, "Destination device", numberOf(row, "dstDeviceId"));
    add(section, "Throughput", throughputOf(row, duration));
  }
  addSection(details, std::move(section));
  addCommonGpuSections(trace, event, details);
}

}  // namespace gpuscope::detail_sections
