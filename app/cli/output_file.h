#pragma once
// Writing a command's output file (`-o PREFIX`): one sentence when the folder is missing or the
// disk is full, shared by every command that writes reports.
#include <string>

namespace gpuscope::cli {

// Writes TEXT to PATH, replacing it; throws TraceError with one sentence on failure.
void writeOutputFile(const std::string& path, const std::string& text);

}  // namespace gpuscope::cli
