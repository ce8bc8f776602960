#include "app/cli/table_width.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <cstring>

namespace gpuscope::cli {
namespace {

// $COLUMNS as a positive number, or 0 when unset or anything else.
size_t columnsFromEnvironment() {
  const char* text = std::getenv("COLUMNS");
  if (!text) return 0;
  size_t value = 0;
  const char* end = text + std::strlen(text);
  auto [at, error] = std::from_chars(text, end, value);
  return error == std::errc() && at == end ? value : 0;
}

size_t terminalColumns() {
  if (!isatty(STDOUT_FILENO)) return 0;
  winsize size{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0) return 0;
  return size.ws_col;
}

}  // namespace

void addTableWidthOption(CLI::App* command, int& width) {
  command
      ->add_option("--width", width,
                   "Fit tables to N columns, long names cut in the middle (default: $COLUMNS, else the "
                   "terminal's width, else 160; 0: no limit). CSV and JSON keep names whole")
      ->type_name("N")
      ->check(CLI::NonNegativeNumber);
}

size_t stdoutTableWidth(int flag) {
  if (flag != kWidthNotGiven) return static_cast<size_t>(flag);
  if (size_t columns = columnsFromEnvironment(); columns > 0) return columns;
  if (size_t columns = terminalColumns(); columns > 0) return columns;
  return kDefaultTableWidth;
}

size_t fileTableWidth(int flag) { return flag == kWidthNotGiven ? 0 : static_cast<size_t>(flag); }

}  // namespace gpuscope::cli
