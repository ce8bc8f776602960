#include "app/cli/output_file.h"

#include <fstream>

#include "core/error.h"

namespace gpuscope::cli {

void writeOutputFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw TraceError("Cannot write " + path + ": check that its folder exists and is writable.");
  out << text;
  out.close();
  if (!out) throw TraceError("Writing " + path + " failed: the disk may be full.");
}

}  // namespace gpuscope::cli
