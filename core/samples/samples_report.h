#pragma once
// The CPU samples as report tables (terminal and CSV) and JSON: the flat view, the two call trees, and
// per thread its samples and its time on and off the CPU.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>

#include "core/report/report_table.h"
#include "core/samples/call_tree.h"
#include "core/samples/cpu_samples.h"
#include "core/samples/function_shares.h"
#include "core/samples/thread_states.h"

namespace gpuscope {

// Per frame (`samples --by frame`): Self, Self %, Total, Total %, Function, Module: the first LIMIT entries
// (0: all). Shares are of all samples.
ReportTable flatSamplesTable(const CpuSamples& samples, const std::vector<FlatEntry>& entries, size_t limit);
nlohmann::ordered_json flatSamplesJson(const CpuSamples& samples, const std::vector<FlatEntry>& entries);

// Per function (function_shares.h): a row per function, the first LIMIT (0: all), each followed by its lines
// ("  line hostprep.py:7") and, where it ran other code than itself, its leaves ("  in PyObject_Malloc"), most
// first: with a LIMIT, the top kRowsBeneathAFunction of each (a hot interpreter loop has hundreds of leaves);
// without one (CSV), every one. Samples, Share %, Function, Module; shares are of the working samples (not the
// idle pool ones).
inline constexpr size_t kRowsBeneathAFunction = 5;
ReportTable functionSharesTable(const FunctionShares& shares, size_t limit);
// What the table leaves out, for under it: "Shares are of the 8,056 working samples; apart: idle thread-pool
// threads (OpenBLAS blas_thread_server): 19.0% of samples, 31 threads. Dropped 12 unwinder junk frames."
std::string functionSharesNote(const FunctionShares& shares);
// {"name", "module", "samples", "share", "leaves": [{"name", "samples", "share"}], "lines": [{"line", ...}]};
// SHARE maps each share as written (the verdict rounds them).
nlohmann::ordered_json functionShareJson(const FunctionShare& function, double (*share)(double) = nullptr);
// {"samples", "working_samples", "idle_pool_samples", "unresolved_samples", "junk_frames", "idle_pools":
// [{"pool", "samples", "share", "threads"}], "functions": [functionShareJson...]}.
nlohmann::ordered_json functionSharesJson(const FunctionShares& shares);

// One row per node whose total is at least MIN_SHARE (a fraction) of all samples, depth first, the
// function indented two spaces a level.
ReportTable callTreeTable(const CpuSamples& samples, const CallTree& tree, TreeDirection direction, double minShare);
// The same nodes, nested: {"name", "module", "self", "total", "children": [...]}.
nlohmann::ordered_json callTreeJson(const CpuSamples& samples, const CallTree& tree, double minShare);

// Per thread with samples or scheduling records: PID, TID, Thread, Samples, Running % and Off CPU % of the
// time its scheduling records cover, and that time.
ReportTable threadSamplesTable(const CpuSamples& samples, const ThreadStateRead& states,
                               const std::unordered_map<int64_t, std::string>& threadNames);

}  // namespace gpuscope
