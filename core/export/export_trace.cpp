#include "core/export/export_trace.h"

#include "core/export/chrome_trace_export.h"
#include "core/export/export_output.h"
#include "core/export/perfetto_trace_export.h"

namespace gpuscope {

std::optional<ExportFormat> exportFormatNamed(std::string_view name) {
  if (name == "chrome") return ExportFormat::Chrome;
  if (name == "perfetto") return ExportFormat::Perfetto;
  return std::nullopt;
}

ExportSummary exportTrace(const Trace& trace, ExportFormat format, const std::string& outputPath) {
  auto facts = readExportFacts(trace.database());
  ExportOutput out(outputPath);
  auto summary =
      format == ExportFormat::Chrome ? writeChromeTrace(trace, facts, out) : writePerfettoTrace(trace, facts, out);
  out.commit();
  return summary;
}

}  // namespace gpuscope
