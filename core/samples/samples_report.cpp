#include "core/samples/samples_report.h"

#include <algorithm>
#include <map>

#include "core/model/global_id.h"
#include "core/samples/frame_names.h"
#include "core/text/units.h"

namespace gpuscope {
namespace {

double percentOf(int64_t part, size_t whole) {
  return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

// "busy (train.py:17)" for a Python frame (frame_names.h), the symbol otherwise.
std::string nodeName(const CpuSamples& samples, const CallTreeNode& node) {
  return frameLabel(samples.name(node.symbol));
}

void addTreeRows(const CpuSamples& samples, const CallTree& tree, int32_t at, int depth, int64_t minTotal,
                 ReportTable& table) {
  for (int32_t child : tree.nodes[static_cast<size_t>(at)].children) {
    const CallTreeNode& node = tree.nodes[static_cast<size_t>(child)];
    if (node.total < minTotal) continue;  // children are sorted by total, but keep it plain
    table.rows.push_back({node.total, percentOf(node.total, samples.size()), node.self,
                          percentOf(node.self, samples.size()),
                          std::string(static_cast<size_t>(depth) * 2, ' ') + nodeName(samples, node),
                          std::string(samples.name(node.module))});
    addTreeRows(samples, tree, child, depth + 1, minTotal, table);
  }
}

nlohmann::ordered_json nodeJson(const CpuSamples& samples, const CallTree& tree, int32_t at, int64_t minTotal) {
  const CallTreeNode& node = tree.nodes[static_cast<size_t>(at)];
  nlohmann::ordered_json json = nlohmann::ordered_json::object();
  json["name"] = at == 0 ? "[all samples]" : nodeName(samples, node);
  json["module"] = at == 0 ? "" : std::string(samples.name(node.module));
  json["self"] = node.self;
  json["total"] = node.total;
  json["children"] = nlohmann::ordered_json::array();
  for (int32_t child : node.children) {
    if (tree.nodes[static_cast<size_t>(child)].total >= minTotal)
      json["children"].push_back(nodeJson(samples, tree, child, minTotal));
  }
  return json;
}

int64_t minimumTotal(const CpuSamples& samples, double minShare) {
  return std::max<int64_t>(1, static_cast<int64_t>(minShare * static_cast<double>(samples.size()) + 0.999999));
}

}  // namespace

ReportTable flatSamplesTable(const CpuSamples& samples, const std::vector<FlatEntry>& entries, size_t limit) {
  ReportTable table{"samples_flat",
                    "CPU Samples: Frames",
                    {{"Self", 0}, {"Self %", 1}, {"Total", 0}, {"Total %", 1}, {"Function", 0}, {"Module", 0}},
                    {}};
  size_t count = limit == 0 ? entries.size() : std::min(limit, entries.size());
  for (size_t i = 0; i < count; ++i) {
    const FlatEntry& entry = entries[i];
    table.rows.push_back({entry.self, percentOf(entry.self, samples.size()), entry.total,
                          percentOf(entry.total, samples.size()), frameLabel(samples.name(entry.symbol)),
                          std::string(samples.name(entry.module))});
  }
  return table;
}

nlohmann::ordered_json flatSamplesJson(const CpuSamples& samples, const std::vector<FlatEntry>& entries) {
  nlohmann::ordered_json functions = nlohmann::ordered_json::array();
  for (const FlatEntry& entry : entries) {
    functions.push_back({{"name", frameLabel(samples.name(entry.symbol))},
                         {"module", samples.name(entry.module)},
                         {"self", entry.self},
                         {"total", entry.total},
                         {"self_share", percentOf(entry.self, samples.size()) / 100.0},
                         {"total_share", percentOf(entry.total, samples.size()) / 100.0}});
  }
  return functions;
}

ReportTable functionSharesTable(const FunctionShares& shares, size_t limit) {
  ReportTable table{"samples_functions",
                    "CPU Samples: Functions",
                    {{"Samples", 0}, {"Share %", 1}, {"Function", 0}, {"Module", 0}},
                    {}};
  size_t count = limit == 0 ? shares.functions.size() : std::min(limit, shares.functions.size());
  // A limited table (the terminal's) shows each function's top lines and leaves; a whole one (CSV) every one.
  size_t beneath = limit == 0 ? SIZE_MAX : kRowsBeneathAFunction;
  for (size_t i = 0; i < count; ++i) {
    const FunctionShare& function = shares.functions[i];
    table.rows.push_back({function.samples, 100.0 * function.share, function.name, function.module});
    for (size_t k = 0; k < function.lines.size() && k < beneath; ++k) {
      const SampleShare& line = function.lines[k];
      table.rows.push_back({line.samples, 100.0 * line.share, "  line " + line.name, std::string()});
    }
    bool onlyItself = function.leaves.size() == 1 && function.leaves.front().name == function.name;
    if (onlyItself) continue;
    for (size_t k = 0; k < function.leaves.size() && k < beneath; ++k) {
      const SampleShare& leaf = function.leaves[k];
      table.rows.push_back({leaf.samples, 100.0 * leaf.share, "  in " + leaf.name, std::string()});
    }
  }
  return table;
}

std::string functionSharesNote(const FunctionShares& shares) {
  std::string note =
      "Shares are of the " + formatCount(static_cast<uint64_t>(shares.workingSamples)) + " working samples";
  if (shares.idlePoolSamples > 0) note += "; apart: " + idlePoolsText(shares);
  note += ".";
  if (shares.junkFrames > 0)
    note += " Dropped " + formatCount(static_cast<uint64_t>(shares.junkFrames)) + " unwinder junk frames" +
            (shares.unresolvedSamples > 0 ? " (" + formatCount(static_cast<uint64_t>(shares.unresolvedSamples)) +
                                                " samples had nothing else: [unresolved])"
                                          : std::string()) +
            ".";
  return note;
}

nlohmann::ordered_json functionShareJson(const FunctionShare& function, double (*share)(double)) {
  auto written = [share](double value) { return share ? share(value) : value; };
  auto list = [&written](const std::vector<SampleShare>& items, const char* key) {
    nlohmann::ordered_json json = nlohmann::ordered_json::array();
    for (const SampleShare& item : items)
      json.push_back({{key, item.name}, {"samples", item.samples}, {"share", written(item.share)}});
    return json;
  };
  return {{"name", function.name},
          {"module", function.module},
          {"samples", function.samples},
          {"share", written(function.share)},
          {"leaves", list(function.leaves, "name")},
          {"lines", list(function.lines, "line")}};
}

nlohmann::ordered_json functionSharesJson(const FunctionShares& shares) {
  nlohmann::ordered_json pools = nlohmann::ordered_json::array();
  for (const IdlePoolShare& pool : shares.idlePools)
    pools.push_back({{"pool", pool.pool}, {"samples", pool.samples}, {"share", pool.share}, {"threads", pool.threads}});
  nlohmann::ordered_json functions = nlohmann::ordered_json::array();
  for (const FunctionShare& function : shares.functions) functions.push_back(functionShareJson(function));
  return {{"samples", shares.samples},
          {"working_samples", shares.workingSamples},
          {"idle_pool_samples", shares.idlePoolSamples},
          {"unresolved_samples", shares.unresolvedSamples},
          {"junk_frames", shares.junkFrames},
          {"idle_pools", pools},
          {"functions", functions}};
}

ReportTable callTreeTable(const CpuSamples& samples, const CallTree& tree, TreeDirection direction, double minShare) {
  ReportTable table{direction == TreeDirection::TopDown ? "samples_top_down" : "samples_bottom_up",
                    direction == TreeDirection::TopDown ? "CPU Samples: Top-Down" : "CPU Samples: Bottom-Up",
                    {{"Total", 0}, {"Total %", 1}, {"Self", 0}, {"Self %", 1}, {"Function", 0}, {"Module", 0}},
                    {}};
  addTreeRows(samples, tree, 0, 0, minimumTotal(samples, minShare), table);
  return table;
}

nlohmann::ordered_json callTreeJson(const CpuSamples& samples, const CallTree& tree, double minShare) {
  return nodeJson(samples, tree, 0, minimumTotal(samples, minShare));
}

ReportTable threadSamplesTable(const CpuSamples& samples, const ThreadStateRead& states,
                               const std::unordered_map<int64_t, std::string>& threadNames) {
  std::map<int64_t, int64_t> samplesPerThread;
  for (int64_t globalTid : samples.globalTid) ++samplesPerThread[globalTid];
  std::map<int64_t, const ThreadStates*> statesPerThread;
  for (const ThreadStates& thread : states.threads) statesPerThread[thread.globalTid] = &thread;
  for (const auto& [globalTid, _] : statesPerThread) samplesPerThread.try_emplace(globalTid, 0);

  ReportTable table{"samples_threads",
                    "CPU Samples: Threads",
                    {{"PID", 0},
                     {"TID", 0},
                     {"Thread", 0},
                     {"Samples", 0},
                     {"Running %", 1},
                     {"Off CPU %", 1},
                     {"Preempted %", 1},
                     {"Sleeping %", 1},
                     {"Scheduled Time (ns)", 0}},
                    {}};
  for (const auto& [globalTid, count] : samplesPerThread) {
    auto name = threadNames.find(globalTid);
    auto thread = statesPerThread.find(globalTid);
    ReportCell running, offCpu, preempted, sleeping, observed;
    if (thread != statesPerThread.end() && thread->second->observed().length() > 0) {
      const ThreadStates& threadStates = *thread->second;
      auto length = static_cast<double>(threadStates.observed().length());
      auto share = [&](int64_t time) { return 100.0 * static_cast<double>(time) / length; };
      running = share(threadStates.timeIn(ThreadActivity::Running));
      offCpu = share(threadStates.timeOffCpu());
      preempted = share(threadStates.timeIn(ThreadActivity::Preempted));
      sleeping = share(threadStates.timeIn(ThreadActivity::Sleeping) + threadStates.timeIn(ThreadActivity::BlockedIo));
      observed = threadStates.observed().length();
    }
    table.rows.push_back({static_cast<int64_t>(global_id::pid(globalTid)),
                          static_cast<int64_t>(global_id::tid(globalTid)),
                          name == threadNames.end() ? std::string() : name->second, count, running, offCpu, preempted,
                          sleeping, observed});
  }
  return table;
}

}  // namespace gpuscope
