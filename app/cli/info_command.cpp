#include "app/cli/info_command.h"

#include <iostream>
#include <memory>

#include "core/model/trace_summary.h"
#include "core/open/open_trace.h"

namespace gpuscope::cli {
namespace {

struct InfoOptions {
  std::string file;
  std::string format = "text";
};

}  // namespace

void registerInfoCommand(CLI::App& app) {
  auto options = std::make_shared<InfoOptions>();
  auto* command = app.add_subcommand(
      "info", "Show what is in a trace: time span, processes and threads, devices, streams, event counts.");
  command->add_option("FILE", options->file, "Trace file (gpuscope recording, nsys SQLite export or PyTorch trace)")
      ->required();
  command->add_option("--format", options->format, "Output format: text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  command->callback([options] {
    OpenedTrace opened = openTrace(options->file);
    auto trace = opened.load();
    std::vector<TableRowCount> tables = tableRowCounts(opened.connect());
    std::cout << (options->format == "json" ? formatSummaryJson(*trace, tables) : formatSummaryText(*trace, tables));
  });
}

}  // namespace gpuscope::cli
