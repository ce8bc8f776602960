#include "app/cli/record_command.h"

#include <cstdlib>
#include <iostream>
#include <memory>

#include "collector/launch/record_session.h"
#include "core/error.h"

namespace gpuscope::cli {

void registerRecordCommand(CLI::App& app) {
  auto options = std::make_shared<RecordOptions>();
  auto* command = app.add_subcommand(
      "record",
      "Run a program and record its CUDA API calls and GPU work (CUPTI), NVTX ranges and OS runtime calls, in every "
      "process it starts, into one trace file. Exits with the program's exit status.");
  command->add_option("-o,--output", options->output,
                      "Trace file to write (default: reportN.sqlite; .sqlite is added when the name has no extension)");
  command->add_option("-t,--trace", options->traces, "What to trace: a comma-separated list of cuda, nvtx, osrt, none")
      ->delimiter(',')
      ->capture_default_str();
  command
      ->add_option("--osrt-threshold", options->osrtThresholdNs,
                   "Record OS runtime calls lasting at least this many nanoseconds")
      ->capture_default_str();
  command->add_option("--delay", options->delaySeconds, "Seconds to wait after the start before recording events");
  command->add_option("--duration", options->durationSeconds,
                      "Seconds to record; the program is then ended with SIGTERM (0: until it exits)");
  command->add_option("--metrics", options->metrics,
                      "Also collect per-launch counters: roofline (FLOPs per precision, DRAM/L2/L1 bytes, duration, "
                      "with CUPTI's range profiler and kernel replay, as Nsight Compute counts them)");
  command->add_option("--kernel-regex", options->kernelRegex,
                      "With --metrics: profile only launches whose demangled kernel name matches this regex");
  command->add_option("--kernel-count", options->kernelCount,
                      "With --metrics: profile at most this many launches in all (default: every launch)");
  command->add_flag("-f,--force-overwrite", options->forceOverwrite, "Replace the output file if it exists");
  command->add_flag("--stats", options->stats, "Print the stats reports of the trace at the end");
  auto* whenFull = command->add_option_function<std::string>(
      "--when-full",
      [options](const std::string& value) {
        if (value != "wait" && value != "drop") throw TraceError("--when-full takes wait or drop, not '" + value + "'");
        options->dropWhenFull = value == "drop";
      },
      "When a thread's ring is full: wait for the recorder to drain it (default; nothing is lost, the "
      "program slows down) or drop the record (counted in the summary and GPUSCOPE_META)");
  whenFull->default_str("wait");
  command->footer(
      "Put the program after --, for example:\n"
      "  gpuscope record -o run.sqlite -- python train.py --epochs 1\n"
      "The collector libraries are found in $GPUSCOPE_LIB_DIR, next to gpuscope, or in ../lib/gpuscope.");
  // After --, CLI11 hands every word to COMMAND in order. Without --, words that look like options
  // end up among the extras, out of order: ask for the -- then.
  command->add_option("COMMAND", options->command, "The program to record and its arguments (after --)");
  command->allow_extras();
  command->callback([options, command] {
    std::vector<std::string> extras = command->remaining();
    if (!extras.empty() && extras.front() == "--") extras.erase(extras.begin());
    if (!extras.empty()) {
      throw TraceError("put the program and its arguments after --, as in: gpuscope record -o run.sqlite -- " +
                       (options->command.empty() ? std::string("./app") : options->command.front()) + " ...");
    }
    int status = recordProgram(*options);
    std::cout << std::flush;
    std::cerr << std::flush;
    std::exit(status);
  });
}

}  // namespace gpuscope::cli
