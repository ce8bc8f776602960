#pragma once
// nsys's output-name patterns for `record -o`, so that one command line run by a launcher (mpirun,
// srun, torchrun) names one file per rank: `gpuscope record -o 'run.%q{RANK}.sqlite' -- CMD`.
#include <functional>
#include <string>
#include <string_view>

namespace gpuscope {

// What the patterns are replaced with.
struct OutputNameFacts {
  std::function<const char*(const std::string&)> environment;  // a variable's value, nullptr when unset
  std::string hostName;
  long pid = 0;
};

// PATTERN with %q{NAME} replaced by the value of environment variable NAME, %h by the host name, %p by
// the pid and %% by %; other text (a lone % included) is kept. Throws TraceError with one sentence for a
// variable that is not set (as nsys refuses it) and for a %q{ with no closing brace.
std::string expandOutputName(std::string_view pattern, const OutputNameFacts& facts);

// The same, with this process's environment, host name (gethostname) and pid (`gpuscope record`'s own:
// known before the program starts, where nsys's %p is the program's).
std::string expandOutputName(std::string_view pattern);

}  // namespace gpuscope
