#pragma once
// What the GPU helper gpuscope-peaks prints (one JSON object on stdout), read back in the CLI, and the table
// of measured against theoretical roofs that `gpuscope peaks` shows.
#include <string>
#include <string_view>
#include <vector>

#include "core/model/trace.h"
#include "core/report/report_table.h"
#include "core/roofline/device_peaks.h"

namespace gpuscope {

// The helper's output format; the helper writes this number as "format", and a reader refuses another one.
inline constexpr int kPeaksFormatVersion = 1;

struct PeaksMeasurement {
  std::string helper;               // e.g. "gpuscope-peaks 0.1.0"
  DeviceInfo device;                // what the helper read of the GPU: name, SMs, clocks, for the theoretical roofs
  std::string uuid;                 // the GPU's, as nsys writes it
  std::vector<MeasuredPeak> peaks;  // in the helper's order; deviceId is the CUDA device ordinal
};

// Reads the helper's JSON. Throws TraceError with one sentence: the helper's own "error" when it reports
// one, or what is wrong with the output (not JSON, another format, no device, no usable peak). Peaks of kinds
// this gpuscope does not know (a newer helper) are skipped.
PeaksMeasurement parsePeaksOutput(std::string_view text);

// "device_peaks": one row per measured roof: Roof, Measured, Theoretical (from the architecture table) and
// the ratio, Unit (GFLOP/s or GB/s), Method.
ReportTable peaksTable(const PeaksMeasurement& measurement);

}  // namespace gpuscope
