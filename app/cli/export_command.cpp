#include "app/cli/export_command.h"

#include <chrono>
#include <iostream>
#include <memory>

#include "core/error.h"
#include "core/export/export_trace.h"
#include "core/open/open_trace.h"
#include "core/text/units.h"

namespace gpuscope::cli {
namespace {

struct ExportOptions {
  std::string file;
  std::string format;
  std::string output;
};

bool endsWith(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The --format given, else the one OUT's name implies (.json[.gz]: chrome; .pftrace[.gz]: perfetto).
ExportFormat formatFor(const ExportOptions& options) {
  if (!options.format.empty()) return *exportFormatNamed(options.format);
  std::string name =
      endsWith(options.output, ".gz") ? options.output.substr(0, options.output.size() - 3) : options.output;
  if (endsWith(name, ".json")) return ExportFormat::Chrome;
  if (endsWith(name, ".pftrace") || endsWith(name, ".perfetto-trace")) return ExportFormat::Perfetto;
  throw TraceError("Cannot tell the format from " + options.output + ": pass --format chrome or --format perfetto.");
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void runExport(const ExportOptions& options) {
  auto format = formatFor(options);
  auto started = std::chrono::steady_clock::now();
  auto trace = openTrace(options.file).load();
  double loadSeconds = secondsSince(started);
  started = std::chrono::steady_clock::now();
  auto summary = exportTrace(*trace, format, options.output);
  double writeSeconds = secondsSince(started);
  std::cout << "Wrote " << options.output << ": " << summary.slices << " slices (" << summary.kernels << " kernels), "
            << summary.flows << " flows, " << formatBytes(static_cast<int64_t>(summary.bytesWritten))
            << (endsWith(options.output, ".gz") ? " before compression" : "") << "; loaded in "
            << formatDuration(static_cast<TimeNs>(loadSeconds * 1e9)) << ", written in "
            << formatDuration(static_cast<TimeNs>(writeSeconds * 1e9)) << ".\n";
  if (summary.overlapRows)
    std::cout << "Ranges that overlap without nesting went to " << summary.overlapRows << " extra rows.\n";
}

}  // namespace

void registerExportCommand(CLI::App& app) {
  auto options = std::make_shared<ExportOptions>();
  auto* command = app.add_subcommand(
      "export",
      "Write a trace as Chrome trace JSON in the PyTorch profiler's shape (for Perfetto, chrome://tracing and "
      "Holistic Trace Analysis) or as a Perfetto protobuf trace.");
  command->add_option("FILE", options->file, "Trace file (gpuscope recording, nsys SQLite export or PyTorch trace)")
      ->required();
  command->add_option("-f,--format", options->format, "chrome or perfetto (default: from OUT's name)")
      ->check(CLI::IsMember({"chrome", "perfetto"}));
  command->add_option("-o,--output", options->output, "File to write; a name ending in .gz is gzip-compressed")
      ->required()
      ->type_name("OUT");
  command->footer(
      "\nExamples:\n"
      "  gpuscope export run.sqlite --format chrome -o run.json.gz   # open in Perfetto or load with HTA\n"
      "  gpuscope export run.sqlite --format perfetto -o run.pftrace  # open in ui.perfetto.dev\n"
      "  gpuscope export trace.json.gz -o trace.pftrace               # a PyTorch profiler trace, as Perfetto\n");
  command->callback([options] { runExport(*options); });
}

}  // namespace gpuscope::cli
