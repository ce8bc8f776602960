#pragma once
// The one door: every command, the viewer's loader, its stats tab, the integrity check and the analysis
// open a trace file through openTrace. It tells the file's format from its content, never its name, by the
// registry of trace_formats.h, and hands back the SQLite trace in the nsys schema that every reader reads:
// the file itself, or the one it was imported into. The layers below (core/model, core/db) read SQLite
// trace files only; a path a user gave reaches them through here.
#include <atomic>
#include <memory>
#include <string>

#include "core/db/sqlite_database.h"
#include "core/model/trace.h"
#include "core/model/trace_loader.h"
#include "core/open/trace_formats.h"

namespace gpuscope {

// OpenedTrace: a file let in by the door, the format that claimed it and the SQLite trace that holds it.
struct OpenedTrace {
  std::string path;                     // as the user named it: titles, summaries and exports show it
  std::string databasePath;             // the SQLite trace to read: PATH itself, or the file it was imported into
  const TraceFormat* format = nullptr;  // the registry entry that claimed PATH

  // A read-only connection, the schema checked (openTraceFile).
  Database connect() const;
  // connect, then the whole-file integrity check and the values check (openCheckedTraceFile): for commands
  // that run SQL reports instead of loading, so that they refuse what the loader refuses.
  Database connectChecked() const;
  // Every event, in memory (loadTrace); the Trace's path() is PATH.
  std::unique_ptr<Trace> load(LoadOptions options = {}) const;
};

// Opens the trace at PATH: sniffs its head, and imports it once per process when its format needs that.
// Throws TraceError with one sentence for a file that is missing, empty, of no registered format, or whose
// import fails.
OpenedTrace openTrace(const std::string& path);

// integrityProblem (core/model/trace_file.h) of the SQLite trace PATH opens as: the sentence naming the
// damage, or why PATH does not open; empty when it is sound or CANCEL became true first.
std::string traceIntegrityProblem(const std::string& path, const std::atomic<bool>* cancel = nullptr);

}  // namespace gpuscope
