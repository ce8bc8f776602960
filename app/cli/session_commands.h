#pragma once
// The session verbs: `gpuscope start|stop|cancel|dump [--session NAME-OR-PATTERN]` and `gpuscope sessions`.
// They speak to the sessions of this user over their control sockets (collector/control).
#include <CLI/CLI.hpp>

namespace gpuscope::cli {

void registerSessionCommands(CLI::App& app);

}  // namespace gpuscope::cli
