#include "app/cli/analyze_command.h"

#include <iostream>
#include <memory>

#include "app/cli/output_file.h"
#include "core/analysis/finding_format.h"
#include "core/analysis/rule_registry.h"
#include "core/error.h"
#include "core/model/trace_file.h"
#include "core/report/report_format.h"

namespace gpuscope::cli {
namespace {

struct AnalyzeOptions {
  std::string file;
  std::vector<std::string> rules;
  std::string format = "table";
  std::string outputPrefix;
};

std::string helpFooter() {
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
         "\nExamples:\n"
         "  gpuscope analyze run.sqlite\n"
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

void printFindings(const std::vector<Finding>& findings, const std::string& format) {
  if (format == "json") {
    nlohmann::ordered_json document;
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const Finding& finding : findings) list.push_back(findingJson(finding));
    document["findings"] = list;
    std::cout << jsonText(document) << "\n";
    return;
  }
  for (size_t i = 0; i < findings.size(); ++i) {
    if (format == "csv") {
      if (findings.size() > 1) std::cout << (i ? "\n" : "") << "# " << findings[i].ruleId << "\n";
      std::cout << findingCsv(findings[i]);
    } else {
      std::cout << (i ? "\n" : "") << findingText(findings[i]);
    }
  }
}

void runAnalyze(const AnalyzeOptions& options) {
  auto list = requests(options);
  auto db = openTraceFile(options.file);
  std::vector<Finding> findings = runAnalysis(db, list);
  if (options.outputPrefix.empty()) {
    printFindings(findings, options.format);
    return;
  }
  for (const Finding& finding : findings) {
    std::string extension = options.format == "table" ? "txt" : options.format;
    std::string path = options.outputPrefix + "_" + finding.ruleId + "." + extension;
    if (options.format == "csv") {
      writeOutputFile(path, findingCsv(finding));
    } else if (options.format == "json") {
      writeOutputFile(path, jsonText(findingJson(finding)) + "\n");
    } else {
      writeOutputFile(path, findingText(finding));
    }
    std::cout << "Wrote " << path << "\n";
  }
}

}  // namespace

void registerAnalyzeCommand(CLI::App& app) {
  auto options = std::make_shared<AnalyzeOptions>();
  auto* command = app.add_subcommand(
      "analyze",
      "Run the analysis rules on a trace (nsys analyze's expert-system rules: synchronous and pageable "
      "memcpys, synchronizing APIs, GPU gaps, low GPU utilization) and print what they found.");
  command->add_option("FILE", options->file, "Trace file (gpuscope recording or nsys SQLite export)")->required();
  command
      ->add_option("-r,--rule", options->rules,
                   "Rules to run, comma-separated or repeated, each with options as rule:name=value:... "
                   "(default: every rule)")
      ->delimiter(',')
      ->type_name("RULES");
  command->add_option("-f,--format", options->format, "Output format: table (for terminals), csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}))
      ->capture_default_str();
  command->add_option("-o,--output", options->outputPrefix, "Write each rule to PREFIX_<rule>.<csv|json|txt>")
      ->type_name("PREFIX");
  command->footer(helpFooter());
  command->callback([options] { runAnalyze(*options); });
}

}  // namespace gpuscope::cli
