#pragma once
// Streams a Kineto (PyTorch profiler) Chrome-trace JSON through nlohmann's SAX interface, handing out
// one flattened event at a time, so a trace of several GB never sits in memory as a DOM.
#include <functional>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "core/import/kineto/kineto_event.h"

namespace gpuscope::kineto {

struct KinetoHeader {
  std::optional<int64_t> baseTimeNanoseconds;
  std::optional<int64_t> rank;       // distributedInfo.rank
  std::optional<int64_t> worldSize;  // distributedInfo.world_size
  std::vector<KinetoDevice> devices;
  bool sawTraceEvents = false;
};

// Parses INPUT, calling ON_EVENT for each traceEvents entry. Throws TraceError naming PATH with one
// sentence on malformed JSON or a document that is not a Chrome trace.
KinetoHeader parseKinetoStream(std::istream& input, const std::string& path,
                               const std::function<void(const KinetoEvent&)>& onEvent);

}  // namespace gpuscope::kineto
