#pragma once
// Copying one table of an input (attached to the merged file) into the merged file in one
// INSERT ... SELECT, each column moved by its role (merge_columns.h): times shifted, global ids and
// correlation ids and row ids offset, string ids mapped.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/ranks/merge_ids.h"

namespace gpuscope {

class Database;

struct TableCopyRules {
  int64_t timeShiftNs = 0;
  InputIdOffsets ids;
  // Per id space of the LocalId columns (merge_columns.h): added to the input's ids above 0 (0 and NULL
  // mean "none" in nsys's callchainId columns).
  std::map<std::string, int64_t> localIdAdd;
};

struct TableCopyResult {
  int64_t copied = 0;
  int64_t dropped = 0;                     // rows naming a string id the input's StringIds lacks
  std::vector<std::string> columnsLeft;    // input columns the merged table has no place for
  std::vector<std::string> columnsZeroed;  // NOT NULL columns the input lacks, written as 0
};

// Copies TABLE from the input attached to OUT as SCHEMA; INPUT is the same file on its own read-only
// connection, for its columns and checks. Throws TraceError with one sentence for a time that is not an
// integer, or one that the shift would carry past what 64 bits hold.
TableCopyResult copyTable(Database& out, const Database& input, std::string_view schema, std::string_view table,
                          const TableCopyRules& rules);

}  // namespace gpuscope
