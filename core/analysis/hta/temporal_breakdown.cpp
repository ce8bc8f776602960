#include "core/analysis/hta/temporal_breakdown.h"

#include <algorithm>
#include <vector>

#include "core/model/time_math.h"

namespace gpuscope {
namespace {

struct MergedSpan {
  int64_t start;
  int64_t end;
};

// HTA's interval merge: in start order, an operation opens a new span when it starts after every
// earlier operation has ended, else it joins the current one. An operation of -1 us (see hta_trace.h)
// alone in its span adds -1 us, as in HTA.
std::vector<MergedSpan> mergedSpans(const std::vector<const HtaGpuOp*>& ops) {
  std::vector<MergedSpan> spans;
  int64_t latestEnd = 0;  // of every operation so far
  for (const HtaGpuOp* op : ops) {
    if (spans.empty() || op->startUs > latestEnd) {
      spans.push_back({op->startUs, op->endUs});
      latestEnd = spans.size() == 1 ? op->endUs : std::max(latestEnd, op->endUs);
    } else {
      spans.back().end = std::max(spans.back().end, op->endUs);
      latestEnd = std::max(latestEnd, op->endUs);
    }
  }
  return spans;
}

int64_t coveredUs(const std::vector<MergedSpan>& spans) {
  int64_t covered = 0;
  for (const MergedSpan& span : spans) covered = saturatingAdd(covered, saturatingSub(span.end, span.start));
  return covered;
}

}  // namespace

TemporalBreakdown temporalBreakdown(const HtaRank& rank) {
  std::vector<const HtaGpuOp*> all, compute;
  for (const HtaGpuOp& op : rank.ops) {
    all.push_back(&op);
    if (op.type == HtaKernelType::Computation) compute.push_back(&op);
  }
  TemporalBreakdown breakdown;
  std::vector<MergedSpan> spans = mergedSpans(all);
  if (spans.empty()) return breakdown;
  breakdown.kernelUs = saturatingSub(spans.back().end, spans.front().start);
  breakdown.idleUs = saturatingSub(breakdown.kernelUs, coveredUs(spans));
  breakdown.computeUs = coveredUs(mergedSpans(compute));
  breakdown.nonComputeUs = saturatingSub(saturatingSub(breakdown.kernelUs, breakdown.computeUs), breakdown.idleUs);
  return breakdown;
}

CommCompOverlap commCompOverlap(const HtaRank& rank) {
  std::vector<const HtaGpuOp*> computation, communication;
  for (const HtaGpuOp& op : rank.ops) {
    if (op.type == HtaKernelType::Computation) computation.push_back(&op);
    if (op.type == HtaKernelType::Communication) communication.push_back(&op);
  }
  std::vector<MergedSpan> comp = mergedSpans(computation);
  std::vector<MergedSpan> comm = mergedSpans(communication);
  CommCompOverlap overlap;
  overlap.communicationUs = coveredUs(comm);
  // Both lists are in start order and disjoint within themselves: walk them together.
  for (size_t i = 0, j = 0; i < comp.size() && j < comm.size();) {
    int64_t from = std::max(comp[i].start, comm[j].start);
    int64_t to = std::min(comp[i].end, comm[j].end);
    if (to > from) overlap.overlapUs = saturatingAdd(overlap.overlapUs, to - from);
    if (comp[i].end < comm[j].end)
      ++i;
    else
      ++j;
  }
  return overlap;
}

}  // namespace gpuscope
