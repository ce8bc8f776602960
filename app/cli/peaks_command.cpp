#include "app/cli/peaks_command.h"

#include <iostream>
#include <memory>

#include "app/cli/peaks_helper.h"
#include "app/cli/table_width.h"
#include "core/error.h"
#include "core/open/open_trace.h"
#include "core/report/report_format.h"
#include "core/roofline/peaks_measurement.h"

namespace gpuscope::cli {
namespace {

struct PeaksOptions {
  std::string store;
  std::string format = "table";
  int device = 0;
  int width = kWidthNotGiven;
};

std::string peaksHelpFooter() {
  return "Runs gpuscope-peaks, a CUDA program installed next to the collector libraries, on device N. Each roof\n"
         "is the best of several runs timed with CUDA events:\n"
         "  dram  a streaming copy through a buffer far larger than L2 (bytes read + written per second)\n"
         "  l2    repeated reads of a working set that fits in L2, bypassing L1\n"
         "  l1    repeated conflict-free 16-byte reads of shared memory\n"
         "  fp64, fp32, fp16  FMA chains, several independent ones per thread (fp16 as half2 FMA)\n"
         "Theoretical peaks come from the architecture table of `gpuscope roofline`.\n"
         "\n"
         "--store TRACE appends the figures to the trace's GPUSCOPE_DEVICE_PEAKS table, for the trace's device\n"
         "that is this GPU (same UUID) or, failing that, of the same model; `gpuscope roofline` then uses them\n"
         "in place of the theoretical roofs and says which roofs were measured.\n"
         "\n"
         "Examples:\n"
         "  gpuscope peaks\n"
         "  gpuscope peaks --device 1 --format json\n"
         "  gpuscope peaks --store run.sqlite\n";
}

PeaksMeasurement measure(int device) {
  auto helper = findPeaksHelper();
  auto run = runHelper(helper, {"--device", std::to_string(device)});
  if (run.signal) throw TraceError(helper + " was killed by signal " + std::to_string(run.signal) + ".");
  if (run.exitCode != 0 && run.out.find('{') == std::string::npos)
    throw TraceError(helper + " failed (exit status " + std::to_string(run.exitCode) + ") without a measurement.");
  return parsePeaksOutput(run.out);  // throws the helper's own sentence when it reports an error
}

void store(const std::string& path, PeaksMeasurement measurement) {
  std::optional<uint32_t> device;
  {
    auto opened = openTrace(path);
    if (opened.format->import)
      throw TraceError(path + " is a " + std::string(opened.format->name) +
                       ": measured roofs are stored only in an SQLite trace (a gpuscope recording or an nsys export).");
    auto db = opened.connect();
    device = matchTraceDevice(db, measurement.uuid, measurement.device.name);
  }
  if (!device)
    throw TraceError(path + " has no device that is this GPU (" + measurement.device.name +
                     ") or the one device of its model: store the peaks in a trace recorded on it.");
  for (auto& peak : measurement.peaks) peak.deviceId = *device;
  writeDevicePeaks(path, measurement.peaks);
  std::cerr << "gpuscope: stored " << measurement.peaks.size() << " measured roofs for device " << *device << " of "
            << path << " (table GPUSCOPE_DEVICE_PEAKS)\n";
}

void print(const PeaksMeasurement& measurement, const PeaksOptions& options) {
  const std::string& format = options.format;
  auto table = peaksTable(measurement);
  if (format == "csv") {
    std::cout << formatCsv(table);
  } else if (format == "json") {
    nlohmann::ordered_json all = nlohmann::ordered_json::object();
    all["helper"] = measurement.helper;
    all["device"] = {{"ordinal", measurement.device.id}, {"name", measurement.device.name}, {"uuid", measurement.uuid}};
    all["peaks"] = reportJson(table);
    std::cout << jsonText(all) << "\n";
  } else {
    std::cout << " ** " << table.title << " (" << table.name << "):\n\n"
              << formatTextTable(table, stdoutTableWidth(options.width));
  }
}

void runPeaks(const PeaksOptions& options) {
  if (options.device < 0) throw TraceError("--device takes a CUDA device number, 0 or more.");
  auto measurement = measure(options.device);
  print(measurement, options);
  if (!options.store.empty()) store(options.store, measurement);
}

}  // namespace

void registerPeaksCommand(CLI::App& app) {
  auto options = std::make_shared<PeaksOptions>();
  auto* command = app.add_subcommand(
      "peaks",
      "Measure the GPU's roofs (DRAM, L2 and L1 bandwidth, FP64/FP32/FP16 FMA throughput) and print them against "
      "the theoretical peaks; --store writes them into a trace for `gpuscope roofline`.");
  command->add_option("--store", options->store, "Trace file to append the measured roofs to (GPUSCOPE_DEVICE_PEAKS)");
  command->add_option("-f,--format", options->format, "Output format: table (aligned, for terminals), csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}))
      ->capture_default_str();
  command->add_option("--device", options->device, "CUDA device number to measure")->capture_default_str();
  addTableWidthOption(command, options->width);
  command->footer(peaksHelpFooter());
  command->callback([options] { runPeaks(*options); });
}

}  // namespace gpuscope::cli
