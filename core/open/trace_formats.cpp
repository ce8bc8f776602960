#include "core/open/trace_formats.h"

#include <algorithm>
#include <cstring>

#include "core/import/kineto/kineto_import.h"
#include "core/open/json_head.h"

namespace gpuscope {
namespace {

void importChromeTrace(const std::string& source, const std::string& target) { importKinetoTrace(source, target); }

}  // namespace

bool looksLikeSqliteTrace(const FileHead& head) {
  static constexpr char kMagic[] = "SQLite format 3";  // and its NUL: the 16 bytes every SQLite file starts with
  return head.stored.size() >= sizeof kMagic && std::memcmp(head.stored.data(), kMagic, sizeof kMagic) == 0;
}

bool looksLikeChromeTrace(const FileHead& head) {
  auto keys = topLevelJsonKeys(head.text);
  return std::find(keys.begin(), keys.end(), "traceEvents") != keys.end();
}

const std::vector<TraceFormat>& traceFormats() {
  static const std::vector<TraceFormat> formats = {
      {"SQLite trace", "an SQLite trace (a gpuscope recording or an nsys export)", looksLikeSqliteTrace, nullptr,
       "*.sqlite *.sqlite3 *.db *.nsys-sqlite"},
      {"PyTorch profiler trace",
       "a PyTorch profiler trace (Chrome trace JSON with a top-level traceEvents key, plain or gzip)",
       looksLikeChromeTrace, importChromeTrace, "*.json *.json.gz"},
  };
  return formats;
}

const TraceFormat* sniffTraceFormat(const FileHead& head) {
  for (const TraceFormat& format : traceFormats())
    if (format.sniff(head)) return &format;
  return nullptr;
}

}  // namespace gpuscope
