#include "tests/ui/sessions/temporary_control_directory.h"

#include <sys/stat.h>

#include <QThreadPool>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace gpuscope::ui::test {

TemporaryControlDirectory::TemporaryControlDirectory() {
  // Under /tmp, not $TMPDIR: a socket's path must stay short (108 bytes).
  std::string pattern = "/tmp/gpuscope-sessions-test-XXXXXX";
  if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
  chmod(path_.c_str(), 0700);
  setenv("GPUSCOPE_CONTROL_DIR", path_.c_str(), 1);
}

TemporaryControlDirectory::~TemporaryControlDirectory() {
  QThreadPool::globalInstance()->waitForDone();
  unsetenv("GPUSCOPE_CONTROL_DIR");
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace gpuscope::ui::test
