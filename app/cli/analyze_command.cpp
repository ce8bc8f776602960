#include "app/cli/analyze_command.h"

#include <iostream>
#include <memory>
#include <optional>

#include "app/cli/output_file.h"
#include "app/cli/table_width.h"
#include "app/cli/time_options.h"
#include "core/analysis/finding_format.h"
#include "core/analysis/rule_registry.h"
#include "core/analysis/verdict/analysis_report.h"
#include "core/analysis/verdict/verdict_format.h"
#include "core/error.h"
#include "core/model/global_id.h"
#include "core/open/temp_trace_file.h"
#include "core/ranks/trace_merge.h"
#include "core/report/report_format.h"

namespace gpuscope::cli {
namespace {

struct AnalyzeOptions {
  std::vector<std::string> files;  // one trace, or one per rank
  std::vector<std::string> rules;
  std::string format = "table";
  std::string outputPrefix;
  std::string by;     // "" or "nvtx": a verdict per NVTX range too
  std::string range;  // FROM:TO from the trace start: the window the verdict judges instead of the steady state
  std::string nvtx;   // name[@domain][/index]: likewise, an NVTX range
  int width = kWidthNotGiven;
};

// The verdict and findings as one document; WITH_FINDINGS: the whole file's findings and each rank's beside
// its verdict (not for the verdict file that -o writes beside the rules' files).
nlohmann::ordered_json verdictDocument(const AnalysisReport& report, bool withFindings) {
  nlohmann::ordered_json document;
  document["verdict"] = verdictJson(report.run);
  document["figures"] = windowFiguresJson(report.figures);
  if (!report.nvtx.empty()) {
    nlohmann::ordered_json ranges = nlohmann::ordered_json::array();
    for (const RangeVerdict& range : report.nvtx) ranges.push_back(rangeVerdictJson(range));
    document["nvtx_verdicts"] = ranges;
  }
  auto findingList = [](const std::vector<Finding>& findings) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const Finding& finding : findings) list.push_back(findingJson(finding));
    return list;
  };
  if (!report.ranks.empty()) {
    nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
    for (const RankVerdict& rank : report.ranks) {
      ranks.push_back(rankVerdictJson(rank));
      if (withFindings) ranks.back()["findings"] = findingList(rank.findings);
    }
    document["rank_verdicts"] = ranks;
  }
  // A file of several ranks has its findings per rank, above.
  if (withFindings && report.ranks.empty()) document["findings"] = findingList(report.findings);
  return document;
}

// "Verdict: <sentence>", the judged window, the start-up line, the three figures and, with --by nvtx, one
// line per range.
std::string verdictText(const AnalysisReport& report) {
  std::string text;
  // A file of ranks: each rank's class first; the verdict of all of them together judges one host thread (the
  // one with the most CUDA time) against every rank's GPUs.
  if (!report.ranks.empty()) text += "Verdict per rank: " + rankHeadline(report.ranks) + " (each below).\n";
  text += (report.ranks.empty() ? "Verdict: " : "All ranks together, on one host thread: ") +
          verdictSentence(report.run) + "\n";
  text += "Judged window: " + judgedWindowSentence(*report.run.judged) + "\n";
  std::string startup = startupSentence(report.run.startup, report.run.evidence.hostThread);
  if (!startup.empty()) text += startup + "\n";
  text += windowFiguresSentence(report.figures) + "\n";
  if (!report.ranks.empty()) text += "Per rank, each judged on its own steady state:\n";
  for (const RankVerdict& rank : report.ranks) text += "  " + rank.label + ": " + verdictSentence(rank.verdict) + "\n";
  for (const RangeVerdict& range : report.nvtx) {
    text += "  NVTX range '" + range.name + "' (" + std::to_string(range.instances) +
            (range.instances == 1 ? " instance): " : " instances): ") + verdictSentence(range.verdict) + "\n";
  }
  return text + "\n";
}

