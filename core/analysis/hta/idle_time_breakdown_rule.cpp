// idle_time_breakdown: HTA's get_idle_time_breakdown(), one row per rank, stream and idle category.
#include <algorithm>
#include <array>
#include <cstdio>
#include <map>

#include "core/analysis/hta/hta_rule_support.h"
#include "core/analysis/hta/hta_rules.h"
#include "core/analysis/hta/stream_idle_time.h"
#include "core/error.h"
#include "core/model/time_math.h"

namespace gpuscope {
namespace {

// The longest host waits become the finding's ranges, for the viewer to jump to.
constexpr size_t kHostWaitRanges = 50;

constexpr std::array<StreamIdleCategory, 3> kCategories{StreamIdleCategory::HostWait, StreamIdleCategory::KernelWait,
                                                        StreamIdleCategory::Other};

struct StreamSums {
  std::array<int64_t, 3> idleUs{};
  std::array<bool, 3> seen{false, false, true};  // HTA always lists "other": a stream's first operation counts there
};

using StreamKey = std::pair<int64_t, uint32_t>;  // rank, stream

std::map<StreamKey, StreamSums> sumsByStream(const std::vector<HtaRank>& ranks,
                                             const std::vector<StreamIdleInterval>& gaps) {
  std::map<StreamKey, StreamSums> sums;
  for (const HtaRank& rank : ranks) {
    for (const HtaGpuOp& op : rank.ops) sums[{rank.rank, op.streamId}];
  }
  for (const StreamIdleInterval& gap : gaps) {
    StreamSums& stream = sums[{gap.rank, gap.streamId}];
    auto index = static_cast<size_t>(gap.category);
    stream.idleUs[index] = saturatingAdd(stream.idleUs[index], gap.idleUs);
    stream.seen[index] = true;
  }
  return sums;
}

void addRows(const std::map<StreamKey, StreamSums>& sums, ReportTable& table) {
  for (const auto& [key, stream] : sums) {
    int64_t total = 0;
    for (size_t i = 0; i < kCategories.size(); ++i) total = saturatingAdd(total, stream.idleUs[i]);
    for (size_t i = 0; i < kCategories.size(); ++i) {
      if (!stream.seen[i]) continue;
      double ratio = static_cast<double>(stream.idleUs[i]) / static_cast<double>(total);
      table.rows.push_back({key.first, static_cast<int64_t>(key.second),
                            std::string(streamIdleCategoryName(kCategories[i])), static_cast<double>(stream.idleUs[i]),
                            htaRealCell(roundLikePandas(ratio, 2))});
    }
  }
}

std::string summary(const std::vector<StreamIdleInterval>& gaps) {
  std::map<int64_t, std::array<int64_t, 3>> byRank;
  for (const StreamIdleInterval& gap : gaps) {
    auto& sums = byRank[gap.rank];
    auto index = static_cast<size_t>(gap.category);
    sums[index] = saturatingAdd(sums[index], gap.idleUs);
  }
  std::string text;
  for (const auto& [rank, sums] : byRank) {
    char line[256];
    std::snprintf(line, sizeof line,
                  "Rank %lld, all streams: %lld us of host wait, %lld us of kernel wait and %lld us of other idle "
                  "time. ",
                  static_cast<long long>(rank), static_cast<long long>(sums[0]), static_cast<long long>(sums[1]),
                  static_cast<long long>(sums[2]));
    text += line;
  }
  return text;
}

void addHostWaitRanges(std::vector<StreamIdleInterval> gaps, Finding& finding) {
  std::erase_if(gaps, [](const StreamIdleInterval& gap) {
    return gap.category != StreamIdleCategory::HostWait || gap.endNs <= gap.startNs;
  });
  std::sort(gaps.begin(), gaps.end(), [](const StreamIdleInterval& a, const StreamIdleInterval& b) {
    return spanNs(a.startNs, a.endNs) != spanNs(b.startNs, b.endNs)
               ? spanNs(a.startNs, a.endNs) > spanNs(b.startNs, b.endNs)
               : a.startNs < b.startNs;
  });
  if (gaps.size() > kHostWaitRanges) gaps.resize(kHostWaitRanges);
  for (const StreamIdleInterval& gap : gaps) {
    finding.ranges.push_back(
        htaGpuRange(gap.startNs, gap.endNs, gap.globalPid, gap.deviceId, gap.contextId, gap.streamId));
  }
}

class IdleTimeBreakdownRule : public HtaRule {
 public:
  std::string_view id() const override { return "idle_time_breakdown"; }
  std::string_view title() const override { return "Idle time breakdown (HTA)"; }
  std::string_view description() const override {
    return "Holistic Trace Analysis's idle time breakdown: per rank and CUDA stream, the gaps between consecutive "
           "operations split into host wait (the operation's launch call started after the stream had gone "
           "idle: the host was not feeding the GPU), kernel wait (gaps shorter than consecutive_kernel_delay "
           "us: launch overhead between back-to-back kernels) and other, in microseconds and as a share of the "
           "stream's idle time, as HTA 0.5.0 computes them.";
  }
  Finding run(const Database& db, const RuleOptions& options) const override {
    Finding finding = htaFinding(*this);
    finding.evidence.columns = {
        {"rank", 0}, {"stream", 0}, {"idle_category", 0}, htaColumn("idle_time"), htaColumn("idle_time_ratio")};
    int64_t kernelWaitUs = options.integer("consecutive_kernel_delay");
    std::vector<HtaRank> ranks = loadHtaRanks(db, analysisWindow(db, options));
    if (options.given("rank")) {
      int64_t wanted = options.integer("rank");
      std::erase_if(ranks, [wanted](const HtaRank& rank) { return rank.rank != wanted; });
    }
    std::vector<StreamIdleInterval> gaps = classifyStreamIdleTime(ranks, kernelWaitUs);
    addRows(sumsByStream(ranks, gaps), finding.evidence);
    if (!finding.found()) return finding;
    finding.explanation = summary(gaps) +
                          "A stream waits on the host when the call that launched its next operation began only "
                          "after the stream had gone idle.";
    finding.suggestion =
        "Host wait: keep the GPU fed (more DataLoader workers, pinned memory, fewer synchronizations, CUDA "
        "graphs or torch.compile for Python overhead). Kernel wait: fuse small kernels.";
    addHostWaitRanges(std::move(gaps), finding);
    return finding;
  }

 protected:
  std::vector<RuleOption> ownOptions() const override {
    return {{"consecutive_kernel_delay", std::to_string(kHtaKernelWaitUs),
             "Gaps shorter than this (us) that are not host waits are kernel waits"},
            {"rank", "", "Analyze only this rank (default: every rank)"}};
  }
};

}  // namespace

std::unique_ptr<AnalysisRule> makeIdleTimeBreakdownRule() { return std::make_unique<IdleTimeBreakdownRule>(); }

}  // namespace gpuscope
