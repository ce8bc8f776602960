#pragma once
// How wide the CLI's aligned tables may be, one rule for every command that prints them: `--width N`,
// else $COLUMNS, else the terminal's width when stdout is one, else 160. Long names lose their middle to
// fit (formatTextTable); CSV and JSON always keep them whole.
#include <CLI/CLI.hpp>
#include <cstddef>

namespace gpuscope::cli {

inline constexpr size_t kDefaultTableWidth = 160;  // stdout is a file or a pipe and $COLUMNS is not set
inline constexpr int kWidthNotGiven = -1;

// Adds `--width N` to COMMAND, stored in WIDTH (kWidthNotGiven until given; 0 means no limit).
void addTableWidthOption(CLI::App* command, int& width);

// The columns a table on stdout may take: FLAG when given (0: no limit), else as the header says.
size_t stdoutTableWidth(int flag);
// The columns a table written to a file may take: FLAG when given, else no limit.
size_t fileTableWidth(int flag);

}  // namespace gpuscope::cli