std::string analyzeHelpFooter() {
  std::string text = "Rules (all run when -r is not given):\n";
  for (const AnalysisRule* rule : analysisRules()) {
    std::string id(rule->id());
    text += "  " + id + std::string(id.size() < 22 ? 22 - id.size() : 1, ' ') + std::string(rule->title()) + "\n";
    std::string options;
    for (const RuleOption& option : rule->options()) {
      options +=
          (options.empty() ? "" : ", ") + option.name + (option.defaultValue.empty() ? "" : "=" + option.defaultValue);
    }
    text += std::string(24, ' ') + "options: " + options + "\n";
  }
  return text +
         "\nOptions follow the rule's name, as in -r gpu_gaps:gap=100:rows=-1. With --format csv -o PREFIX each\n"
         "rule is written to PREFIX_<rule>.csv, byte-identical to `nsys analyze --format csv -o PREFIX` (an empty\n"
         "file when the rule found nothing).\n"
         "\nThe verdict comes first, judged on the run's steady state (its NVTX steps past the first, else from\n"
         "the second launch of its most repeated kernel; --range or --nvtx choose another window), with the\n"
         "start-up set apart on a line of its own: transfer when copies and memsets took >= 50% of the GPU's\n"
         "busy time (or the host was blocked in copies >= 50% of the window: synchronous ones and those with\n"
         "pageable memory, as the blocking_copies finding lists them), communication when\n"
         "collective kernels (NCCL) ran alone >= 50% of the GPU's busy time, gpu_compute when GPUs\n"
         "were busy >= 50% of the window (memory when kernels that metrics put under a memory roof take >= 50%\n"
         "of the kernel time), else the largest of the driving host thread's time in synchronizing calls\n"
         "(synchronization), other CUDA calls (cuda_api) and outside CUDA while the GPU was idle (cpu). Findings\n"
         "follow, the most time at stake in the judged window first. --format json prints {\"verdict\",\n"
         "\"figures\", \"findings\"}; --by nvtx adds \"nvtx_verdicts\", one per NVTX range name. A file of several\n"
         "ranks (or several files) also gets one verdict per rank, each on its own steady state (\"rank_verdicts\"),\n"
         "with that rank's findings beside it: the rules run on the rank's processes in the window it judged\n"
         "(in json each rank's \"findings\"; csv and -o add them after the whole file's, as \"# rank 1: <rule>\" and\n"
         "PREFIX_rank1_<rule>.csv).\n"
         "\nExamples:\n"
         "  gpuscope analyze run.sqlite\n"
         "  gpuscope analyze run.sqlite --format json --by nvtx\n"
         "  gpuscope analyze run.sqlite --range 2s:5s          # judge this window instead of the steady state\n"
         "  gpuscope analyze run.sqlite --nvtx 'epoch 1'\n"
         "  gpuscope analyze run.sqlite -r cuda_api_sync,gpu_gaps:gap=100 --format json\n"
         "  gpuscope analyze run.sqlite --format csv -o out/run      # out/run_<rule>.csv\n";
}

std::vector<RuleRequest> requests(const AnalyzeOptions& options) {
  std::vector<RuleRequest> list;
  if (options.rules.empty()) {
    for (const AnalysisRule* rule : analysisRules()) list.push_back(parseRuleRequest(std::string(rule->id())));
  }
  for (const std::string& spec : options.rules) list.push_back(parseRuleRequest(spec));
  return list;
}

// What the options ask of analyzeTraceFile: every rule asked, found or not; csv and the files of -o keep the
// rules' order (each csv block is nsys analyze's) and, in a file of several ranks, the whole file's findings
// beside each rank's.
AnalysisRequest analysisRequest(const AnalyzeOptions& options) {
  AnalysisRequest request;
  request.rules = requests(options);
  if (!options.range.empty()) {
    request.chooseWindow = [range = options.range](const Database& db) {
      return ChosenWindow{rangeOption(db, range), "--range " + range};
    };
  } else if (!options.nvtx.empty()) {
    request.chooseWindow = [nvtx = options.nvtx](const Database& db) {
      return ChosenWindow{nvtxOption(db, nvtx, "analyze"), "--nvtx " + nvtx};
    };
  }
  bool files = !options.outputPrefix.empty();
  request.nvtxVerdicts = options.by == "nvtx";
  request.foundOnly = false;
  request.byStake = !files && options.format != "csv";
  request.shading = false;
  request.wholeFileWithRanks = files || options.format == "csv";
  return request;
}

