#pragma once
// The registry of the formats the door (open_trace.h) opens. Each is a name, a sniff of a file's head and,
// for a format that is not an SQLite trace already, the import that writes it out as one in the nsys schema,
// so that every reader reads one kind of file. A new format is one entry in traceFormats(). Sniffs are tried
// in the registry's order and the first that claims a file decides, so a narrower sniff goes first.
//
// Ready for what comes next:
// - nsys exports with CPU samples and thread states are SQLite traces: the SQLite entry claims them as it
//   is, and their extra tables are read by the model's readers, not here.
// - Several rank files at once: openTrace is called once per file, each sniffed on its own (so the ranks of
//   one run may even come in different formats), and a run of several ranks is a vector of OpenedTrace;
//   an importer that learns a rank (Kineto's distributedInfo) writes it into the trace file it makes.
// - A second JSON flavour: one more entry whose sniff looks for its own top-level key with
//   topLevelJsonKeys (json_head.h), placed before the Chrome trace entry if its files may also carry a
//   traceEvents key, with an import of its own that writes the nsys schema.
#include <string>
#include <string_view>
#include <vector>

#include "core/open/file_head.h"

namespace gpuscope {

// TraceFormat: one kind of trace file, told apart by its content and read through an SQLite trace.
struct TraceFormat {
  std::string_view name;      // for messages and tests, e.g. "PyTorch profiler trace"
  std::string_view whatItIs;  // for the sentence that refuses a file, e.g. "a PyTorch profiler trace (...)"
  bool (*sniff)(const FileHead& head) = nullptr;  // whether a file with this head is of this format
  // Writes the file at SOURCE as an SQLite trace at TARGET, replacing it; throws TraceError with one
  // sentence. Null for a format that is an SQLite trace already and is read in place.
  void (*import)(const std::string& source, const std::string& target) = nullptr;
  // The names such files usually have, as space-separated glob patterns ("*.sqlite *.db"), for open dialogs:
  // the file chooser's one list of openable names. The content decides, so a file named otherwise opens too.
  std::string_view fileNames;
};

// Every format the door opens, in sniffing order.
const std::vector<TraceFormat>& traceFormats();

// The first registered format whose sniff claims HEAD, or null.
const TraceFormat* sniffTraceFormat(const FileHead& head);

// The sniffs of the registered formats, by name, for their tests and for entries that build on them.
bool looksLikeSqliteTrace(const FileHead& head);  // SQLite's header string "SQLite format 3" and its NUL
bool looksLikeChromeTrace(const FileHead& head);  // a JSON object (plain or gzip) with a top-level traceEvents

}  // namespace gpuscope
