#pragma once
// The roofline part of a kernel's details: its counters from GPUSCOPE_KERNEL_METRICS and where it sits
// under its device's roofs, as detail sections (no Qt; the details panel shows them).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/details/event_details.h"
#include "core/roofline/roofline.h"
#include "core/text/units.h"

namespace gpuscope {

// The kernel of KERNELS with (the process of GLOBAL_ID, CORRELATION_ID); nullptr when none has a metrics
// row. GLOBAL_ID may be a globalPid or any globalTid of the process.
const RooflineKernel* findRooflineKernel(const std::vector<RooflineKernel>& kernels, int64_t globalId,
                                         uint32_t correlationId);

// Two sections for KERNEL on ROOFS:
//  "Roofline metrics": the source, ncu's duration, FLOPs per precision present, bytes per memory level
//    present, arithmetic intensity per level, achieved FLOP/s;
//  "Roofline": the precision compared against and its peak, whether memory- or compute-bound, the limiting
//    roof with its bandwidth or peak (and whether that roof was measured or is theoretical, when known), the attainable
//    bound, the share of it achieved, and the ridge point of each level with a known bandwidth.
// Values that are not known (no counters, a GPU without published peaks) are left out or said so.
std::vector<DetailSection> kernelRooflineSections(const RooflineKernel& kernel, const DeviceRoofs& roofs);

}  // namespace gpuscope