// "rank 1 (host-a): 2 findings in its judged window" and each, or a line saying it has none.
std::string rankFindingsText(const RankVerdict& rank, TimeNs traceStart, size_t width) {
  size_t count = rank.findings.size();
  if (count == 0) return rank.label + ": no rule found anything in its judged window.\n";
  std::string text = rank.label + ": " + std::to_string(count) + (count == 1 ? " finding" : " findings") +
                     " in its judged window, the most at stake first\n\n";
  for (size_t i = 0; i < count; ++i) text += (i ? "\n" : "") + findingText(rank.findings[i], traceStart, width);
  return text;
}

// The report on stdout in FORMAT; tables fit WIDTH columns. A file of several ranks: each rank's findings after
// the verdicts (csv: after the whole file's blocks, each headed "# <rank>: <rule>").
void printReport(const AnalysisReport& report, const std::string& format, size_t width) {
  if (format == "json") {
    std::cout << jsonText(verdictDocument(report, true)) << "\n";
    return;
  }
  if (format == "table") std::cout << verdictText(report);
  const std::vector<Finding>& findings = report.findings;
  for (size_t i = 0; i < findings.size(); ++i) {
    if (format == "csv") {
      if (findings.size() > 1) std::cout << (i ? "\n" : "") << "# " << findings[i].ruleId << "\n";
      std::cout << findingCsv(findings[i]);
    } else {
      std::cout << (i ? "\n" : "") << findingText(findings[i], report.traceStart, width);
    }
  }
  for (size_t r = 0; r < report.ranks.size(); ++r) {
    const RankVerdict& rank = report.ranks[r];
    if (format == "table") {
      std::cout << (r ? "\n" : "") << rankFindingsText(rank, report.traceStart, width);
      continue;
    }
    for (const Finding& finding : rank.findings)
      std::cout << "\n# " << rank.label << ": " << finding.ruleId << "\n" << findingCsv(finding);
  }
}

// FINDING in its own file, PREFIX_<rule>.<csv|json|txt>; says so on stdout.
void writeFindingFile(const std::string& prefix, const Finding& finding, TimeNs traceStart,
                      const AnalyzeOptions& options) {
  std::string extension = options.format == "table" ? "txt" : options.format;
  std::string path = prefix + "_" + finding.ruleId + "." + extension;
  if (options.format == "csv") {
    writeOutputFile(path, findingCsv(finding));
  } else if (options.format == "json") {
    writeOutputFile(path, jsonText(findingJson(finding)) + "\n");
  } else {
    writeOutputFile(path, findingText(finding, traceStart, fileTableWidth(options.width)));
  }
  std::cout << "Wrote " << path << "\n";
}

// A rank's part of a file name: "rank1", or "pid4242" for a process that stands for a rank.
std::string rankFilePart(const RankVerdict& rank) {
  if (rank.rank) return "rank" + std::to_string(*rank.rank);
  return "pid" + std::to_string(rank.processes.empty() ? 0 : global_id::pid(rank.processes.front()));
}

