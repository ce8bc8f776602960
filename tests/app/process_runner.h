#pragma once
// The one way the program tests start a process: gpuscope or gpuscope-ui as a user runs them, with stdout and
// stderr captured apart, stdin empty, and chosen environment variables set or unset.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpuscope::test {

struct ProcessRun {
  int exitCode = -1;  // 128 + the signal when a signal ended it
  std::string out;
  std::string err;
};

// Variables to set (a value) or unset (nullopt); the rest of the environment is inherited.
using EnvChanges = std::map<std::string, std::optional<std::string>>;

// Runs PROGRAM with ARGS (no shell in between) and waits for it.
ProcessRun runProgram(const std::string& program, const std::vector<std::string>& args, const EnvChanges& env = {});

// Runs `gpuscope ARGS`, where ARGS is shell text (quote paths with '...'), as a user types it.
ProcessRun runGpuscope(const std::string& args, const EnvChanges& env = {});

// A path in the test temp folder unique to the running test (tests may run in parallel): PREFIX_TEST_NAME.
std::string testTempPath(const std::string& prefix, const std::string& name);

// A file of the fixtures folder, by its path there ("kineto/loader2_kineto.json.gz").
std::string fixturePath(const std::string& relative);

// A file of the nsys fixtures folder.
std::string nsysFixture(const std::string& name);

// A file's whole contents (empty when it cannot be read).
std::string readWholeFile(const std::string& path);

// The lines of TEXT: its newline characters.
size_t lineCount(const std::string& text);

}  // namespace gpuscope::test
