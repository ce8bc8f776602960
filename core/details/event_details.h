#pragma once
// EventDetails: everything the file says about one event, as titled sections of labelled text fields.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/trace.h"

namespace gpuscope {

struct DetailField {
  std::string label;
  std::string value;
  std::optional<EventRef> link;  // the event this field names (launching call, launched work), to jump to
};

struct DetailSection {
  std::string title;
  std::vector<DetailField> fields;
};

struct EventDetails {
  std::string title;  // the event's name as the timeline shows it
  std::string kind;   // "Kernel", "Memory copy", "Memory set", "CUDA API call", "NVTX range", ...
  std::vector<DetailSection> sections;
  std::optional<EventRef> launchingCall;  // GPU work: the CUDA API call that launched it
  std::vector<EventRef> launchedWork;     // CUDA API call: the GPU work it launched
  TimeNs timeOrigin = 0;                  // subtracted from the times shown: see TimeBase

  // The first field with LABEL, in section order; SECTION narrows the search to one section title.
  const DetailField* field(std::string_view label, std::string_view section = {}) const;
};

// Describes EVENT: the drawn columns from the trace, the others read by rowid from its source table
// (only columns the file has). A reference outside the trace gives a "No such event" description, and a
// database error a "Problem" section; neither throws.
// Times are shown in BASE (the section "Time" says which).
EventDetails describeEvent(const Trace& trace, EventRef event, TimeBase base = TimeBase::Session);

// Whether EVENT names an event of TRACE.
bool isValidEvent(const Trace& trace, EventRef event);

}  // namespace gpuscope
