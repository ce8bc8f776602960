#include "app/cli/cli_commands.h"

#include "app/cli/info_command.h"

namespace gpuscope::cli {

void registerAllCommands(CLI::App& app) {
  registerInfoCommand(app);
}

}  // namespace gpuscope::cli
