// gpuscope: the command-line interface (info, stats, ...). Errors: one sentence on stderr, exit 1.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <string>

#include "app/cli/cli_commands.h"
#include "core/error.h"

namespace {

// "gpuscope inf": CLI11 only says a subcommand is required; name the word it did not know instead.
bool reportUnknownCommand(CLI::App& app, int argc, char** argv) {
  if (!app.get_subcommands().empty()) return false;
  for (int i = 1; i < argc; ++i) {
    std::string word = argv[i];
    if (word.empty() || word[0] == '-') continue;
    std::string names;
    for (const CLI::App* command : app.get_subcommands([](CLI::App*) { return true; }))
      names += (names.empty() ? "" : ", ") + command->get_name();
    std::cerr << "gpuscope: there is no command named \"" << gpuscope::printableMessage(word) << "\"; the commands are "
              << names << " (see gpuscope --help).\n";
    return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"gpuscope: a GPU profiler for CUDA programs. Reads gpuscope traces and Nsight Systems SQLite exports."};
  app.set_version_flag("--version", std::string("gpuscope ") + GPUSCOPE_VERSION);
  app.require_subcommand(1);
  gpuscope::cli::registerAllCommands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (reportUnknownCommand(app, argc, argv)) return 2;
    std::cerr << "gpuscope: " << e.what() << " (see gpuscope --help)\n";
    return 2;
  } catch (const gpuscope::TraceError& e) {
    std::cerr << "gpuscope: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "gpuscope: unexpected error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
