#include "core/analysis/hta/stream_idle_time.h"

#include <map>

#include "core/model/time_math.h"

namespace gpuscope {
namespace {

StreamIdleCategory categoryOf(const HtaGpuOp& previous, const HtaGpuOp& op, int64_t idleUs, int64_t kernelWaitUs) {
  if (op.launch && op.launch->startUs > previous.endUs) return StreamIdleCategory::HostWait;
  return idleUs < kernelWaitUs ? StreamIdleCategory::KernelWait : StreamIdleCategory::Other;
}

void classifyStream(const HtaRank& rank, const std::vector<const HtaGpuOp*>& ops, int64_t kernelWaitUs,
                    std::vector<StreamIdleInterval>& out) {
  for (size_t i = 1; i < ops.size(); ++i) {
    const HtaGpuOp& previous = *ops[i - 1];
    const HtaGpuOp& op = *ops[i];
    StreamIdleInterval gap;
    gap.rank = rank.rank;
    gap.globalPid = rank.globalPid;
    gap.deviceId = op.deviceId;
    gap.contextId = op.contextId;
    gap.streamId = op.streamId;
    gap.startNs = previous.endNs;
    gap.endNs = op.startNs;
    gap.idleUs = saturatingSub(op.startUs, previous.endUs);
    gap.category = categoryOf(previous, op, gap.idleUs, kernelWaitUs);
    gap.correlationId = op.correlationId;
    gap.launch = op.launch;
    out.push_back(gap);
  }
}

}  // namespace

const char* streamIdleCategoryName(StreamIdleCategory category) {
  switch (category) {
    case StreamIdleCategory::HostWait:
      return "host_wait";
    case StreamIdleCategory::KernelWait:
      return "kernel_wait";
    case StreamIdleCategory::Other:
      return "other";
  }
  return "other";
}

std::vector<StreamIdleInterval> classifyStreamIdleTime(const std::vector<HtaRank>& ranks, int64_t kernelWaitUs) {
  std::vector<StreamIdleInterval> intervals;
  for (const HtaRank& rank : ranks) {
    // The rank's operations are in start order already; splitting them by stream keeps that order.
    std::map<uint32_t, std::vector<const HtaGpuOp*>> byStream;
    for (const HtaGpuOp& op : rank.ops) byStream[op.streamId].push_back(&op);
    for (const auto& [stream, ops] : byStream) classifyStream(rank, ops, kernelWaitUs, intervals);
  }
  return intervals;
}

std::vector<StreamIdleInterval> classifyStreamIdleTime(const Database& db, const AnalysisWindow& window,
                                                       int64_t kernelWaitUs) {
  return classifyStreamIdleTime(loadHtaRanks(db, window), kernelWaitUs);
}

}  // namespace gpuscope
