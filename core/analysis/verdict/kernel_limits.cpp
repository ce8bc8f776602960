#include "core/analysis/verdict/kernel_limits.h"

#include <map>

#include "core/model/target_info.h"
#include "core/roofline/device_peaks.h"

namespace gpuscope {

std::vector<KernelLimit> kernelLimits(const Database& db) {
  std::vector<KernelLimit> limits;
  auto kernels = loadRooflineKernels(db);
  if (kernels.empty()) return limits;
  std::map<uint32_t, DeviceRoofs> roofs;
  for (const DeviceInfo& device : readDevices(db)) roofs[device.id] = measuredOrTheoreticalRoofs(db, device);
  for (RooflinePoint& point : rooflinePoints(kernels, RooflineGrouping::Name)) {
    KernelLimit limit;
    auto device = roofs.find(point.deviceId);
    limit.assessment = assessPoint(point, device != roofs.end() ? device->second : DeviceRoofs{});
    for (MemoryLevel level : kMemoryLevels) limit.memoryBound |= limit.assessment.limiter == memoryLevelName(level);
    limit.point = std::move(point);
    limits.push_back(std::move(limit));
  }
  return limits;
}

}  // namespace gpuscope
