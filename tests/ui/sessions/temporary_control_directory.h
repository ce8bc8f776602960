#pragma once
// TemporaryControlDirectory: a private control directory for one test, made with mkdtemp, mode 0700, and named
// by $GPUSCOPE_CONTROL_DIR while it lives, so that the tests' sessions never meet the user's.
#include <string>

namespace gpuscope::ui::test {

class TemporaryControlDirectory {
 public:
  TemporaryControlDirectory();
  // Waits for the polls still running on the pool (they read the variable), then removes both.
  ~TemporaryControlDirectory();
  TemporaryControlDirectory(const TemporaryControlDirectory&) = delete;
  TemporaryControlDirectory& operator=(const TemporaryControlDirectory&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace gpuscope::ui::test
