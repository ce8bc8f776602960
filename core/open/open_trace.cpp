#include "core/open/open_trace.h"

#include "core/error.h"
#include "core/model/trace_file.h"
#include "core/open/imported_files.h"
#include "core/open/json_head.h"

namespace gpuscope {
namespace {

// "an SQLite trace (...) or a PyTorch profiler trace (...)": every registered format, for a refusal.
std::string registeredFormats() {
  const auto& formats = traceFormats();
  std::string text;
  for (size_t i = 0; i < formats.size(); ++i) {
    if (i > 0) text += i + 1 == formats.size() ? " or " : ", ";
    text += formats[i].whatItIs;
  }
  return text;
}

// What a file no format claims looks like, as far as the sentence refusing it can say.
std::string whatItLooksLike(const FileHead& head) {
  if (startsLikeJson(head.text)) return head.gzip ? "it is gzip-compressed JSON, but not " : "it is JSON, but not ";
  return head.gzip ? "it is gzip-compressed, but not " : "it is not ";
}

}  // namespace

Database OpenedTrace::connect() const { return openTraceFile(databasePath); }

Database OpenedTrace::connectChecked() const { return openCheckedTraceFile(databasePath); }

std::unique_ptr<Trace> OpenedTrace::load(LoadOptions options) const {
  options.namedPath = path;
  return loadTrace(databasePath, options);
}

OpenedTrace openTrace(const std::string& path) {
  FileHead head = readFileHead(path);
  if (head.stored.empty()) throw TraceError(path + " is empty, not a trace file.");
  const TraceFormat* format = sniffTraceFormat(head);
  if (!format)
    throw TraceError(path + " is not a trace gpuscope can open: " + whatItLooksLike(head) + registeredFormats() + ".");
  std::string database = format->import ? ImportedFiles::ofThisProcess().sqliteFileFor(path, *format) : path;
  return {path, std::move(database), format};
}

std::string traceIntegrityProblem(const std::string& path, const std::atomic<bool>* cancel) {
  std::string database;
  try {
    database = openTrace(path).databasePath;
  } catch (const TraceError& error) {
    return error.what();
  }
  return integrityProblem(database, cancel);
}

}  // namespace gpuscope
