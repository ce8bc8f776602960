#pragma once
// The base of the session tests: a temporary directory, and in it a private control directory that
// GPUSCOPE_CONTROL_DIR points gpuscope's sessions at, so tests never meet the user's own sessions.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

#include "tests/collector/record_test_support.h"

namespace gpuscope::test {

class ControlDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    controlDir_ = dir_.file("control");
    ASSERT_EQ(mkdir(controlDir_.c_str(), 0700), 0);
    setenv("GPUSCOPE_CONTROL_DIR", controlDir_.c_str(), 1);
  }
  void TearDown() override { unsetenv("GPUSCOPE_CONTROL_DIR"); }

  // Waits (5 s at most) until session NAME listens.
  void waitForSession(const std::string& name) {
    for (int i = 0; i < 200; ++i) {
      if (std::filesystem::exists(controlDir_ + "/" + name + ".sock")) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    ADD_FAILURE() << "session " << name << " never listened";
  }

  TempDir dir_;
  std::string controlDir_;
};

}  // namespace gpuscope::test
