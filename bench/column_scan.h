#pragma once
// The yardstick of the load targets: a plain single-threaded sqlite3 scan of the tables and columns the
// trace loader reads (core/model/event_scan.cpp, string_table.cpp), touching every value.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gpuscope::bench {

struct ScanResult {
  double seconds = 0;
  double cpuSeconds = 0;
  int64_t eventRows = 0;  // rows of the event tables (not StringIds)
  uint64_t checksum = 0;
  std::vector<std::pair<std::string, int64_t>> rowsPerTable;
};

// Scans PATH once; exits with one sentence when the file cannot be opened.
ScanResult scanWithSqlite(const std::string& path);
// Scans twice (the first also brings the file into the page cache) and keeps the faster.
ScanResult fastestScan(const std::string& path);

// CPU seconds of the whole process (all threads): with wall time, tells waiting and sharing from work.
double processCpuSeconds();

}  // namespace gpuscope::bench
