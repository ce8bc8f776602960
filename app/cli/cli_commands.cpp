#include "app/cli/cli_commands.h"

#include "app/cli/analyze_command.h"
#include "app/cli/diff_command.h"
#include "app/cli/export_command.h"
#include "app/cli/import_ncu_command.h"
#include "app/cli/info_command.h"
#include "app/cli/merge_command.h"
#include "app/cli/peaks_command.h"
#include "app/cli/recipe_command.h"
#include "app/cli/record_command.h"
#include "app/cli/roofline_command.h"
#include "app/cli/samples_command.h"
#include "app/cli/session_commands.h"
#include "app/cli/stats_command.h"

namespace gpuscope::cli {

void registerAllCommands(CLI::App& app) {
  registerAnalyzeCommand(app);
  registerDiffCommand(app);
  registerExportCommand(app);
  registerImportNcuCommand(app);
  registerInfoCommand(app);
  registerMergeCommand(app);
  registerPeaksCommand(app);
  registerRecipeCommands(app);
  registerRecordCommand(app);
  registerLaunchCommand(app);
  registerSessionCommands(app);
  registerRooflineCommand(app);
  registerSamplesCommand(app);
  registerStatsCommand(app);
}

}  // namespace gpuscope::cli
