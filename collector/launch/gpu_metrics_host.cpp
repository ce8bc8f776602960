#include "collector/launch/gpu_metrics_host.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <iostream>
#include <thread>

#include "core/ranks/rank_variables.h"

namespace gpuscope {
namespace {

// CUPTI's PM sampling setup takes about a second a GPU; a driver that hangs must not hang the recording.
constexpr int kReadyWaitMs = 90'000;
constexpr auto kStopWait = std::chrono::seconds(20);

bool startsWith(const std::string& entry, std::string_view prefix) {
  return entry.compare(0, prefix.size(), prefix) == 0;
}

template <size_t N>
bool setsOneOf(const std::string& entry, const char* const (&names)[N]) {
  for (const char* name : names)
    if (startsWith(entry, std::string(name) + "=")) return true;
  return false;
}

bool isRankVariable(const std::string& entry) {
  return setsOneOf(entry, rank_variables::kRank) || setsOneOf(entry, rank_variables::kLocalRank) ||
         setsOneOf(entry, rank_variables::kWorldSize);
}

// The host's "ready N of M" line, or "" when it ended or said nothing in time.
std::string readyLine(int fd) {
  std::string line;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kReadyWaitMs);
  while (line.find('\n') == std::string::npos) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd wanted{fd, POLLIN, 0};
    if (left.count() <= 0 || poll(&wanted, 1, static_cast<int>(left.count())) <= 0) return "";
    char buffer[128];
    ssize_t got = read(fd, buffer, sizeof buffer);
    if (got <= 0) return "";
    line.append(buffer, static_cast<size_t>(got));
  }
  return line.substr(0, line.find('\n'));
}

}  // namespace

std::vector<std::string> gpuMetricsHostEnvironment(const std::vector<std::string>& environment, int64_t frequencyHz,
                                                   const std::string& set) {
  std::vector<std::string> host;
  for (const std::string& entry : environment) {
    if (startsWith(entry, "GPUSCOPE_TRACE=") || startsWith(entry, "NVTX_INJECTION64_PATH=") ||
        startsWith(entry, "GPUSCOPE_GPU_METRICS_") || startsWith(entry, "GPUSCOPE_CUDA_MEMORY_USAGE=") ||
        isRankVariable(entry))
      continue;
    host.push_back(entry);
  }
  host.push_back("GPUSCOPE_TRACE=cuda");
  host.push_back("GPUSCOPE_GPU_METRICS_HOST=1");
  host.push_back("GPUSCOPE_GPU_METRICS_HZ=" + std::to_string(frequencyHz));
  host.push_back("GPUSCOPE_GPU_METRICS_SET=" + set);
  return host;
}

GpuMetricsHost::GpuMetricsHost(const std::string& program, const std::vector<std::string>& environment,
                               int64_t frequencyHz, const std::string& set) {
  int ready[2];
  if (pipe(ready) != 0) {
    std::cerr << "gpuscope: GPU metrics are not recorded: cannot make a pipe (" << std::strerror(errno) << ")\n";
    return;
  }
  std::vector<std::string> entries = gpuMetricsHostEnvironment(environment, frequencyHz, set);
  entries.push_back("GPUSCOPE_GPU_METRICS_READY_FD=" + std::to_string(ready[1]));
  std::vector<char*> envp;
  for (std::string& entry : entries) envp.push_back(entry.data());
  envp.push_back(nullptr);
  std::string path = program;
  char* argv[] = {path.data(), nullptr};
  pid_ = fork();
  if (pid_ == 0) {
    setpgid(0, 0);  // a Ctrl-C at the terminal is the program's; record stops the host itself
    close(ready[0]);
    execve(path.c_str(), argv, envp.data());
    const char* message = "gpuscope: GPU metrics are not recorded: cannot run gpuscope-gpu-metrics\n";
    ssize_t ignored = write(2, message, std::strlen(message));
    (void)ignored;
    _exit(127);
  }
  close(ready[1]);
  if (pid_ < 0) {
    std::cerr << "gpuscope: GPU metrics are not recorded: cannot start their sampler (" << std::strerror(errno)
              << ")\n";
    close(ready[0]);
    return;
  }
  std::string line = readyLine(ready[0]);
  close(ready[0]);
  if (line.empty())
    std::cerr << "gpuscope: the GPU metrics sampler did not start in " << kReadyWaitMs / 1000
              << " s: the program runs, and its start may have no GPU metrics\n";
}

void GpuMetricsHost::stop() {
  if (pid_ <= 0) return;
  kill(pid_, SIGTERM);
  auto deadline = std::chrono::steady_clock::now() + kStopWait;
  int status = 0;
  while (waitpid(pid_, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() >= deadline) {
      std::cerr << "gpuscope: the GPU metrics sampler did not stop in " << kStopWait.count()
                << " s: killed; its last samples are missing\n";
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  pid_ = -1;
}

}  // namespace gpuscope
