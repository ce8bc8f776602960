#include "app/cli/merge_command.h"

#include <iostream>
#include <memory>

#include "app/cli/table_width.h"
#include "core/ranks/trace_merge.h"
#include "core/report/report_format.h"
#include "core/report/report_table.h"
#include "core/text/units.h"

namespace gpuscope::cli {
namespace {

struct MergeCommandOptions {
  std::vector<std::string> inputs;
  std::string output;
  bool relative = false;
  bool alignCollectives = false;
  bool force = false;
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

// How the ranks' matching collectives line up: the check of the merged clock.
void printCollectives(const MergeSummary& summary) {
  const CollectiveSpread& spread = summary.collectives;
  if (spread.matched == 0) {
    std::cout << "\nCollectives: no collective kernels (NCCL) on two ranks or more, so the clock cannot be checked "
                 "against them.\n";
    return;
  }
  if (summary.collectivesBeforeAlignment)
    std::cout << "\nCollectives before the alignment: ends apart by a median "
              << formatDuration(summary.collectivesBeforeAlignment->medianEndSpreadNs) << ", at most "
              << formatDuration(summary.collectivesBeforeAlignment->maxEndSpreadNs) << ".";
  std::cout << "\nCollectives: " << spread.matched << " matched on every rank"
            << (summary.collectivesBeforeAlignment ? ", after aligning each rank on them" : "")
            << "; their ends are apart by a median " << formatDuration(spread.medianEndSpreadNs) << ", at most "
            << formatDuration(spread.maxEndSpreadNs) << ".";
  if (spread.nameMismatches > 0)
    std::cout << " " << spread.nameMismatches
              << " of them were not the same kernel on every rank: the ranks' recordings may not cover the same steps.";
  std::cout << "\n";
}

void runMerge(const MergeCommandOptions& options) {
  MergeOptions merge;
  merge.clock = options.relative ? MergeClock::Relative : MergeClock::Absolute;
  merge.alignCollectives = options.alignCollectives;
  merge.force = options.force;
  MergeSummary summary = mergeTraces(options.inputs, options.output, merge);
  for (const std::string& warning : summary.warnings) std::cerr << "gpuscope: warning: " << warning << "\n";
  std::cout << "Merged " << summary.inputs.size() << " files into " << options.output << ", "
            << (options.relative ? "each input's own start at time 0"
                                 : "on one clock by each input's session start (time 0: the earliest)")
            << ".\n\n"
            << formatTextTable(mergedInputsTable(summary), stdoutTableWidth(options.width));
  printCollectives(summary);
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
  command->add_flag("--align-collectives", options->alignCollectives,
                    "Then move each rank so that its collectives (NCCL kernels) end with the first rank's: for hosts "
                    "whose clocks disagree");
  command->add_flag("--force", options->force,
                    "Merge inputs that look like different runs (session starts further apart than the runs last, "
                    "or collectives ending more than 1 s apart) instead of refusing them");
  addTableWidthOption(command, options->width);
  command->footer(
      "\nInputs are placed by their absolute session start (nsys: TARGET_INFO_SESSION_START_TIME; PyTorch:\n"
      "baseTimeNanoseconds); an nsys export made with --ts-normalize is not shifted twice. The rank comes\n"
      "from the file (GPUSCOPE_RANKS, GPUSCOPE_META, or the RANK variables nsys captured), else from the\n"
      "order given. OUT's GPUSCOPE_RANKS table records each rank's host, world size, session start and\n"
      "the hw field of its globalPid values. The merge then checks the clock: a collective ends on every rank\n"
      "at once, so it prints how far apart the ranks' matching collectives end. Inputs that look like two\n"
      "runs (session starts further apart than the runs lasted, collectives ending over 1 s apart) are refused;\n"
      "--force merges them with a warning. Every table gpuscope declares is kept, CPU samples included.\n"
      "\nExamples:\n"
      "  gpuscope merge rank0.sqlite rank1.sqlite -o job.sqlite       # nsys exports of one job\n"
      "  gpuscope merge rank*.json.gz -o job.sqlite                   # PyTorch profiler traces, one per rank\n"
      "  gpuscope merge monday.sqlite tuesday.sqlite --relative -o both.sqlite\n");
  command->callback([options] { runMerge(*options); });
}

}  // namespace gpuscope::cli
