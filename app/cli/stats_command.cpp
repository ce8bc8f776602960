#include "app/cli/stats_command.h"

#include <algorithm>
#include <iostream>
#include <memory>

#include "app/cli/output_file.h"
#include "app/cli/table_width.h"
#include "core/error.h"
#include "core/open/open_trace.h"
#include "core/report/report_format.h"
#include "core/stats/stats_common.h"
#include "core/stats/stats_reports.h"

namespace gpuscope::cli {
namespace {

struct StatsOptions {
  std::string file;
  std::vector<std::string> reports;
  std::string format = "table";
  std::string outputPrefix;
  int width = kWidthNotGiven;
};

std::string statsHelpFooter() {
  std::string text = "Reports (the default set is marked *):\n";
  auto defaults = defaultStatsReportNames();
  for (const auto& report : statsReports()) {
    bool isDefault = std::find(defaults.begin(), defaults.end(), report.name) != defaults.end();
    std::string name(report.name);
    text += "  " + name + (isDefault ? " *" : "  ") + std::string(24 - std::min<size_t>(name.size(), 23), ' ') +
            std::string(report.description) + "\n";
  }
  return text +
         "\nColumns, order and numbers are those of `nsys stats --report NAME` on the same file; CSV output is\n"
         "byte-identical to `nsys stats --format csv`. A report whose table the file lacks (for example osrt_sum\n"
         "without OS runtime tracing) is skipped with a note on stderr.\n"
         "\nExamples:\n"
         "  gpuscope stats run.sqlite\n"
         "  gpuscope stats run.sqlite --report cuda_gpu_kern_sum,nvtx_gpu_proj_sum --format csv\n"
         "  gpuscope stats run.sqlite -r cuda_gpu_trace --format json -o out/run   # writes "
         "out/run_cuda_gpu_trace.json\n";
}

// TABLE in FORMAT; a table fits WIDTH columns (0: no limit).
std::string render(const ReportTable& table, const std::string& format, size_t width) {
  if (format == "csv") return formatCsv(table);
  if (format == "json") return jsonText(reportJson(table)) + "\n";
  return formatTextTable(table, width);
}

std::string extensionFor(const std::string& format) { return format == "table" ? "txt" : format; }

// The requested report names, each checked and listed once, in the order given.
std::vector<std::string> requestedReports(const StatsOptions& options) {
  std::vector<std::string> names;
  if (options.reports.empty()) {
    for (auto name : defaultStatsReportNames()) names.emplace_back(name);
    return names;
  }
  for (const auto& name : options.reports) {
    requireStatsReportName(name);
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  return names;
}

void printToStdout(const std::vector<ReportTable>& tables, const std::string& format, size_t width) {
  if (format == "json") {
    nlohmann::ordered_json all = nlohmann::ordered_json::object();
    for (const auto& table : tables) all[table.name] = reportJson(table);
    std::cout << jsonText(all) << "\n";
    return;
  }
  for (size_t i = 0; i < tables.size(); ++i) {
    if (i) std::cout << "\n";
    if (format == "table") std::cout << " ** " << tables[i].title << " (" << tables[i].name << "):\n\n";
    std::cout << render(tables[i], format, width);
  }
}

void runStats(const StatsOptions& options) {
  auto names = requestedReports(options);
  auto db = openTrace(options.file).connectChecked();
  std::vector<ReportTable> tables;
  std::vector<std::pair<std::string, std::string>> skipped;  // report, reason
  for (const auto& name : names) {
    try {
      tables.push_back(runStatsReport(db, name));
    } catch (const ReportUnavailable& unavailable) {
      if (names.size() == 1) throw;
      skipped.emplace_back(name, unavailable.what());
    }
  }
  // Nothing to show: fail with the first reason, e.g. "This file has no ... table: was CUDA tracing on?".
  if (tables.empty()) throw TraceError(skipped.front().second);
  for (const auto& [name, reason] : skipped) std::cerr << "gpuscope: skipped " << name << ": " << reason << "\n";
  if (options.outputPrefix.empty()) {
    printToStdout(tables, options.format, stdoutTableWidth(options.width));
    return;
  }
  for (const auto& table : tables) {
    auto path = options.outputPrefix + "_" + table.name + "." + extensionFor(options.format);
    writeOutputFile(path, render(table, options.format, fileTableWidth(options.width)));
    std::cout << "Wrote " << path << "\n";
  }
  // nsys stats --format csv -o leaves an empty file for a report it skips; so do we, so that scripts
  // comparing folders of reports see the same files.
  if (options.format != "csv") return;
  for (const auto& [name, reason] : skipped) {
    auto path = options.outputPrefix + "_" + name + ".csv";
    writeOutputFile(path, "");
    std::cout << "Wrote " << path << " (empty: skipped)\n";
  }
}

}  // namespace

void printStatsReports(const std::string& file) {
  StatsOptions options;
  options.file = file;
  runStats(options);
}

void registerStatsCommand(CLI::App& app) {
  auto options = std::make_shared<StatsOptions>();
  auto* command = app.add_subcommand(
      "stats",
      "Print the Nsight Systems stats reports (kernel, memory, CUDA API, NVTX, OS runtime summaries and "
      "traces) of a trace, as a table, CSV or JSON.");
  command->add_option("FILE", options->file, "Trace file (gpuscope recording, nsys SQLite export or PyTorch trace)")
      ->required();
  command
      ->add_option("-r,--report", options->reports,
                   "Reports to run, comma-separated or repeated (default: cuda_api_sum, cuda_gpu_kern_sum, "
                   "cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum, nvtx_sum, osrt_sum)")
      ->delimiter(',')
      ->type_name("NAMES")
      ->allow_extra_args(false);  // "-r NAME FILE": FILE is not a second report
  command->add_option("-f,--format", options->format, "Output format: table (aligned, for terminals), csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}))
      ->capture_default_str();
  command
      ->add_option("-o,--output", options->outputPrefix,
                   "Write each report to PREFIX_<report>.<csv|json|txt> instead of stdout")
      ->type_name("PREFIX");
  addTableWidthOption(command, options->width);
  command->footer(statsHelpFooter());
  command->callback([options] { runStats(*options); });
}

}  // namespace gpuscope::cli
