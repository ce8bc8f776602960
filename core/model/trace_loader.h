#pragma once
// Loading a trace file into the in-memory Trace, in the background-friendly way the viewer needs.
#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "core/model/trace.h"

namespace gpuscope {

struct LoadOptions {
  // Fraction done in [0, 1]; may be called from worker threads, so keep it cheap and thread-safe.
  std::function<void(double)> progress;
  // When set and it becomes true, loading stops and throws LoadCancelled.
  const std::atomic<bool>* cancel = nullptr;
  // false: the file's integrity check (checkIntegrity, a read of the whole file) is left to the caller,
  // who must then run integrityProblem and report what it finds, as the viewer does after its first paint.
  bool checkIntegrity = true;
  // The path the user named, kept as Trace::path() where the file loaded is another: the SQLite trace that
  // core/open imported a PyTorch trace into. Empty: the loaded file's own path.
  std::string namedPath;
};

// Loads every event of an SQLite trace file (ours or an nsys export; other formats come through core/open's
// openTrace). Throws TraceError with one sentence for anything that is not a readable trace; never crashes
// on hostile input.
std::unique_ptr<Trace> loadTrace(const std::string& path, const LoadOptions& options = {});

}  // namespace gpuscope
