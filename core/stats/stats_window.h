#pragma once
// Stats reports over a time range: the viewer's ruler range, as nsys's "filter and zoom in" restricts its
// reports. Each event table is shadowed by a TEMP view of the same name that holds only the events sharing
// time with the range (SQLite resolves an unqualified name in the temp schema first), so every report runs
// unchanged on them and the file itself is never written.
#include <string>
#include <string_view>

#include "core/db/sqlite_database.h"
#include "core/model/time_interval.h"
#include "core/report/report_table.h"

namespace gpuscope {

// Shadows DB's event tables (CUDA API, kernels, copies, sets, synchronization, NVTX, OS runtime) with views
// of the events that share time with RANGE, as keptByRange decides; an NVTX mark (no end) counts
// where it lies. An empty RANGE leaves DB as it is.
void restrictEventTables(Database& db, TimeInterval range);

// runStatsReport on the SQLite trace at PATH through a connection of its own, its event tables restricted to
// RANGE. PATH is a file the door (core/open) handed over, such as the one a loaded Trace reads (its
// database().path()): for a PyTorch trace, its import, not the JSON file.
ReportTable runStatsReportInRange(const std::string& path, std::string_view name, TimeInterval range);

}  // namespace gpuscope
