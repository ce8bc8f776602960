#pragma once
// Where the core tests find their inputs and put their outputs: the fixtures folder, temp files named for
// the test program, and whole files read back.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace gpuscope::testing {

// tests/fixtures.
inline const std::string kFixtures = GPUSCOPE_FIXTURES;

// A file of tests/fixtures, by its path there ("nsys/transpose.sqlite").
inline std::string fixturePath(const std::string& relative) { return kFixtures + "/" + relative; }

// PREFIX_PID_NAME in the system temp folder: the test programs running at once do not share files.
inline std::string processTempPath(const std::string& prefix, const std::string& name) {
  return (std::filesystem::temp_directory_path() / (prefix + "_" + std::to_string(::getpid()) + "_" + name)).string();
}

// The whole file at PATH; the test fails when it cannot be opened.
inline std::string readWholeFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  EXPECT_TRUE(file) << path;
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace gpuscope::testing
