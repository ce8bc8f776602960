#pragma once
// What a merge does with each table and column, read off the schema's declarations (core/schema): the tables
// it copies, the ones it writes anew, and per column its role (a time to shift, an id to keep apart per input,
// a string id to re-intern, or a value copied as it is).
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/schema/table_spec.h"

namespace gpuscope {

class Database;

// The declared tables whose rows a merge copies, in schema order: every group but TableGroup::Rebuilt.
std::vector<std::string_view> mergedTables();

// Tables the merge writes itself (TableGroup::Rebuilt, and nsys's ENUM_ tables we do not declare, which hold
// the same constants in every file), so an input's rows there are not reported as left behind.
bool rebuiltByMerge(std::string_view table);

// The declared role of TABLE.COLUMN; Plain for a column the schema does not declare.
ColumnRole columnRole(std::string_view table, std::string_view column);
// The id space of TABLE.COLUMN when it is a LocalId column, else empty.
std::string_view idSpaceOf(std::string_view table, std::string_view column);

// Per id space of the LocalId columns, the largest id the merged file OUT holds so far (0 when none): what
// the next input's ids are moved by, so that they follow every id before them.
std::map<std::string, int64_t> localIdOffsets(const Database& out);

}  // namespace gpuscope
