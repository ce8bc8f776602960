#pragma once
// Opening a trace file: read-only and defensive, then checked to be a trace we can read.
#include <string>

#include "core/db/sqlite_database.h"

namespace gpuscope {

// Opens PATH and checks its schema: StringIds and at least one event table, each event table
// present with every column the reader needs. Throws TraceError with one sentence otherwise.
Database openTraceFile(const std::string& path);

// Throws TraceError("this file has no TABLE table: HINT") when a report needs a table the file lacks.
void requireTable(const Database& db, std::string_view table);

}  // namespace gpuscope
