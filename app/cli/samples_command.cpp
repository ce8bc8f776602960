#include "app/cli/samples_command.h"

#include <iostream>
#include <memory>
#include <optional>

#include "app/cli/time_options.h"
#include "core/error.h"
#include "core/model/string_table.h"
#include "core/model/target_info.h"
#include "core/open/open_trace.h"
#include "core/report/report_format.h"
#include "core/samples/call_tree.h"
#include "core/samples/function_shares.h"
#include "core/samples/sample_reader.h"
#include "core/samples/samples_report.h"
#include "core/samples/thread_states.h"
#include "core/schema/table_names.h"

namespace gpuscope::cli {
namespace {

struct SamplesOptions {
  std::string file;
  std::string view = "flat";
  std::string by = "function";  // the flat view's rows: per function (function_shares.h) or per frame
  std::optional<uint32_t> pid;
  std::optional<uint32_t> tid;
  std::string range;
  std::string nvtx;
  std::string format = "table";
  size_t limit = 40;
  double minShare = 1.0;  // percent
};

SampleFilter filterOf(const Database& db, const SamplesOptions& options) {
  SampleFilter filter{options.pid, options.tid, {}};
  if (!options.range.empty()) filter.windows.push_back(rangeOption(db, options.range));
  if (!options.nvtx.empty()) filter.windows.push_back(nvtxOption(db, options.nvtx, "samples"));
  return filter;
}

std::unordered_map<int64_t, std::string> threadNamesOf(const Database& db) {
  StringTable strings;
  strings.loadStringIds(db);
  std::vector<std::string> text = strings.release();
  return readThreadNames(db, strings, text);
}

void printTable(const ReportTable& table, const std::string& format) {
  if (format == "csv") {
    std::cout << formatCsv(table);
  } else if (format == "json") {
    std::cout << jsonText(reportJson(table)) << "\n";
  } else {
    std::cout << " ** " << table.title << " (" << table.name << "):\n\n" << formatTextTable(table);
  }
}

// The flat view per function: the table, then what it leaves out (idle pools, junk frames) for people.
void printFunctions(const FunctionShares& shares, const SamplesOptions& options) {
  if (options.format == "json") {
    std::cout << jsonText(functionSharesJson(shares)) << "\n";
    return;
  }
  size_t limit = options.format == "csv" ? 0 : options.limit;
  printTable(functionSharesTable(shares, limit), options.format);
  if (options.format == "csv") return;
  if (limit != 0 && shares.functions.size() > limit)
    std::cout << "\n(" << shares.functions.size() - limit << " more functions; --limit 0 shows all)\n";
  std::cout << "\n" << functionSharesNote(shares) << "\n";
}

void printView(const Database& db, const CpuSamples& samples, const SamplesOptions& options) {
  if (options.view == "threads") {
    printTable(threadSamplesTable(samples, readThreadStates(db, options.pid, options.tid), threadNamesOf(db)),
               options.format);
  } else if (options.view == "flat" && options.by == "function") {
    printFunctions(functionShares(samples), options);
  } else if (options.view == "flat") {
    auto entries = flatView(samples);
    if (options.format == "json") {
      std::cout << jsonText(nlohmann::ordered_json{{"samples", samples.size()},
                                                   {"functions", flatSamplesJson(samples, entries)}})
                << "\n";
    } else {
      size_t limit = options.format == "csv" ? 0 : options.limit;
      printTable(flatSamplesTable(samples, entries, limit), options.format);
      if (limit != 0 && entries.size() > limit)
        std::cout << "\n(" << entries.size() - limit << " more functions; --limit 0 shows all)\n";
    }
  } else {
    auto direction = options.view == "top-down" ? TreeDirection::TopDown : TreeDirection::BottomUp;
    CallTree tree = callTree(samples, direction);
    if (options.format == "json") {
      std::cout << jsonText(callTreeJson(samples, tree, options.minShare / 100.0)) << "\n";
    } else {
      printTable(callTreeTable(samples, tree, direction, options.minShare / 100.0), options.format);
    }
  }
}

void runSamples(const SamplesOptions& options) {
  Database db = openTrace(options.file).connectChecked();
  SampleRead read = readCpuSamples(db, filterOf(db, options));
  bool noSampleTable = !read.missingTables.empty() && read.missingTables.front() == table::kCompositeEvents;
  if (noSampleTable && (options.view != "threads" || !db.hasTable(table::kSchedEvents))) {
    throw TraceError(options.file + " holds no CPU samples: record with `gpuscope record --sample cpu`, or " +
                     "export an nsys report made with --sample=process-tree (nsys's default).");
  }
  printView(db, read.samples, options);
  if (read.samples.size() == 0 && options.view != "threads")
    std::cerr << "gpuscope: note: no CPU sample of " << options.file << " matches the filters\n";
}

std::string samplesHelpFooter() {
  return "Views: flat (--by function, the default: one row per function, as py-spy's top counts them: the\n"
         "program's own Python function where the stack has one, all its lines together, else the function that\n"
         "was running; under each its lines (\"  line FILE:N\") and the native code it ran (\"  in LEAF\"), shares\n"
         "of the working samples: idle thread-pool threads (OpenBLAS, OpenMP waits) are counted apart and\n"
         "unwinder junk frames dropped, as the note under the table says. --by frame: one row per frame, self =\n"
         "samples where it was running, total = samples with it anywhere on the stack, shares of all selected\n"
         "samples), top-down (callers first, as a flame graph stacks them),\n"
         "bottom-up (where the time went, then who called it), threads (per thread: samples, and the share of\n"
         "the time its scheduling records cover that it spent running and off the CPU).\n"
         "Trees list nodes with at least --min-share percent of the samples.\n"
         "\n"
         "Examples:\n"
         "  gpuscope samples run.sqlite\n"
         "  gpuscope samples run.sqlite --view bottom-up --tid 4242 --range 2s:3s\n"
         "  gpuscope samples run.sqlite --view threads --format csv\n";
}

}  // namespace

void registerSamplesCommand(CLI::App& app) {
  auto options = std::make_shared<SamplesOptions>();
  auto* command = app.add_subcommand(
      "samples", "Print what the host's threads were doing: sampled call stacks and time on and off the CPU.");
  command->add_option("FILE", options->file, "Trace file (nsys export or gpuscope recording)")->required();
  command->add_option("--view", options->view, "flat, top-down, bottom-up or threads")
      ->check(CLI::IsMember({"flat", "top-down", "bottom-up", "threads"}))
      ->capture_default_str();
  command->add_option("--by", options->by, "Flat view: a row per function (with its lines and leaves) or per frame")
      ->check(CLI::IsMember({"function", "frame"}))
      ->capture_default_str();
  command->add_option("--pid", options->pid, "Only this process's threads");
  command->add_option("--tid", options->tid, "Only this thread");
  auto* range =
      command->add_option("--range", options->range, "Only samples in FROM:TO from the trace start, like 2s:3s");
  command->add_option("--nvtx", options->nvtx, "Only samples inside the NVTX range name[@domain][/index]")
      ->excludes(range);
  command->add_option("--limit", options->limit, "Flat view: rows in the table (0: all; csv and json print all)")
      ->capture_default_str();
  command->add_option("--min-share", options->minShare, "Trees: the smallest node shown, in percent of the samples")
      ->check(CLI::Range(0.0, 100.0))
      ->capture_default_str();
  command->add_option("-f,--format", options->format, "Output format: table (aligned, for terminals), csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}))
      ->capture_default_str();
  command->footer(samplesHelpFooter());
  command->callback([options] { runSamples(*options); });
}

}  // namespace gpuscope::cli
