// gpuscope: the command-line interface (info, stats, ...). Errors: one sentence on stderr, exit 1.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "app/cli/cli_commands.h"
#include "core/error.h"

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
