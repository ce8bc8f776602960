#pragma once
// What the roofline tab says about one point, as rich text: its full name, how many kernels it sums, time,
// FLOP/s, arithmetic intensity, bound, counters and attainable share. The tooltip and the details beside the
// chart show it.
#include <QString>

#include "core/roofline/roofline.h"

namespace gpuscope::ui {

// POINT under ROOFS, its intensity taken at LEVEL.
QString rooflinePointDescription(const RooflinePoint& point, const DeviceRoofs& roofs, MemoryLevel level);

// Library kernel names ("sm90_xmma_dgrad_implicit_gemm_...") have no spaces: a zero-width space after each
// underscore lets a narrow panel or tooltip wrap them instead of cutting them off.
QString breakableAtUnderscores(QString text);

}  // namespace gpuscope::ui
