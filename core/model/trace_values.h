#pragma once
// The one policy for values no real trace holds: a NULL or non-integer time or id, an end before its
// start, a string id StringIds lacks, a rowid beyond 2^32. Such a file is refused with one sentence
// naming the table, the row and the column, in every command: the loader (info, diff, the viewer)
// checks while it scans; the SQL reports (stats, roofline) run checkTraceValues first. Both build
// their sentences here, so a file gets the same sentence from each.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/db/sqlite_database.h"

namespace gpuscope::value_problem {

std::string missing(std::string_view what);                            // "has no start time"
std::string notInteger(std::string_view what, std::string_view type);  // "has a start time that is ..."
std::string endsBeforeStart(int64_t start, int64_t end);
std::string danglingString(int64_t fileId, std::string_view what);
std::string rowidOutOfRange(int64_t rowid);
// "TABLE row ROW PROBLEM."
std::string sentence(std::string_view table, int64_t row, const std::string& problem);

}  // namespace gpuscope::value_problem

namespace gpuscope {

// Scans every event table the reports read for the first value the policy above refuses, and throws
// TraceError with the loader's sentence for it. One SQL pass per table.
void checkTraceValues(const Database& db);

}  // namespace gpuscope