// Several rank files are analyzed as one run: merged (gpuscope merge, on one clock by their session starts)
// into a file in the temp folder that is removed afterwards, as HTA analyzes a folder of rank traces.
class MergedRanks {
 public:
  // SAY: whether to print a line saying so (not in csv or json, which programs read).
  MergedRanks(const std::vector<std::string>& files, bool say) {
    if (files.size() == 1) {
      path_ = files.front();
      return;
    }
    merged_.emplace("merged-ranks.sqlite");
    path_ = merged_->path();
    mergeTraces(files, path_);
    if (say)
      std::cout << "Analyzing " << files.size()
                << " ranks as one run, merged on one clock by their session starts.\n\n";
  }
  MergedRanks(const MergedRanks&) = delete;
  MergedRanks& operator=(const MergedRanks&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::optional<TempTraceFile> merged_;
};

void runAnalyze(const AnalyzeOptions& options) {
  AnalysisRequest request = analysisRequest(options);
  MergedRanks input(options.files, options.format == "table");
  AnalysisReport report = analyzeTraceFile(input.path(), request);
  if (options.outputPrefix.empty()) {
    printReport(report, options.format, stdoutTableWidth(options.width));
    return;
  }
  for (const Finding& finding : report.findings)
    writeFindingFile(options.outputPrefix, finding, report.traceStart, options);
  for (const RankVerdict& rank : report.ranks) {
    for (const Finding& finding : rank.findings)
      writeFindingFile(options.outputPrefix + "_" + rankFilePart(rank), finding, report.traceStart, options);
  }
  // The verdict beside the rules' files (not for csv: those files are nsys analyze's, one per rule).
  if (options.format != "csv") {
    std::string path = options.outputPrefix + "_verdict." + (options.format == "json" ? "json" : "txt");
    writeOutputFile(path,
                    options.format == "json" ? jsonText(verdictDocument(report, false)) + "\n" : verdictText(report));
    std::cout << "Wrote " << path << "\n";
  }
}

}  // namespace

void registerAnalyzeCommand(CLI::App& app) {
  auto options = std::make_shared<AnalyzeOptions>();
  auto* command = app.add_subcommand(
      "analyze",
      "Say what limits a run (the bottleneck verdict: gpu_compute, memory, transfer, communication, cuda_api, "
      "synchronization or cpu, per rank too, "
      "with the numbers behind it) and run the analysis rules on it: nsys analyze's expert-system rules "
      "(synchronous and pageable memcpys, synchronizing APIs, GPU gaps, low GPU utilization) and the "
      "bottleneck findings (GPU waiting on the host, FP32 GEMMs without tensor cores, launch-bound short "
      "kernels, copies that block the host, low-efficiency memory access).");
  command
      ->add_option("FILE", options->files,
                   "Trace file (gpuscope recording, nsys SQLite export or PyTorch trace); several files are the ranks "
                   "of one run, merged on one clock (as gpuscope merge does) and analyzed together")
      ->required();
  command
      ->add_option("-r,--rule", options->rules,
                   "Rules to run, comma-separated or repeated, each with options as rule:name=value:... "
                   "(default: every rule)")
      ->delimiter(',')
      ->type_name("RULES")
      ->allow_extra_args(false);  // "-r NAME FILE": FILE is not a second report
  command->add_option("-f,--format", options->format, "Output format: table (for terminals), csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}))
      ->capture_default_str();
  command->add_option("-o,--output", options->outputPrefix, "Write each rule to PREFIX_<rule>.<csv|json|txt>")
      ->type_name("PREFIX");
  command
      ->add_option("--by", options->by,
                   "nvtx: a bottleneck verdict for each NVTX range name too (every instance of it together)")
      ->check(CLI::IsMember({"nvtx"}));
  auto* range = command->add_option("--range", options->range,
                                    "Judge FROM:TO instead of the steady state, times from the trace start with "
                                    "units, like 2s:5s");
  range->type_name("FROM:TO");
  command
      ->add_option("--nvtx", options->nvtx,
                   "Judge this NVTX range instead of the steady state: name[@domain][/index], as the rules' nvtx=")
      ->type_name("RANGE")
      ->excludes(range);
  addTableWidthOption(command, options->width);
  command->footer(analyzeHelpFooter());
  command->callback([options] { runAnalyze(*options); });
}

}  // namespace gpuscope::cli
