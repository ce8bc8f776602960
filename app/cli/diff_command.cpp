#include "app/cli/diff_command.h"

#include <iostream>
#include <memory>
#include <optional>

#include "app/cli/table_width.h"
#include "core/diff/diff_report.h"
#include "core/diff/run_diff.h"
#include "core/error.h"
#include "core/open/open_trace.h"
#include "core/open/temp_trace_file.h"
#include "core/ranks/rank_extract.h"
#include "core/report/report_format.h"

namespace gpuscope::cli {
namespace {

struct DiffOptions {
  std::string fileA;
  std::string fileB;  // empty with --rank-a and --rank-b: two ranks of A
  std::optional<int64_t> rankA;
  std::optional<int64_t> rankB;
  std::string by = "kernel";
  std::string format = "table";
  int width = kWidthNotGiven;
};

// One input of the diff: FILE, or its rank RANK copied into a file of its own in the temp folder (removed after).
class DiffInput {
 public:
  DiffInput(const std::string& file, std::optional<int64_t> rank, const char* side) : path_(file), label_(file) {
    if (!rank) return;
    extracted_.emplace("diff-" + std::string(side) + ".sqlite");
    path_ = extracted_->path();
    extractRank(openTrace(file).connect(), *rank, path_);
    label_ = file + " (rank " + std::to_string(*rank) + ")";
  }
  DiffInput(const DiffInput&) = delete;
  DiffInput& operator=(const DiffInput&) = delete;
  const std::string& path() const { return path_; }
  const std::string& label() const { return label_; }

 private:
  std::string path_;
  std::string label_;
  std::optional<TempTraceFile> extracted_;
};

void runDiff(const DiffOptions& options) {
  if (options.fileB.empty() && !(options.rankA && options.rankB))
    throw TraceError("Give two trace files, or one file of several ranks with --rank-a and --rank-b.");
  DiffInput sideA(options.fileA, options.rankA, "a");
  DiffInput sideB(options.fileB.empty() ? options.fileA : options.fileB, options.rankB, "b");
  auto a = openTrace(sideA.path()).load();
  auto b = openTrace(sideB.path()).load();
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
    all["a"] = sideA.label();
    all["b"] = sideB.label();
    all["by"] = options.by;
    all["summary"] = reportJson(summary);
    all["diff"] = reportJson(rows);
    std::cout << jsonText(all) << "\n";
    return;
  }
  std::cout << "A: " << sideA.label() << "\nB: " << sideB.label() << "\n\n";
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
  command->add_option("B", options->fileB, "The trace file compared with it (A again when left out, with --rank-b)");
  command->add_option("--rank-a", options->rankA,
                      "Compare only this rank of A (a merged file or a recording of ranks)");
  command->add_option("--rank-b", options->rankB, "Compare only this rank of B (of A when B is left out)");
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
      "  gpuscope diff before.sqlite after.sqlite --by demangled --format json\n"
      "  gpuscope diff ranks.sqlite --rank-a 0 --rank-b 1      # two ranks of one run (gpuscope merge)\n");
  command->callback([options] { runDiff(*options); });
}

}  // namespace gpuscope::cli
