#pragma once
// The details of one device memory allocation or free (core/metrics' MemoryUsage::events), picked on a
// timeline memory row: when, how much, what kind, where, whose, the process's total on the GPU after it, and a
// link to the CUDA API call that made it where the file correlates the two.
//
// Written here, not in core/details, for now: core has no lookup of a CUDA API call by (pid, correlation id)
// for an event that is not on a track (Trace::launchingCall starts from GPU work), so apiCallOf does it.
#include <cstdint>
#include <optional>

#include "core/details/event_details.h"
#include "core/model/trace.h"

namespace gpuscope::ui {

// The CUDA API call of process PID with CORRELATION_ID, or none: a scan of that process's CUDA API tracks,
// made once per click.
std::optional<EventRef> apiCallOf(const Trace& trace, uint32_t pid, int64_t correlationId);

// Describes memoryUsage(trace).events[INDEX]; an index outside them gives a "No such event" description.
EventDetails describeMemoryEvent(const Trace& trace, uint32_t index, TimeBase base);

}  // namespace gpuscope::ui
