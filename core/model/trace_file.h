#pragma once
// Opening an SQLite trace file: read-only and defensive, then checked to be a trace we can read. Every PATH
// here is an SQLite trace; a file a user names, of any format, reaches these through core/open's openTrace,
// which imports other formats into an SQLite trace first.
#include <atomic>
#include <string>

#include "core/db/sqlite_database.h"

namespace gpuscope {

// Opens PATH and checks its schema: StringIds and at least one event table, each event table
// present with every column the reader needs. Throws TraceError with one sentence otherwise.
Database openTraceFile(const std::string& path);

// SQLite's quick_check on the whole file: every page of every table and index is read and its b-tree
// structure, cell sizes and record formats checked (not that indexes match their tables, nor any
// value's meaning: trace_values.h checks those). Throws TraceError naming the first problem.
// It reads the whole file (about 5 ms per MB); the loader runs it beside its table scans.
void checkIntegrity(const Database& db);

// checkIntegrity on a connection of its own, for a check made after the load (the viewer loads without it
// and runs this at idle priority once its window is filled). Returns the one sentence naming the problem,
// or an empty string when the file is sound or CANCEL became true before the check ended.
std::string integrityProblem(const std::string& path, const std::atomic<bool>* cancel = nullptr);

// openTraceFile, checkIntegrity and checkTraceValues: for commands that run SQL reports on the file
// (stats, roofline) instead of loading it, so they refuse what the loader refuses.
Database openCheckedTraceFile(const std::string& path);

// Throws TraceError("this file has no TABLE table: HINT") when a report needs a table the file lacks.
void requireTable(const Database& db, std::string_view table);

}  // namespace gpuscope
