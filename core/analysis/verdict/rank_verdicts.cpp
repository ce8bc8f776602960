#include "core/analysis/verdict/rank_verdicts.h"

#include <algorithm>
#include <map>
#include <set>

#include "core/model/global_id.h"
#include "core/model/rank_table.h"

namespace gpuscope {
namespace {

// Every process the run's GPU work and CUDA calls name.
std::set<int64_t> processesOf(const RunActivity& run) {
  std::set<int64_t> processes;
  for (const GpuOp& op : run.ops)
    if (op.process != 0) processes.insert(op.process);
  for (const HostThread& thread : run.threads) processes.insert(global_id::processOf(thread.globalTid));
  return processes;
}

std::vector<RankVerdict> ranksFromTable(const std::vector<RankRow>& rows, const RunActivity& run) {
  std::map<int64_t, RankVerdict> byRank;
  for (int64_t process : processesOf(run)) {
    const RankRow* row = rankOfGlobalId(rows, process);
    if (!row) continue;
    RankVerdict& rank = byRank[row->rank];
    rank.rank = row->rank;
    rank.hostName = row->hostName;
    rank.label = "rank " + std::to_string(row->rank) + (row->hostName.empty() ? "" : " (" + row->hostName + ")");
    rank.processes.push_back(process);
  }
  std::vector<RankVerdict> ranks;
  for (auto& [number, rank] : byRank) ranks.push_back(std::move(rank));
  return ranks;
}

// Without GPUSCOPE_RANKS, a process that ran collectives is a rank (a launcher's parent runs none).
std::vector<RankVerdict> ranksFromCollectives(const RunActivity& run) {
  std::set<int64_t> processes;
  for (const GpuOp& op : run.ops)
    if (op.collective && op.process != 0) processes.insert(op.process);
  std::vector<RankVerdict> ranks;
  for (int64_t process : processes) {
    RankVerdict rank;
    rank.label = "process " + std::to_string(global_id::pid(process));
    rank.processes = {process};
    ranks.push_back(std::move(rank));
  }
  return ranks;
}

VerdictInputs inputsOfRank(const VerdictInputs& all, const std::vector<int64_t>& processes) {
  VerdictInputs inputs;
  inputs.activity = activityOfProcesses(all.activity, processes);
  inputs.memoryBoundNameIds = all.memoryBoundNameIds;
  inputs.hasMetrics = all.hasMetrics;
  inputs.gpuMetrics = all.gpuMetrics;
  for (const NvtxRange& range : all.nvtx)
    if (std::binary_search(processes.begin(), processes.end(), global_id::processOf(range.globalTid)))
      inputs.nvtx.push_back(range);
  return inputs;
}

}  // namespace

std::vector<RankVerdict> rankVerdicts(const Database& db, const VerdictInputs& inputs) {
  std::vector<RankRow> rows = readRankRows(db);
  std::vector<RankVerdict> ranks =
      rows.empty() ? ranksFromCollectives(inputs.activity) : ranksFromTable(rows, inputs.activity);
  if (ranks.size() < 2) return {};
  for (RankVerdict& rank : ranks) {
    std::sort(rank.processes.begin(), rank.processes.end());
    rank.verdict = runVerdict(db, inputsOfRank(inputs, rank.processes));
  }
  return ranks;
}

std::string rankHeadline(const std::vector<RankVerdict>& ranks) {
  std::string text;
  for (const RankVerdict& rank : ranks) {
    std::string sentence = verdictSentence(rank.verdict);
    text += (text.empty() ? "" : "; ") + rank.label + ": " + sentence.substr(0, sentence.find(':'));
  }
  return text;
}

}  // namespace gpuscope
