#include "core/metrics/memory_usage.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "core/db/row_scan.h"
#include "core/db/sqlite_database.h"
#include "core/model/global_id.h"
#include "core/model/trace.h"
#include "core/schema/nsys_enums.h"
#include "core/schema/table_names.h"
#include "core/schema/trace_schema.h"

namespace gpuscope {
namespace {

void refuse(MemoryUsage& out, std::string_view why) {
  if (out.refusedRows++ == 0) out.refusedWhy = std::string(why);
}

std::vector<MemoryUsageEvent> readEvents(const Database& db, MemoryUsage& out) {
  std::vector<MemoryUsageEvent> events;
  bool hasCorrelation = hasColumn(db, table::kGpuMemoryUsage, "correlationId");
  std::string columns = "start, globalPid, deviceId, memKind, memoryOperationType, bytes, address";
  if (hasCorrelation) columns += ", correlationId";
  forEachRow(db, columns, table::kGpuMemoryUsage, [&](const RowValues& row) {
    Statement::IntegerRead cells[7] = {};
    for (int i = 0; i < 7; ++i) {
      cells[i] = row.readInteger(i);
      if (!cells[i].integer)
        return refuse(out,
                      "a start, globalPid, deviceId, kind, operation, size or address "
                      "that is not an integer");
    }
    if (cells[5].value < 0) return refuse(out, "a negative size");
    MemoryUsageEvent event;
    event.time = cells[0].value;
    event.globalPid = cells[1].value;
    event.deviceId = static_cast<int>(cells[2].value);
    event.memKind = static_cast<int>(cells[3].value);
    event.free = cells[4].value == nsys_enum::kDevMemDeallocation;
    event.bytes = cells[5].value;
    event.address = cells[6].value;
    if (hasCorrelation) {
      auto correlation = row.readInteger(7);
      if (correlation.integer) event.correlationId = correlation.value;
    }
    events.push_back(event);
  });
  std::stable_sort(events.begin(), events.end(),
                   [](const MemoryUsageEvent& a, const MemoryUsageEvent& b) { return a.time < b.time; });
  return events;
}

// Each process's running total on each GPU, event by event; a free takes away the size the file gives it, or
// (where it gives 0) the size of the live allocation at its address.
void buildProcesses(MemoryUsage& out) {
  std::map<std::pair<int, int64_t>, ProcessMemory> byKey;
  std::map<std::pair<int, int64_t>, std::unordered_map<int64_t, int64_t>> live;
  for (size_t i = 0; i < out.events.size(); ++i) {
    const MemoryUsageEvent& event = out.events[i];
    if (!takesDeviceMemory(event.memKind)) continue;
    std::pair<int, int64_t> key{event.deviceId, event.globalPid};
    ProcessMemory& process = byKey[key];
    process.globalPid = event.globalPid;
    process.deviceId = event.deviceId;
    process.hw = global_id::hw(event.globalPid);
    auto& blocks = live[key];
    int64_t delta = event.bytes;
    if (event.free) {
      auto found = blocks.find(event.address);
      if (event.bytes == 0 && found == blocks.end()) {
        ++out.unmatchedFrees;
        continue;
      }
      delta = -(event.bytes != 0 ? event.bytes : found->second);
      if (found != blocks.end()) blocks.erase(found);
    } else {
      blocks[event.address] = event.bytes;
    }
    int64_t now = (process.allocated.empty() ? 0 : process.allocated.back()) + delta;
    process.time.push_back(event.time);
    process.allocated.push_back(now);
    process.event.push_back(static_cast<uint32_t>(i));
    if (now > process.peak) {
      process.peak = now;
      process.peakTime = event.time;
      process.peakStep = process.time.size() - 1;
    }
  }
  for (auto& [key, process] : byKey) out.processes.push_back(std::move(process));
}

}  // namespace

ptrdiff_t ProcessMemory::stepAt(TimeNs t) const {
  auto after = std::upper_bound(time.begin(), time.end(), t);
  return static_cast<ptrdiff_t>(after - time.begin()) - 1;
}

bool takesDeviceMemory(int memKind) {
  return memKind != nsys_enum::kMemKindPageable && memKind != nsys_enum::kMemKindPinned;
}

MemoryUsage::Peak MemoryUsage::devicePeak(int deviceId, uint32_t hw) const {
  // Every process's steps on the device, merged in time order, each moving the device's total.
  std::vector<std::pair<TimeNs, int64_t>> deltas;
  for (const ProcessMemory& process : processes) {
    if (process.deviceId != deviceId || process.hw != hw) continue;
    for (size_t i = 0; i < process.time.size(); ++i)
      deltas.push_back({process.time[i], process.allocated[i] - (i == 0 ? 0 : process.allocated[i - 1])});
  }
  std::stable_sort(deltas.begin(), deltas.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  Peak peak;
  int64_t total = 0;
  for (const auto& [time, delta] : deltas) {
    total += delta;
    if (total > peak.bytes) peak = {total, time};
  }
  return peak;
}

MemoryUsage readMemoryUsage(const Database& db) {
  MemoryUsage out;
  if (!db.hasTable(table::kGpuMemoryUsage)) return out;
  out.events = readEvents(db, out);
  buildProcesses(out);
  return out;
}

const MemoryUsage& memoryUsage(const Trace& trace) {
  return trace.memo<MemoryUsage>([&trace] {
    MemoryUsage usage;
    if (!trace.hasDatabase()) return usage;
    try {
      usage = readMemoryUsage(trace.database());
    } catch (const std::exception& error) {
      usage = MemoryUsage{};
      usage.unreadable = error.what();
    }
    return usage;
  });
}

}  // namespace gpuscope
