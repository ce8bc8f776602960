#pragma once
// Roofs measured on the GPU itself (`gpuscope peaks`, in the spirit of the Empirical Roofline Toolkit), as
// the trace's GPUSCOPE_DEVICE_PEAKS table stores them, and how they replace the theoretical roofs.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/roofline/device_roofs.h"

namespace gpuscope {

class Database;

// One measured roof.
struct MeasuredPeak {
  uint32_t deviceId = 0;   // in a trace: its TARGET_INFO_GPU id; from the helper: the CUDA device ordinal
  std::string deviceName;  // the GPU measured
  std::string uuid;
  std::string kind;        // a peakKind(): "fp64", "fp32", "fp16", "tensor" (FLOP/s) or "dram", "l2", "l1" (bytes/s)
  double value = 0;        // per second
  std::string method;      // what was run, for whoever doubts the figure
  int64_t measuredAt = 0;  // ns since the UTC epoch
};

// The kind text of a roof, as the table and the helper's output write it.
std::string_view peakKind(Precision precision);
std::string_view peakKind(MemoryLevel level);
// Whether KIND names a roof (a precision or a memory level).
bool isPeakKind(std::string_view kind);
// "FLOP/s" for a precision's kind, "B/s" for a memory level's.
std::string_view peakUnit(std::string_view kind);
// The value of the roof of KIND in ROOFS; 0 when unknown or KIND names no roof.
double roofValue(const DeviceRoofs& roofs, std::string_view kind);

// Every usable row of the file's GPUSCOPE_DEVICE_PEAKS (empty when the table is absent). Rows of unknown
// kinds or with a value that is not a positive number are skipped: the file is untrusted. Throws TraceError
// when the table lacks a column the reader needs.
std::vector<MeasuredPeak> readDevicePeaks(const Database& db);

// Appends PEAKS to GPUSCOPE_DEVICE_PEAKS of the trace at PATH (creating the table in files written before
// it existed); earlier measurements stay, the latest is the one used. Throws TraceError when PATH is not a
// trace or cannot be written.
void writeDevicePeaks(const std::string& path, const std::vector<MeasuredPeak>& peaks);

// The TARGET_INFO_GPU id of the trace's device that is the GPU named by UUID, else the one device of that
// NAME (a GPU of the same model); nullopt when neither matches.
std::optional<uint32_t> matchTraceDevice(const Database& db, const std::string& uuid, const std::string& name);

// Replaces roofs of ROOFS with the latest measured value of each kind for roofs.deviceId, marking them
// Measured; roofs nobody measured keep their theoretical value.
void applyMeasuredPeaks(DeviceRoofs& roofs, const std::vector<MeasuredPeak>& peaks);

// The roofs of DEVICE with the file's measured peaks preferred over the theoretical ones.
DeviceRoofs measuredOrTheoreticalRoofs(const Database& db, const DeviceInfo& device);

}  // namespace gpuscope
