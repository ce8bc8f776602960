#include "app/cli/diff_command.h"

#include <iostream>
#include <memory>

#include "app/cli/table_width.h"
#include "core/diff/diff_report.h"
#include "core/diff/run_diff.h"
#include "core/open/open_trace.h"
#include "core/report/report_format.h"

namespace gpuscope::cli {
namespace {

struct DiffOptions {
  std::string fileA;
  std::string fileB;
  std::string by = "kernel";
  std::string format = "table";
  int width = kWidthNotGiven;
};

void runDiff(const DiffOptions& options) {
  auto a = openTrace(options.fileA).load();
  auto b = openTrace(options.fileB).load();
  DiffBy by = options.by == "nvtx"        ? DiffBy::Nvtx
              : options.by == "demangled" ? DiffBy::DemangledKernel
                                          : DiffBy::Kernel;
  auto diff = diffRuns(*a, *b, by);
  ReportTable rows = diffReportTable(diff);
  if (options.format == "csv") {
    std::cout << formatCsv(rows);
    return;
  }
  ReportTable summary = summaryReportTable(diff);
  if (options.format == "json") {
    nlohmann::ordered_json all = nlohmann::ordered_json::object();
    all["a"] = options.fileA;
    all["b"] = options.fileB;
    all["by"] = options.by;
    all["summary"] = reportJson(summary);
    all["diff"] = reportJson(rows);
    std::cout << jsonText(all) << "\n";
    return;
  }
  std::cout << "A: " << options.fileA << "\nB: " << options.fileB << "\n\n";
  size_t width = stdoutTableWidth(options.width);
  std::cout << " ** " << summary.title << ":\n\n" << formatTextTable(summary, width) << "\n";
  std::cout << " ** " << rows.title << " (by |Delta Total| descending):\n\n" << formatTextTable(rows, width);
}

}  // namespace

void registerDiffCommand(CLI::App& app) {
  auto options = std::make_shared<DiffOptions>();
  auto* command =
      app.add_subcommand("diff",
                         "Compare two runs: kernels or NVTX ranges matched by name, with counts, totals, averages and "
                         "deltas (B - A), and a summary of both runs.");
  command->add_option("A", options->fileA, "The baseline trace file")->required();
  command->add_option("B", options->fileB, "The trace file compared with it")->required();
  command
      ->add_option("--by", options->by,
                   "Match kernels by short name (kernel), kernels by demangled name (demangled: template instances "
                   "apart, as nsys's cuda_gpu_kern_sum) or NVTX ranges by domain:text (nvtx)")
      ->check(CLI::IsMember({"kernel", "demangled", "nvtx"}))
      ->capture_default_str();
  command
      ->add_option("-f,--format", options->format,
                   "Output format: table (summary and rows, for terminals), csv (the rows) or json (both)")
      ->check(CLI::IsMember({"table", "csv", "json"}))
      ->capture_default_str();
  addTableWidthOption(command, options->width);
  command->footer(
      "Rows are sorted by the size of the change in total time; a name found in one run only has the status\n"
      "'only A' or 'only B'. Delta (%) is empty where A's total is 0.\n"
      "\nExamples:\n"
      "  gpuscope diff before.sqlite after.sqlite\n"
      "  gpuscope diff before.sqlite after.sqlite --by nvtx --format csv\n"
      "  gpuscope diff before.sqlite after.sqlite --by demangled --format json\n");
  command->callback([options] { runDiff(*options); });
}

}  // namespace gpuscope::cli
