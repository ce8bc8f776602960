#pragma once
// Helpers for the window-shell tests: fixture paths, and the facts a fixture holds, read with SQL.
#include <QString>
#include <QTemporaryDir>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gpuscope::ui {
class MainWindow;
}

namespace gpuscope::ui::test {

QString fixturePath(const char* relative);

// A main window of WIDTH x HEIGHT, shown, its settings in a file of DIR (never the user's).
std::unique_ptr<MainWindow> shownMainWindow(const QTemporaryDir& dir, int width, int height);

// Counts straight from the file's tables, independent of the loader under test.
struct FixtureFacts {
  int64_t kernels = 0;
  int64_t memcpys = 0;
  int64_t memsets = 0;
  int64_t syncs = 0;
  int64_t cudaApi = 0;
  int64_t nvtx = 0;  // marks, push/pop and start/end ranges
  int64_t osrt = 0;
  struct Process {
    uint32_t pid = 0;
    std::string name;
    int64_t cudaApi = 0;
  };
  std::vector<Process> cudaProcesses;  // processes that made CUDA API calls
  std::string gpuName;
  int64_t smCount = 0;
};

FixtureFacts readFixtureFacts(const QString& path);

}  // namespace gpuscope::ui::test
