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
#include "core/samples/thread_states.h"

namespace gpuscope {

// Self, Self %, Total, Total %, Function, Module: the first LIMIT entries (0: all). Shares are of all samples.
ReportTable flatSamplesTable(const CpuSamples& samples, const std::vector<FlatEntry>& entries, size_t limit);
nlohmann::ordered_json flatSamplesJson(const CpuSamples& samples, const std::vector<FlatEntry>& entries);

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
