#include "collector/launch/output_name.h"

#include <unistd.h>

#include <cstdlib>

#include "core/error.h"

namespace gpuscope {

std::string expandOutputName(std::string_view pattern, const OutputNameFacts& facts) {
  std::string name;
  for (size_t at = 0; at < pattern.size(); ++at) {
    char next = at + 1 < pattern.size() ? pattern[at + 1] : '\0';
    if (pattern[at] != '%' || (next != 'q' && next != 'h' && next != 'p' && next != '%')) {
      name += pattern[at];
      continue;
    }
    ++at;
    if (next == 'h') {
      name += facts.hostName;
    } else if (next == 'p') {
      name += std::to_string(facts.pid);
    } else if (next == '%') {
      name += '%';
    } else {
      size_t close = pattern.find('}', at);
      if (at + 1 >= pattern.size() || pattern[at + 1] != '{' || close == std::string_view::npos)
        throw TraceError("-o '" + std::string(pattern) + "' has a %q without {NAME}: write %q{NAME}, as in -o " +
                         "'run.%q{RANK}.sqlite'.");
      std::string variable(pattern.substr(at + 2, close - at - 2));
      const char* value = facts.environment ? facts.environment(variable) : nullptr;
      if (!value)
        throw TraceError("-o '" + std::string(pattern) + "' names %q{" + variable + "}, and the environment variable " +
                         variable + " is not set.");
      name += value;
      at = close;
    }
  }
  return name;
}

std::string expandOutputName(std::string_view pattern) {
  if (pattern.find('%') == std::string_view::npos) return std::string(pattern);
  OutputNameFacts facts;
  facts.environment = [](const std::string& variable) { return std::getenv(variable.c_str()); };
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) facts.hostName = host;
  facts.pid = static_cast<long>(getpid());
  return expandOutputName(pattern, facts);
}

}  // namespace gpuscope
