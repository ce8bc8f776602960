#pragma once
// The one entry point of the exporters: a loaded trace written as Chrome trace JSON (Kineto's shape, plain
// or gzip) or as a Perfetto protobuf trace, under its final name only once complete.
#include <optional>
#include <string>
#include <string_view>

#include "core/export/export_summary.h"
#include "core/model/trace.h"

namespace gpuscope {

enum class ExportFormat { Chrome, Perfetto };

// "chrome" or "perfetto"; nullopt for anything else.
std::optional<ExportFormat> exportFormatNamed(std::string_view name);

// Writes TRACE to OUTPUT_PATH (gzip-compressed when it ends in ".gz"). Throws TraceError with one
// sentence when the file cannot be written; a failed export leaves no file behind and an existing
// OUTPUT_PATH untouched.
ExportSummary exportTrace(const Trace& trace, ExportFormat format, const std::string& outputPath);

}  // namespace gpuscope
