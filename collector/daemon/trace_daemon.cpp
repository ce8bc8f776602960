#include "collector/daemon/trace_daemon.h"

#include <dirent.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace gpuscope {

using transport::RecordView;
using transport::RingFileReader;

struct TraceDaemon::RingSource {
  std::unique_ptr<RingFileReader> reader;
  ProcessTrace* trace = nullptr;
  std::chrono::steady_clock::time_point nextLivenessCheck{};
};

namespace {

constexpr std::chrono::milliseconds kScanInterval{10};
constexpr std::chrono::milliseconds kLivenessInterval{50};

bool endsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

}  // namespace

TraceDaemon::TraceDaemon(TraceWriter& writer, DaemonOptions options)
    : writer_(writer), options_(std::move(options)), assembler_(writer, options_.window, options_.threadedWriter) {}

TraceDaemon::~TraceDaemon() {
  stopping_.store(true);
  if (thread_.joinable()) thread_.join();
}

void TraceDaemon::start() {
  stopping_.store(false);
  thread_ = std::thread([this] { run(); });
}

void TraceDaemon::run() {
  auto nextCommit = std::chrono::steady_clock::now() + options_.commitInterval;
  while (!stopping_.load(std::memory_order_acquire)) {
    size_t count = 0;
    try {
      count = drainOnce();
      if (!failed() && std::chrono::steady_clock::now() >= nextCommit) {
        assembler_.checkpoint();
        nextCommit = std::chrono::steady_clock::now() + options_.commitInterval;
      }
    } catch (const std::exception& error) {
      fail(error);
    }
    if (count == 0) std::this_thread::sleep_for(options_.idleSleep);
  }
}

void TraceDaemon::fail(const std::exception& error) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (failure_.empty()) failure_ = error.what();
  failed_.store(true, std::memory_order_release);
}

std::string TraceDaemon::failure() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return failure_;
}

TransportCounts TraceDaemon::transportCounts() const {
  std::lock_guard<std::mutex> lock(mutex_);
  TransportCounts counts = transport_;
  for (const auto& [name, source] : sources_) {
    counts.ringDropped += source->reader->dropped();
    counts.corrupt += source->reader->corrupt();
  }
  return counts;
}

void TraceDaemon::scanDirectory() {
  DIR* directory = opendir(options_.sessionDir.c_str());
  if (!directory) return;
  std::vector<std::string> found;
  while (dirent* entry = readdir(directory)) {
    std::string_view name(entry->d_name);
    if (endsWith(name, ".ring")) found.emplace_back(name);
  }
  closedir(directory);
  for (const std::string& name : found) {
    if (sources_.count(name)) continue;
    bool wasRetired = false;
    for (const std::string& retired : retired_) wasRetired = wasRetired || retired == name;
    if (wasRetired) continue;
    std::string error;
    auto reader = RingFileReader::open(options_.sessionDir + "/" + name, &error);
    std::lock_guard<std::mutex> lock(mutex_);
    if (!reader) {
      ++transport_.unreadable;
      retired_.push_back(name);
      continue;
    }
    auto source = std::make_unique<RingSource>();
    source->trace = &assembler_.openProcess(reader->pid(), reader->ppid());
    source->reader = std::move(reader);
    ++transport_.processes;
    sources_.emplace(name, std::move(source));
  }
}

size_t TraceDaemon::drain(RingSource& source) {
  RingFileReader& reader = *source.reader;
  ProcessTrace& trace = *source.trace;
  bool discard = failed();
  auto sink = [&](const RecordView& record) {
    if (discard) {
      discarded_.fetch_add(1, std::memory_order_relaxed);
    } else {
      assembler_.add(trace, record);
    }
  };
  // Definitions (ring 0) are written before any record on another ring that uses them: take the
  // other rings' ends first, then all of ring 0, then the other rings up to those ends.
  uint32_t rings = reader.ringCount();
  uint64_t heads[1024];
  for (uint32_t ring = 1; ring < rings; ++ring) heads[ring] = reader.head(ring);
  size_t count = reader.drainAll(0, sink);
  for (uint32_t ring = 1; ring < rings; ++ring) {
    if (heads[ring]) count += reader.drain(ring, heads[ring], sink);
  }
  if (onDiagnostic_ || count) {
    for (const Diagnostic& diagnostic : assembler_.takeDiagnostics()) {
      if (onDiagnostic_) onDiagnostic_(diagnostic);
    }
  }
  return count;
}

