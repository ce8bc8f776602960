#pragma once
// TraceError: a problem the user can cause (bad file, bad flag); its message is one sentence.
#include <stdexcept>
#include <string>

namespace gpuscope {

// MESSAGE with control bytes (a damaged file's table names, say) shown as '?', so an error never
// moves the terminal's cursor or splits into several lines.
inline std::string printableMessage(std::string message) {
  for (char& c : message) {
    auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7F) c = '?';
  }
  return message;
}

class TraceError : public std::runtime_error {
 public:
  explicit TraceError(const std::string& message) : std::runtime_error(printableMessage(message)) {}
};

// Thrown when a load is cancelled through LoadOptions::cancel.
class LoadCancelled : public std::runtime_error {
 public:
  LoadCancelled() : std::runtime_error("loading was cancelled") {}
};

}  // namespace gpuscope
