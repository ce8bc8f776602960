#pragma once
// Attaching an `ncu --csv` report's counters to the kernels of a trace (GPUSCOPE_KERNEL_METRICS).
#include <cstdint>
#include <string>
#include <vector>

#include "core/roofline/kernel_metrics.h"

namespace gpuscope {

class Database;
struct NcuReport;

// A kernel launch of the trace, as the matcher sees it.
struct TraceKernelLaunch {
  int64_t globalPid = 0;
  uint32_t correlationId = 0;
  int64_t streamId = 0;
  int64_t launchTime = 0;  // the launching API call's start, or the kernel's start where there is none
  std::string demangledName;
  std::string shortName;
  std::string mangledName;
  std::string canonicalName;  // kernelIdentity(demangledName)
};

// The kernels of the file's CUPTI_ACTIVITY_KIND_KERNEL table (required) in launch order.
std::vector<TraceKernelLaunch> readTraceKernelLaunches(const Database& db);

struct NcuMatch {
  std::vector<KernelMetrics> rows;        // one per matched ncu kernel, keyed to the trace's launch
  size_t ncuKernels = 0;                  // kernels in the report
  std::vector<std::string> unknownNames;  // ncu kernel names the trace has no kernel of (each once)
  size_t beyondTrace = 0;                 // launches numbered past the trace's instances of their kernel
  size_t streamMismatches = 0;            // matched launches whose ncu stream id differs from the trace's
  bool matchedByProcess = false;          // ncu's process ids were found in the trace and used
};

// Matches ncu's kernels to the trace's: by name (demangled, else short, else mangled name) and launch order,
// the N-th launch of kernel K in the report to the N-th launch of K in the trace. ncu serializes and numbers
// launches in the order the program makes them, so the trace side is ordered by the launching API call's
// start (GPU start order can differ across streams). When every process id of the report is a process of
// the trace, launches are counted per process; otherwise across the whole trace.
NcuMatch matchNcuKernels(const NcuReport& report, const std::vector<TraceKernelLaunch>& trace,
                         const std::string& source);

// What importNcuMetrics would match, writing nothing: reads both files and matches, so that the viewer can
// say "N of M" and ask before it writes. Throws TraceError as importNcuMetrics does (a bad file, a report
// without usable counters, a report none of whose kernels are in the trace).
NcuMatch previewNcuImport(const std::string& tracePath, const std::string& ncuCsvPath);

struct NcuImportOptions {
  std::string tracePath;
  std::string ncuCsvPath;
  std::string outputPath;  // a copy of the trace to write into; empty with inPlace
  bool inPlace = false;    // write into tracePath itself
};

// The whole `import-ncu`: reads both files, matches, copies the trace to outputPath (a consistent SQLite
// copy, replacing any file there) unless inPlace, and writes the metrics. Throws TraceError with one sentence
// for a bad file, an output path equal to the input, or a report none of whose kernels are in the trace.
NcuMatch importNcuMetrics(const NcuImportOptions& options);

// What an import did, in sentences for the user (the CLI prints them, the viewer shows them): a note per
// skipped kernel name, launches past the trace's and stream mismatches, then "Attached the metrics of N of M
// profiled kernel launches to TARGET (table GPUSCOPE_KERNEL_METRICS)."
std::vector<std::string> ncuImportNotes(const NcuMatch& match);
std::string ncuImportSummary(const NcuMatch& match, const std::string& target);
// "N of M profiled kernel launches": the count both sentences above, the CLI's and the viewer's, give.
std::string ncuMatchedLaunches(const NcuMatch& match);
// Whether some launches of the report found no kernel of the trace (a report of another program, or of
// another run that launched differently).
bool isPartialMatch(const NcuMatch& match);

}  // namespace gpuscope