// /proc/<pid>/stat tells whether the process that wrote the ring file still runs: the pid must
// exist, not be a zombie, and have the start time the file recorded.
bool TraceDaemon::processGone(const RingSource& source) const {
  std::ifstream file("/proc/" + std::to_string(source.reader->pid()) + "/stat");
  std::string text;
  if (!std::getline(file, text)) return true;
  size_t paren = text.rfind(')');
  if (paren == std::string::npos) return true;
  std::istringstream fields(text.substr(paren + 1));
  std::string field;
  std::string state;
  uint64_t startTicks = 0;
  for (int index = 3; fields >> field; ++index) {
    if (index == 3) state = field;
    if (index == 22) {
      startTicks = std::strtoull(field.c_str(), nullptr, 10);
      break;
    }
  }
  if (state == "Z" || state == "X" || state == "x") return true;
  return source.reader->procStartTicks() != 0 && startTicks != source.reader->procStartTicks();
}

void TraceDaemon::retire(RingSource& source) {
  const std::string path = source.reader->path();
  drain(source);
  if (!failed()) assembler_.closeProcess(*source.trace);
  std::lock_guard<std::mutex> lock(mutex_);
  transport_.ringDropped += source.reader->dropped();
  transport_.corrupt += source.reader->corrupt();
  switch (source.reader->cudaState()) {
    case transport::CudaState::Tracing:
      ++transport_.cudaTraced;
      break;
    case transport::CudaState::CuptiBusy:
      ++transport_.cuptiBusy;
      break;
    case transport::CudaState::CuptiFailed:
      ++transport_.cuptiFailed;
      break;
    default:
      break;
  }
  unlink(path.c_str());
  std::string name = path.substr(path.rfind('/') + 1);
  retired_.push_back(name);
  sources_.erase(name);
}

size_t TraceDaemon::drainOnce() {
  auto now = std::chrono::steady_clock::now();
  if (now - lastScan_ >= kScanInterval) {
    scanDirectory();
    lastScan_ = now;
  }
  size_t count = 0;
  std::vector<RingSource*> finished;
  for (auto& [name, source] : sources_) {
    // Check for death before the drain: what a dead process published is all there will be.
    bool gone = false;
    if (now >= source->nextLivenessCheck) {
      gone = processGone(*source);
      source->nextLivenessCheck = now + kLivenessInterval;
    }
    count += drain(*source);
    if (gone) finished.push_back(source.get());
  }
  for (RingSource* source : finished) retire(*source);
  return count;
}

void TraceDaemon::stop(std::chrono::milliseconds grace) {
  stopping_.store(true);
  if (thread_.joinable()) thread_.join();
  auto deadline = std::chrono::steady_clock::now() + grace;
  lastScan_ = {};
  for (;;) {
    for (auto& [name, source] : sources_) source->nextLivenessCheck = {};
    size_t count = 0;
    try {
      count = drainOnce();
    } catch (const std::exception& error) {
      fail(error);
    }
    if (sources_.empty() || std::chrono::steady_clock::now() >= deadline) break;
    if (count == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  // Whatever still runs is recorded up to here.
  lastScan_ = {};
  scanDirectory();
  try {
    while (!sources_.empty()) retire(*sources_.begin()->second);
    if (!failed()) assembler_.finish();
  } catch (const std::exception& error) {
    fail(error);
    while (!sources_.empty()) retire(*sources_.begin()->second);
  }
}

}  // namespace gpuscope
