#include "collector/daemon/trace_daemon.h"

#include <dirent.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include "collector/transport/session_clock.h"

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
// How long a window's file waits for the CUDA processes to flush CUPTI after the gate closed: their workers
// look at the gate every 50 ms, and a forced flush of full buffers takes some more.
constexpr std::chrono::milliseconds kCloseWait{3000};
constexpr std::chrono::milliseconds kLivenessInterval{50};

bool endsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

}  // namespace

TraceDaemon::TraceDaemon(TraceWriter& writer, DaemonOptions options)
    : writer_(&writer), options_(std::move(options)), assembler_(writer, options_.window, options_.threadedWriter) {}

TraceDaemon::TraceDaemon(DaemonOptions options, transport::SessionGate& gate, WindowSink& sink)
    : gate_(&gate), sink_(&sink), options_(std::move(options)), assembler_(options_.threadedWriter) {}

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
      if (gate_) followGate();
      count = drainOnce();
      if (gate_) followGate();
      windowEvents_.store(assembler_.hasWindow() ? assembler_.counts().events() : 0, std::memory_order_relaxed);
      if (!failed() && assembler_.hasWindow() && std::chrono::steady_clock::now() >= nextCommit) {
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
    if (gate_) followGate();
    while (!sources_.empty()) retire(*sources_.begin()->second);
    if (gate_ && assembler_.hasWindow()) {
      // The program ended inside a window: its file ends here.
      if (closingGeneration_ == 0) span_.end = transport::sessionClockNs();
      closeWindow(closingGeneration_ ? span_.reason : transport::WindowEndReason::ProgramEnded);
    }
    if (!failed()) assembler_.finish();
  } catch (const std::exception& error) {
    fail(error);
    while (!sources_.empty()) retire(*sources_.begin()->second);
  }
}

void TraceDaemon::followGate() {
  uint64_t generation = gate_->generation.load(std::memory_order_acquire);
  if (!assembler_.hasWindow()) {
    if (generation == lastSeenGeneration_) return;
    // Opened and closed again since the last look (a window shorter than a pass): its records are still in
    // the rings, so it opens now and starts closing at once.
    bool missed = !transport::gateIsOpen(generation) && generation >= lastSeenGeneration_ + 2;
    lastSeenGeneration_ = generation;
    if (!transport::gateIsOpen(generation) && !missed) return;
    openWindow(transport::gateIsOpen(generation) ? generation : generation - 1);
    if (!missed) return;
  }
  lastSeenGeneration_ = generation;
  if (closingGeneration_ == 0) {
    if (generation == windowGeneration_) {
      bool due = options_.segmentNs > 0 &&
                 (transport::sessionClockNs() - span_.begin >= options_.segmentNs || sink_->segmentFull());
      if (due || rotationRequested_.exchange(false, std::memory_order_acq_rel)) rotateSegment();
      return;
    }
    // Closed (and maybe opened again since: then the next window waits for this file).
    closingGeneration_ = windowGeneration_ + 1;
    span_.end = gate_->closedAt.load(std::memory_order_relaxed);
    span_.reason = static_cast<transport::WindowEndReason>(gate_->endReason.load(std::memory_order_relaxed));
    assembler_.setWindowEnd(std::min(span_.end, windowEndLimit_));
    closeDeadline_ = std::chrono::steady_clock::now() + kCloseWait;
    return;
  }
  bool acknowledged = closeAcknowledged(closingGeneration_);
  if (!acknowledged && std::chrono::steady_clock::now() < closeDeadline_) return;
  drainOnce();  // what the flushes wrote
  closeWindow(span_.reason);
}

void TraceDaemon::openWindow(uint64_t generation) {
  span_ = WindowSpan{};
  span_.begin = gate_->openedAt.load(std::memory_order_relaxed);
  CaptureWindow window{span_.begin, span_.begin, std::numeric_limits<int64_t>::max()};
  TraceWriter& writer = sink_->windowOpened(span_, window);
  writer_ = &writer;
  assembler_.openWindow(writer, window);
  windowEndLimit_ = window.end;
  windowGeneration_ = generation;
  closingGeneration_ = 0;
}

// Ends the segment under way and opens the next at once. The next one keeps records that start before it
// (CUPTI hands kernels over up to 50 ms late): each record is read once, so none lands in two segments. Ranges
// still open go into the segment where they end.
void TraceDaemon::rotateSegment() {
  span_.end = transport::sessionClockNs();
  span_.reason = transport::WindowEndReason::Rotated;
  assembler_.closeWindow(false);
  try {
    sink_->windowClosed(span_, *this);
  } catch (const std::exception& error) {
    fail(error);
  }
  segmentsClosed_.fetch_add(1, std::memory_order_acq_rel);
  span_ = WindowSpan{};
  span_.begin = transport::sessionClockNs();
  CaptureWindow window{span_.begin, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  TraceWriter& writer = sink_->windowOpened(span_, window);
  writer_ = &writer;
  assembler_.openWindow(writer, window);
  windowEndLimit_ = window.end;
}

// Every live process that traces CUDA has written what CUPTI held when the gate closed at GENERATION.
bool TraceDaemon::closeAcknowledged(uint64_t generation) const {
  for (const auto& [name, source] : sources_) {
    if (source->reader->cudaState() != transport::CudaState::Tracing) continue;
    if (source->reader->gateAck() < generation && !processGone(*source)) return false;
  }
  return true;
}

void TraceDaemon::closeWindow(transport::WindowEndReason reason) {
  span_.reason = reason;
  for (const auto& [name, source] : sources_) {
    bool late = source->reader->cudaState() == transport::CudaState::Tracing && closingGeneration_ &&
                source->reader->gateAck() < closingGeneration_;
    if (late) ++span_.lateProcesses;
  }
  assembler_.closeWindow();
  try {
    sink_->windowClosed(span_, *this);
  } catch (const std::exception& error) {
    // One window's file failed (disk full): said by the sink; the next window tries again.
    fail(error);
  }
  writer_ = nullptr;
  // An opener waiting for this file may go on (transport::waitForPreviousWindow).
  if (closingGeneration_) gate_->finished.store(closingGeneration_, std::memory_order_release);
  closingGeneration_ = 0;
  windowEvents_.store(0, std::memory_order_relaxed);
}

}  // namespace gpuscope
