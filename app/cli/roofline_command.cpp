#include "app/cli/roofline_command.h"

#include <iostream>
#include <memory>

#include "app/cli/table_width.h"
#include "core/open/open_trace.h"
#include "core/report/report_format.h"
#include "core/roofline/roofline_report.h"

namespace gpuscope::cli {
namespace {

struct RooflineOptions {
  std::string file;
  std::string by = "name";
  std::string format = "table";
  int width = kWidthNotGiven;
};

RooflineGrouping groupingOf(const std::string& by) {
  if (by == "instance") return RooflineGrouping::Instance;
  if (by == "nvtx") return RooflineGrouping::Nvtx;
  return RooflineGrouping::Name;
}

std::string rooflineHelpFooter() {
  return "The file needs kernel metrics: attach an `ncu --csv` report first with `gpuscope import-ncu`.\n"
         "\n"
         "Roofs: peak FLOP/s per precision = FLOP per clock per SM of the architecture x SMs x clock rate, and\n"
         "DRAM bandwidth, from the file's TARGET_INFO_GPU; L1 (and L2 where published) bandwidth likewise.\n"
         "Per point: FLOPs per precision and bytes per memory level (sums over the point's kernels), time\n"
         "(ncu's measured duration), achieved GFLOP/s = FLOPs / time, arithmetic intensity per level = FLOPs /\n"
         "bytes, the roof compared against (the precision with the most FLOPs), attainable = min(peak,\n"
         "intensity x bandwidth) at the most limiting level, the roof that bounds it, and achieved as a share of\n"
         "attainable.\n"
         "\n"
         "--by instance: one row per kernel launch; name: per kernel name, longest total time first; nvtx: per\n"
         "NVTX range name, summing the kernels launched inside ranges of that name on the launching thread.\n"
         "--format csv prints the points only; table and json print the roofs too.\n"
         "\n"
         "Examples:\n"
         "  gpuscope roofline run_metrics.sqlite\n"
         "  gpuscope roofline run_metrics.sqlite --by nvtx --format csv\n";
}

void runRoofline(const RooflineOptions& options) {
  auto db = openTrace(options.file).connectChecked();
  auto grouping = groupingOf(options.by);
  auto data = loadRoofline(db, grouping);
  auto roofs = rooflineRoofsTable(data.roofs);
  auto points = rooflinePointsTable(data, grouping);
  if (options.format == "csv") {
    std::cout << formatCsv(points);
  } else if (options.format == "json") {
    nlohmann::ordered_json all = nlohmann::ordered_json::object();
    all["roofs"] = reportJson(roofs);
    all["points"] = reportJson(points);
    std::cout << jsonText(all) << "\n";
  } else {
    size_t width = stdoutTableWidth(options.width);
    std::cout << " ** " << roofs.title << " (" << roofs.name << "):\n\n" << formatTextTable(roofs, width) << "\n";
    std::cout << " ** " << points.title << " (" << points.name << "):\n\n" << formatTextTable(points, width);
  }
  // The roofs table's Source cell may be cut to fit; the reason for missing roofs is said whole.
  for (const auto& device : data.roofs)
    if (!device.unknownBecause.empty())
      std::cerr << "gpuscope: note: device " << device.deviceId << " lacks roofs: " << device.unknownBecause << ".\n";
  if (data.points.empty())
    std::cerr << "gpuscope: note: no kernel of " << options.file << " has metrics"
              << (grouping == RooflineGrouping::Nvtx ? " inside an NVTX range" : "") << "\n";
}

}  // namespace

void registerRooflineCommand(CLI::App& app) {
  auto options = std::make_shared<RooflineOptions>();
  auto* command = app.add_subcommand(
      "roofline",
      "Print the roofline of a trace with kernel metrics: the GPU's roofs and, per kernel, kernel name or NVTX "
      "range, FLOPs, bytes, intensity, achieved and attainable FLOP/s and the bounding roof.");
  command->add_option("FILE", options->file, "Trace file with kernel metrics (see import-ncu)")->required();
  command->add_option("--by", options->by, "Points: instance (each launch), name (kernels by name) or nvtx (ranges)")
      ->check(CLI::IsMember({"instance", "name", "nvtx"}))
      ->capture_default_str();
  command->add_option("-f,--format", options->format, "Output format: table (aligned, for terminals), csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}))
      ->capture_default_str();
  addTableWidthOption(command, options->width);
  command->footer(rooflineHelpFooter());
  command->callback([options] { runRoofline(*options); });
}

}  // namespace gpuscope::cli
