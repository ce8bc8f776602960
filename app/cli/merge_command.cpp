#include "app/cli/merge_command.h"

#include <iostream>
#include <memory>

#include "app/cli/table_width.h"
#include "core/ranks/trace_merge.h"
#include "core/report/report_format.h"
#include "core/report/report_table.h"

namespace gpuscope::cli {
namespace {

struct MergeCommandOptions {
  std::vector<std::string> inputs;
  std::string output;
  bool relative = false;
  int width = kWidthNotGiven;
};

// One row per input: where it went and what it brought.
ReportTable mergedInputsTable(const MergeSummary& summary) {
  ReportTable table;
  table.name = "merge";
  table.title = "Merged inputs";
  table.columns = {{"Rank", 0}, {"Host", 0},      {"Shift (ms)", 3}, {"Kernels", 0},
                   {"Rows", 0}, {"Rank from", 0}, {"File", 0}};
  for (const MergedInput& input : summary.inputs) {
    const RankRow& rank = input.rank;
    table.rows.push_back({rank.rank, rank.hostName, static_cast<double>(rank.timeShiftNs) / 1e6, input.kernels,
                          input.rowsCopied, rank.rankSource, rank.sourcePath});
  }
  return table;
}

void runMerge(const MergeCommandOptions& options) {
  MergeOptions merge;
  merge.clock = options.relative ? MergeClock::Relative : MergeClock::Absolute;
  MergeSummary summary = mergeTraces(options.inputs, options.output, merge);
  std::cout << "Merged " << summary.inputs.size() << " files into " << options.output << ", "
            << (options.relative ? "each input's own start at time 0"
                                 : "on one clock by each input's session start (time 0: the earliest)")
            << ".\n\n"
            << formatTextTable(mergedInputsTable(summary), stdoutTableWidth(options.width));
  for (const std::string& note : summary.notes) std::cout << "\nNote: " << note;
  if (!summary.notes.empty()) std::cout << "\n";
  if (summary.notKept.empty()) return;
  std::cout << "\nNot kept (" << summary.notKept.size() << "):\n";
  for (const std::string& line : summary.notKept) std::cout << "  " << line << "\n";
}

}  // namespace

void registerMergeCommand(CLI::App& app) {
  auto options = std::make_shared<MergeCommandOptions>();
  auto* command = app.add_subcommand(
      "merge",
      "Merge several rank files (nsys exports, gpuscope recordings, PyTorch profiler traces) into one trace file "
      "on one clock, each rank's processes, threads and correlation ids kept apart.");
  command->add_option("FILES", options->inputs, "The rank files, one per rank")->required();
  command->add_option("-o,--output", options->output, "The merged trace file to write (replaced)")
      ->required()
      ->type_name("OUT");
  command->add_flag("--relative", options->relative,
                    "Line up every input's own start at time 0 instead of placing inputs by their absolute start");
  addTableWidthOption(command, options->width);
  command->footer(
      "\nInputs are placed by their absolute session start (nsys: TARGET_INFO_SESSION_START_TIME; PyTorch:\n"
      "baseTimeNanoseconds); an nsys export made with --ts-normalize is not shifted twice. The rank comes\n"
      "from the file (GPUSCOPE_RANKS, GPUSCOPE_META, or the RANK variables nsys captured), else from the\n"
      "order given. OUT's GPUSCOPE_RANKS table records each rank's host, world size, session start and\n"
      "the hw field of its globalPid values.\n"
      "\nExamples:\n"
      "  gpuscope merge rank0.sqlite rank1.sqlite -o job.sqlite       # nsys exports of one job\n"
      "  gpuscope merge rank*.json.gz -o job.sqlite                   # PyTorch profiler traces, one per rank\n"
      "  gpuscope merge monday.sqlite tuesday.sqlite --relative -o both.sqlite\n");
  command->callback([options] { runMerge(*options); });
}

}  // namespace gpuscope::cli
