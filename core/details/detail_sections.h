#pragma once
// The per-kind parts of describeEvent, shared by its source files (not a public interface).
#include <optional>
#include <string>
#include <string_view>

#include "core/details/event_details.h"

namespace gpuscope {
class SourceRow;
}

namespace gpuscope::detail_sections {

// Appends a field; an absent value adds nothing.
void add(DetailSection& section, std::string label, std::optional<std::string> value,
         std::optional<EventRef> link = std::nullopt);
void addSection(EventDetails& details, DetailSection section);  // skipped when empty
// The integer in ROW's COLUMN with thousands separators; none when the column is absent or NULL.
std::optional<std::string> numberOf(const SourceRow& row, std::string_view column);

DetailSection timeSection(const Trace& trace, EventRef event, TimeNs origin);
// Says what times count from, when ORIGIN (the time base's zero) is not the file's.
// (A PyTorch profiler trace has no session start: it says the trace start alone.)
void addCountedFrom(DetailSection& section, const Trace& trace, TimeNs origin);

void describeKernel(const Trace& trace, EventRef event, EventDetails& details);
void describeMemory(const Trace& trace, EventRef event, EventDetails& details);
void describeApiCall(const Trace& trace, EventRef event, EventDetails& details);
void describeNvtx(const Trace& trace, EventRef event, EventDetails& details);
void describeOsRuntime(const Trace& trace, EventRef event, EventDetails& details);

}  // namespace gpuscope::detail_sections
