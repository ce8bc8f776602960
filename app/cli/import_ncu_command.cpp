#include "app/cli/import_ncu_command.h"

#include <iostream>
#include <memory>

#include "core/ncu/ncu_import.h"

namespace gpuscope::cli {
namespace {

std::string importNcuHelpFooter() {
  return "The report comes from Nsight Compute run on the same program, for example:\n"
         "  ncu --csv --metrics gpu__time_duration.sum,dram__bytes.sum,lts__t_bytes.sum,l1tex__t_bytes.sum,\\\n"
         "smsp__sass_thread_inst_executed_op_{fadd,fmul,ffma,dadd,dmul,dfma,hadd,hmul,hfma}_pred_on.sum \\\n"
         "      ./app > app_ncu.csv\n"
         "Both the default layout (a row per kernel and metric) and --page raw (a row per kernel) are read;\n"
         "the program's own output and ==PROF== lines before the table are skipped.\n"
         "\n"
         "Kernels are matched by name and launch order: the N-th launch of kernel K in the report gets the\n"
         "counters, attached to the N-th launch of K in the trace (launches counted per process when the\n"
         "report's process ids are the trace's, else across the trace). FLOPs per precision are counted as\n"
         "Nsight Compute's roofline counts them: add + mul + 2 x fma; tensor-core FLOPs from sm__ops_path_tensor_*.\n"
         "\n"
         "The trace is opened read-only and never changed unless you say so: -o OUT writes a copy of it with\n"
         "the metrics (replacing OUT), --in-place adds them to TRACE itself. Importing again replaces the\n"
         "metrics of the same launches.\n"
         "\n"
         "Examples:\n"
         "  gpuscope import-ncu run.sqlite app_ncu.csv -o run_metrics.sqlite\n"
         "  gpuscope import-ncu run.sqlite app_ncu.csv --in-place\n"
         "  gpuscope roofline run_metrics.sqlite --by name\n";
}

void runImport(const NcuImportOptions& options) {
  auto match = importNcuMetrics(options);
  const auto& target = options.inPlace ? options.tracePath : options.outputPath;
  for (const auto& note : ncuImportNotes(match)) std::cerr << "gpuscope: note: " << note << "\n";
  std::cout << ncuImportSummary(match, target) << "\n";
}

}  // namespace

void registerImportNcuCommand(CLI::App& app) {
  auto options = std::make_shared<NcuImportOptions>();
  auto* command =
      app.add_subcommand("import-ncu",
                         "Attach the per-kernel counters of an `ncu --csv` report (FLOPs, DRAM/L2/L1 bytes, duration) "
                         "to a trace's kernels, for the roofline.");
  command->add_option("TRACE", options->tracePath, "Trace file (gpuscope recording or nsys SQLite export)")->required();
  command->add_option("NCU_CSV", options->ncuCsvPath, "Output of `ncu --csv` (default or --page raw layout)")
      ->required();
  auto* output = command
                     ->add_option("-o,--output", options->outputPath,
                                  "Write a copy of TRACE with the metrics to OUT (replaced if it exists)")
                     ->type_name("OUT");
  auto* inPlace = command->add_flag("--in-place", options->inPlace, "Add the metrics to TRACE itself");
  output->excludes(inPlace);
  command->footer(importNcuHelpFooter());
  command->callback([options] { runImport(*options); });
}

}  // namespace gpuscope::cli
