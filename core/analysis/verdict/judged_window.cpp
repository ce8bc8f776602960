#include "core/analysis/verdict/judged_window.h"

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>

#include "core/model/global_id.h"
#include "core/schema/table_names.h"
#include "core/schema/trace_schema.h"
#include "core/text/percent_text.h"
#include "core/text/units.h"

namespace gpuscope {
namespace {

// A GPU operation as seen from the process that launched it. By process, not thread: PyTorch launches the
// backward pass from its autograd thread while the step's range is open on the main thread.
struct Launch {
  TimeNs at = 0;  // the launching call's start
  TimeNs duration = 0;
  TimeNs end = 0;  // the operation's end on the GPU
};
using LaunchesByProcess = std::unordered_map<int64_t, std::vector<Launch>>;

LaunchesByProcess launchesByProcess(const RunActivity& run) {
  LaunchesByProcess launches;
  for (const GpuOp& op : run.ops) {
    if (op.launchTid != 0)
      launches[global_id::processOf(op.launchTid)].push_back({op.launchStart, op.end - op.start, op.end});
  }
  for (auto& [tid, list] : launches)
    std::sort(list.begin(), list.end(), [](const Launch& a, const Launch& b) { return a.at < b.at; });
  return launches;
}

struct Instance {
  const NvtxRange* range = nullptr;
  TimeNs gpuNs = 0;   // GPU time of the work launched inside it
  TimeNs gpuEnd = 0;  // the end of that work, or the range's end if later
};

struct Group {
  std::string name;  // stepGroupName of its instances' text
  std::vector<Instance> instances;
  TimeNs gpuNs = 0;
};

Instance project(const NvtxRange& range, const LaunchesByProcess& launches) {
  Instance instance{&range, 0, range.end};
  auto process = launches.find(global_id::processOf(range.globalTid));
  if (process == launches.end()) return instance;
  const auto& list = process->second;
  auto launch =
      std::lower_bound(list.begin(), list.end(), range.start, [](const Launch& l, TimeNs time) { return l.at < time; });
  for (; launch != list.end() && launch->at < range.end; ++launch) {
    instance.gpuNs += launch->duration;
    instance.gpuEnd = std::max(instance.gpuEnd, launch->end);
  }
  return instance;
}

// The default-domain ranges that open and close on one thread, and each one's enclosing range among them
// (-1 for an outermost one).
struct Nesting {
  std::vector<const NvtxRange*> ranges;
  std::vector<int> parent;
};

Nesting nestRanges(const std::vector<NvtxRange>& all) {
  Nesting nesting;
  for (const NvtxRange& range : all) {
    if (range.oneThread && range.name.starts_with(':') && range.end > range.start) nesting.ranges.push_back(&range);
  }
  std::sort(nesting.ranges.begin(), nesting.ranges.end(), [](const NvtxRange* a, const NvtxRange* b) {
    if (a->globalTid != b->globalTid) return a->globalTid < b->globalTid;
    return a->start != b->start ? a->start < b->start : a->end > b->end;
  });
  nesting.parent.assign(nesting.ranges.size(), -1);
  std::vector<int> open;
  for (size_t i = 0; i < nesting.ranges.size(); ++i) {
    const NvtxRange* range = nesting.ranges[i];
    while (!open.empty() && (nesting.ranges[open.back()]->globalTid != range->globalTid ||
                             nesting.ranges[open.back()]->end <= range->start))
      open.pop_back();
    if (!open.empty() && range->end <= nesting.ranges[open.back()]->end) nesting.parent[i] = open.back();
    open.push_back(static_cast<int>(i));
  }
  return nesting;
}

// The ranges whose parent is PARENT (-1: the outermost), grouped by name; the group with the most GPU time.
std::optional<Group> busiestGroup(const Nesting& nesting, const std::vector<Instance>& projected,
                                  const std::vector<bool>& parentChosen, bool outermost) {
  std::map<std::string, Group> groups;
  for (size_t i = 0; i < nesting.ranges.size(); ++i) {
    int parent = nesting.parent[i];
    bool wanted = outermost ? parent < 0 : parent >= 0 && parentChosen[parent];
    if (!wanted) continue;
    std::string name = stepGroupName(std::string_view(nesting.ranges[i]->name).substr(1));
    Group& group = groups[name];
    group.name = name;
    group.instances.push_back(projected[i]);
    group.gpuNs += projected[i].gpuNs;
  }
  std::optional<Group> best;
  for (auto& [name, group] : groups) {
    if (!best || group.gpuNs > best->gpuNs) best = std::move(group);
  }
  return best;
}

// Whether GROUP holds enough of the run's GPU time to be its steady state (judged_window.h).
bool holdsTheWork(const Group& group, TimeNs totalGpu) {
  return static_cast<double>(group.gpuNs) >= stepsGpuShare(group.instances.size()) * static_cast<double>(totalGpu);
}

std::optional<Group> stepGroup(const RunActivity& run, const std::vector<NvtxRange>& ranges, TimeNs totalGpu) {
  Nesting nesting = nestRanges(ranges);
  if (nesting.ranges.empty() || totalGpu <= 0) return std::nullopt;
  LaunchesByProcess launches = launchesByProcess(run);
  std::vector<Instance> projected;
  projected.reserve(nesting.ranges.size());
  for (const NvtxRange* range : nesting.ranges) projected.push_back(project(*range, launches));
  auto outer = busiestGroup(nesting, projected, {}, true);
  if (!outer) return std::nullopt;
  if (outer->instances.size() < kWarmupInstances) {
    std::vector<bool> chosen(nesting.ranges.size(), false);
    for (size_t i = 0; i < nesting.ranges.size(); ++i) {
      chosen[i] =
          nesting.parent[i] < 0 && stepGroupName(std::string_view(nesting.ranges[i]->name).substr(1)) == outer->name;
    }
    auto inner = busiestGroup(nesting, projected, chosen, false);
    if (inner && inner->instances.size() >= kWarmupInstances &&
        static_cast<double>(inner->gpuNs) >= kInnerStepsShare * static_cast<double>(outer->gpuNs) &&
        holdsTheWork(*inner, totalGpu))
      return inner;
  }
  return holdsTheWork(*outer, totalGpu) ? outer : std::nullopt;
}

TimeNs totalGpuTime(const RunActivity& run) {
  TimeNs total = 0;
  for (const GpuOp& op : run.ops) total += op.end - op.start;
  return total;
}

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

JudgedWindow fromSteps(const RunActivity& run, Group group, TimeNs totalGpu) {
  std::sort(group.instances.begin(), group.instances.end(),
            [](const Instance& a, const Instance& b) { return a.range->start < b.range->start; });
  size_t all = group.instances.size();
  size_t skip = all >= kWarmupInstances ? 1 : 0;
  TimeNs start = group.instances[skip].range->start, end = start, gpu = 0;
  for (size_t i = skip; i < all; ++i) {
    end = std::max(end, group.instances[i].gpuEnd);
    gpu += group.instances[i].gpuNs;
  }
  auto text = [](const Instance& instance) { return quoted(std::string_view(instance.range->name).substr(1)); };
  std::string first = text(group.instances[skip]), last = text(group.instances.back());
  std::string reason;
  if (all - skip == 1) {
    reason = "NVTX range " + first + " (" + std::to_string(skip + 1) + " of " + std::to_string(all) + ")";
  } else if (first == last) {  // one text for every instance, such as "step"
    reason = "NVTX ranges " + first + " " + std::to_string(skip + 1) + " to " + std::to_string(all) + " of " +
             std::to_string(all) + (skip ? " (the first set apart as warm-up)" : "");
  } else {
    reason = "NVTX ranges " + first + " to " + last + " (" + std::to_string(all - skip) + " of " + std::to_string(all) +
             " named " + quoted(group.name) + (skip ? ", the first set apart as warm-up" : "") + ")";
  }
  reason += " launched " + percentText(static_cast<double>(gpu) / static_cast<double>(totalGpu)) + " of the GPU time";
  return chosenWindow(run, {start, end}, reason);
}

std::string stringValue(const Database& db, int64_t id) {
  if (!db.hasTable(table::kStringIds)) return std::to_string(id);
  auto statement = db.prepare("SELECT value FROM StringIds WHERE id = ?1");
  statement.bind(1, id);
  return statement.step() ? std::string(statement.text(0)) : std::to_string(id);
}

std::optional<JudgedWindow> fromRepetition(const Database& db, const RunActivity& run) {
  std::unordered_map<int64_t, std::vector<const GpuOp*>> byName;
  for (const GpuOp& op : run.ops) {
    if (op.kind == GpuOpKind::Kernel) byName[op.nameId].push_back(&op);
  }
  const std::vector<const GpuOp*>* most = nullptr;
  for (const auto& [name, ops] : byName) {
    if (!most || ops.size() > most->size() || (ops.size() == most->size() && ops[0]->start < (*most)[0]->start))
      most = &ops;
  }
  if (!most || most->size() < kWarmupInstances) return std::nullopt;
  const GpuOp& second = *(*most)[1];
  TimeNs start = second.launchTid != 0 ? std::min(second.launchStart, second.start) : second.start;
  std::string name = stringValue(db, second.nameId);
  return chosenWindow(run, {start, run.last},
                      "no NVTX ranges mark steps: from the launch of the second of " + std::to_string(most->size()) +
                          " instances of the most repeated kernel, " + name + ", to the end of the GPU work");
}

}  // namespace

std::string_view judgedWindowSourceName(JudgedWindow::Source source) {
  switch (source) {
    case JudgedWindow::Source::NvtxSteps:
      return "nvtx_steps";
    case JudgedWindow::Source::RepeatedKernel:
      return "repeated_kernel";
    case JudgedWindow::Source::WholeRun:
      return "whole_run";
    case JudgedWindow::Source::User:
      return "user";
  }
  return "whole_run";
}

TimeNs traceStartNs(const Database& db) {
  TimeNs first = INT64_MAX;
  for (std::string_view name : eventTables()) {
    if (!db.hasTable(name)) continue;
    auto statement = db.prepare("SELECT min(start) FROM " + std::string(name) + " WHERE start > 0");
    if (statement.step() && !statement.isNull(0)) first = std::min(first, statement.int64(0));
  }
  return first == INT64_MAX ? 0 : first;
}

double stepsGpuShare(size_t instances) {
  if (instances >= kWarmupInstances) return 0.25;
  return instances == 2 ? 0.50 : 0.80;
}

std::string stepGroupName(std::string_view name) {
  std::string group;
  for (size_t i = 0; i < name.size(); ++i) {
    bool digit = name[i] >= '0' && name[i] <= '9';
    if (!digit) {
      group += name[i];
    } else if (i == 0 || name[i - 1] < '0' || name[i - 1] > '9') {
      group += 'N';
    }
  }
  return group;
}

std::string judgedWindowSentence(const JudgedWindow& judged) {
  std::string text = judged.reason + "; " + formatDuration(judged.window.length());
  if (judged.startup.length() > 0) text += ", start-up " + formatDuration(judged.startup.length()) + " set apart";
  if (judged.shutdown.length() > 0) text += ", shut-down " + formatDuration(judged.shutdown.length()) + " after it";
  return text + ".";
}

JudgedWindow chosenWindow(const RunActivity& run, TimeInterval window, std::string reason) {
  JudgedWindow judged;
  judged.source = JudgedWindow::Source::User;
  judged.window = window;
  judged.reason = std::move(reason);
  TimeNs first = std::min(run.cudaFirst, window.start), last = std::max(run.cudaLast, window.end);
  judged.startup = {first, window.start};
  judged.shutdown = {window.end, last};
  return judged;
}

JudgedWindow steadyStateWindow(const Database& db, const RunActivity& run, const std::vector<NvtxRange>& ranges) {
  TimeNs totalGpu = totalGpuTime(run);
  if (auto group = stepGroup(run, ranges, totalGpu)) {
    JudgedWindow judged = fromSteps(run, std::move(*group), totalGpu);
    judged.source = JudgedWindow::Source::NvtxSteps;
    return judged;
  }
  if (auto repeated = fromRepetition(db, run)) {
    repeated->source = JudgedWindow::Source::RepeatedKernel;
    return *repeated;
  }
  JudgedWindow whole = chosenWindow(run, {run.first, run.last},
                                    run.ops.empty() ? "the whole run: no GPU work, the span of its CUDA calls"
                                                    : "the whole run: no NVTX steps and no repeated kernel");
  whole.source = JudgedWindow::Source::WholeRun;
  return whole;
}

}  // namespace gpuscope

namespace gpuscope {

std::optional<JudgedWindow> triggeredWindow(const Database& db, const RunActivity& run) {
  if (!db.hasTable(table::kGpuscopeMeta)) return std::nullopt;
  auto value = [&](std::string_view name) -> std::optional<std::string> {
    auto row = db.prepare("SELECT value FROM GPUSCOPE_META WHERE name = '" + std::string(name) + "'");
    if (!row.step()) return std::nullopt;
    return std::string(row.text(0));
  };
  std::optional<std::string> trigger = value("flight_trigger");
  std::optional<std::string> start = value("flight_trigger_start_ns");
  std::optional<std::string> end = value("flight_trigger_end_ns");
  if (!trigger || !start || !end) return std::nullopt;
  TimeNs from = 0, to = 0;
  try {
    from = std::stoll(*start);
    to = std::stoll(*end);
  } catch (const std::exception&) {
    return std::nullopt;  // not numbers: judged as any other file
  }
  if (to <= from) return std::nullopt;
  JudgedWindow judged =
      chosenWindow(run, TimeInterval{from, to}, "the range that triggered the flight recorder (" + *trigger + ")");
  return judged;
}

}  // namespace gpuscope
