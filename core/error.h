#pragma once
// TraceError: a problem the user can cause (bad file, bad flag); its message is one sentence.
#include <stdexcept>
#include <string>

namespace gpuscope {

class TraceError : public std::runtime_error {
 public:
  explicit TraceError(const std::string& message) : std::runtime_error(message) {}
};

// Thrown when a load is cancelled through LoadOptions::cancel.
class LoadCancelled : public std::runtime_error {
 public:
  LoadCancelled() : std::runtime_error("loading was cancelled") {}
};

}  // namespace gpuscope
