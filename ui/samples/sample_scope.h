#pragma once
// Which samples the samples view shows, from what the user picked: the ruler's range where one is set, else
// the time of the selected event (an NVTX range, an API call, a kernel), else the whole run; and the
// selected event's thread where it lies on a CPU thread's row (a kernel's row keeps every thread).
#include <QString>
#include <optional>

#include "core/model/trace.h"
#include "core/samples/sample_filter.h"

namespace gpuscope::ui {

struct SampleScope {
  SampleFilter filter;
  QString description;  // what the view shows, e.g. "thread python3 (tid 884), 10.000 ms to 12.500 ms"
};

// RANGE is the ruler's range (empty: none); ORIGIN the time shown as zero.
SampleScope sampleScope(const Trace& trace, TimeInterval range, const std::optional<EventRef>& selection,
                        TimeNs origin);

}  // namespace gpuscope::ui
