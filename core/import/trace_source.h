#pragma once
// The open path's dispatch by content: a file given to any command or the viewer is an SQLite trace
// (ours or an nsys export) or a PyTorch profiler trace (JSON, plain or gzip), told apart by its first
// bytes, never by its name. A PyTorch trace is imported once per process into a temporary trace file
// in the nsys schema, which the ordinary reader then opens.
#include <string>

namespace gpuscope {

enum class TraceFormat { Sqlite, Kineto, Unknown };

// Reads the magic bytes of PATH: "SQLite format 3", gzip's 1f 8b, or JSON's '{'. Unknown for an
// unreadable, empty or other file (the SQLite opener then says why in one sentence).
TraceFormat detectTraceFormat(const std::string& path);

// The SQLite file to open for PATH: PATH itself, or, for a PyTorch profiler trace, the trace file it
// was imported into (made on first use, reused for the same path, removed when the process exits).
// Throws TraceError with one sentence when the import fails.
std::string sqliteFileFor(const std::string& path);

}  // namespace gpuscope
