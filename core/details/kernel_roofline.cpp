#include "core/details/kernel_roofline.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "core/details/detail_sections.h"
#include "core/details/detail_text.h"
#include "core/model/global_id.h"
#include "core/stats/nvtx_ranges.h"

namespace gpuscope {
namespace {

using detail_sections::add;

std::string levelName(MemoryLevel level) { return std::string(memoryLevelName(level)); }
std::string precisionText(Precision precision) { return std::string(precisionName(precision)); }

std::string flopCount(double flops) {
  return detail_text::number(std::llround(flops)) + " (" + engineeringText(flops, "FLOP") + ")";
}

// TEXT with where its roof came from: "66.91 TFLOP/s (measured)"; nothing added when that is not known.
std::string withSource(std::string text, RoofSource source) {
  auto name = roofSourceName(source);
  return name.empty() ? text : text + " (" + std::string(name) + ")";
}

bool isPeak(const std::string& limiter) { return limiter.size() > 5 && limiter.ends_with(" peak"); }

}  // namespace

const RooflineKernel* findRooflineKernel(const std::vector<RooflineKernel>& kernels, int64_t globalId,
                                         uint32_t correlationId) {
  uint32_t pid = global_id::pid(globalId);
  for (const auto& kernel : kernels)
    if (kernel.metrics.correlationId == correlationId && global_id::pid(kernel.metrics.globalPid) == pid)
      return &kernel;
  return nullptr;
}

std::vector<DetailSection> kernelRooflineSections(const RooflineKernel& kernel, const DeviceRoofs& roofs) {
  auto points = rooflinePoints({kernel}, RooflineGrouping::Instance);
  const RooflinePoint& point = points.front();
  auto assessment = assessPoint(point, roofs);

  DetailSection metrics{"Roofline metrics", {}};
  if (!kernel.metrics.source.empty()) add(metrics, "Metrics source", kernel.metrics.source);
  add(metrics, "Duration",
      detail_text::duration(kernel.durationNs()) +
          (kernel.metrics.durationNs ? " (measured by the metrics source)" : " (from the trace)"));
  int precisionsPresent = 0;
  for (auto precision : kPrecisions) {
    const auto& flops = point.flopsOf(precision);
    if (!flops) continue;
    ++precisionsPresent;
    add(metrics, precisionText(precision) + " FLOPs", flopCount(*flops));
  }
  if (precisionsPresent == 0) add(metrics, "FLOPs", "not counted");
  if (precisionsPresent > 1) add(metrics, "Total FLOPs", flopCount(assessment.flops));
  for (auto level : kMemoryLevels)
    if (const auto& bytes = point.bytesOf(level))
      add(metrics, levelName(level) + " bytes", detail_text::bytes(std::llround(*bytes)));
  for (auto level : kMemoryLevels) {
    const auto& bytes = point.bytesOf(level);
    if (!bytes) continue;
    const auto& intensity = assessment.intensityOf(level);
    add(metrics, "Arithmetic intensity, " + levelName(level),
        intensity ? intensityText(*intensity) : "no " + levelName(level) + " traffic");
  }
  add(metrics, "Achieved", engineeringText(assessment.achievedFlopsPerSecond, "FLOP/s", 4));

  DetailSection place{"Roofline", {}};
  double peak = roofs.peak(assessment.precision);
  add(place, "Compared with",
      peak > 0 ? withSource(precisionText(assessment.precision) + " peak, " + engineeringText(peak, "FLOP/s", 4),
                            roofs.sourceOf(assessment.precision))
               : precisionText(assessment.precision) + " (its peak on this GPU is not known)");
  if (assessment.flops <= 0) {
    add(place, "Bound", "not on the roofline: no FLOPs were counted");
  } else if (assessment.limiter.empty()) {
    add(place, "Bound", "unknown: no roof of this GPU is known");
  } else {
    bool compute = isPeak(assessment.limiter);
    add(place, "Bound",
        compute ? "Compute-bound (" + assessment.limiter + ")" : "Memory-bound (" + assessment.limiter + ")");
    std::string roof = assessment.limiter;
    if (compute) {
      roof = withSource(roof + ", " + engineeringText(peak, "FLOP/s", 4), roofs.sourceOf(assessment.precision));
    } else {
      for (auto level : kMemoryLevels)
        if (levelName(level) == assessment.limiter)
          roof = withSource(roof + " bandwidth, " + engineeringText(roofs.bandwidthOf(level), "B/s", 4),
                            roofs.sourceOf(level));
    }
    add(place, "Limiting roof", roof);
    if (assessment.attainableFlopsPerSecond)
      add(place, "Attainable", engineeringText(*assessment.attainableFlopsPerSecond, "FLOP/s", 4));
    add(place, "Achieved", engineeringText(assessment.achievedFlopsPerSecond, "FLOP/s", 4));
    if (assessment.shareOfAttainable)
      add(place, "Share of attainable", detail_text::percent(*assessment.shareOfAttainable * 100));
    for (auto level : kMemoryLevels) {
      const auto& attainable = assessment.attainable[static_cast<size_t>(level)];
      if (attainable)
        add(place, levelName(level) + " roof at this intensity", engineeringText(*attainable, "FLOP/s", 4));
    }
  }
  for (auto level : kMemoryLevels) {
    double bandwidth = roofs.bandwidthOf(level);
    if (bandwidth > 0 && peak > 0) add(place, "Ridge point, " + levelName(level), intensityText(peak / bandwidth));
  }
  std::vector<DetailSection> sections;
  if (!metrics.fields.empty()) sections.push_back(std::move(metrics));
  if (!place.fields.empty()) sections.push_back(std::move(place));
  return sections;
}

}  // namespace gpuscope
