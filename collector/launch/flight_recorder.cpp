#include "collector/launch/flight_recorder.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <thread>

#include "collector/transport/session_clock.h"
#include "core/error.h"
#include "core/ranks/segment_concat.h"

namespace gpuscope {
namespace fs = std::filesystem;

namespace {

// NUMBER and the unit after it: "60s" -> {60, "s"}; nullopt when TEXT does not start with a number.
std::optional<std::pair<double, std::string>> numberAndUnit(const std::string& text) {
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || !std::isfinite(value) || value <= 0) return std::nullopt;
  std::string unit(end);
  for (char& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return std::make_pair(value, unit);
}

int64_t fileBytes(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0 ? static_cast<int64_t>(info.st_blocks) * 512 : 0;
}

constexpr auto kRotationWait = std::chrono::seconds(10);

}  // namespace

int64_t parseFlightDuration(const std::string& text) {
  auto parsed = numberAndUnit(text);
  double scale = 0;
  if (parsed) {
    const std::string& unit = parsed->second;
    if (unit.empty() || unit == "s") scale = 1e9;
    if (unit == "ms") scale = 1e6;
    if (unit == "m" || unit == "min") scale = 60e9;
    if (unit == "h") scale = 3600e9;
  }
  if (!parsed || scale == 0 || parsed->first * scale < 1e9 || parsed->first * scale > 86400e9)
    throw TraceError("--flight-recorder takes a span from 1 s to 24 h, as in 60s, 2m or 500 (seconds), not '" + text +
                     "'");
  return static_cast<int64_t>(parsed->first * scale);
}

int64_t parseFlightMemory(const std::string& text) {
  auto parsed = numberAndUnit(text);
  double scale = 0;
  if (parsed) {
    const std::string& unit = parsed->second;
    if (unit.empty() || unit == "b") scale = 1;
    if (unit == "k" || unit == "kb" || unit == "kib") scale = 1024;
    if (unit == "m" || unit == "mb" || unit == "mib") scale = 1024.0 * 1024;
    if (unit == "g" || unit == "gb" || unit == "gib") scale = 1024.0 * 1024 * 1024;
  }
  if (!parsed || scale == 0 || parsed->first * scale < 16.0 * 1024 * 1024)
    throw TraceError("--flight-memory takes a size of 16M or more, as in 512M or 2G, not '" + text + "'");
  return static_cast<int64_t>(parsed->first * scale);
}

int64_t flightSegmentNs(int64_t keepNs) { return std::clamp<int64_t>(keepNs / 12, 1'000'000'000, 10'000'000'000); }

FlightRecorder::FlightRecorder(FlightOptions options, std::string segmentDir, WindowNaming naming,
                               WindowFileFacts facts)
    : options_(std::move(options)),
      segmentDir_(std::move(segmentDir)),
      naming_(std::move(naming)),
      facts_(std::move(facts)) {
  fs::create_directories(segmentDir_);
  if (options_.trigger) watch_.emplace(*options_.trigger);
}

FlightRecorder::~FlightRecorder() {
  std::error_code error;
  fs::remove_all(segmentDir_, error);
}

TraceWriter& FlightRecorder::windowOpened(const WindowSpan& span, CaptureWindow& window) {
  openSegment_ = Segment{};
  openSegment_.path = segmentDir_ + "/segment-" + std::to_string(nextSegment_++) + ".sqlite";
  openSegment_.origin = window.origin;
  openSegment_.begin = span.begin;
  WriterOptions writer = facts_.writer;
  open_ = std::make_unique<TraceWriter>(openSegment_.path, writer);
  return *open_;
}

bool FlightRecorder::segmentFull() {
  if (!open_) return false;
  const std::string& path = openSegment_.path;
  int64_t bytes = fileBytes(path) + fileBytes(path + "-journal") + fileBytes(path + ".gpu-lane");
  return bytes > options_.memoryBytes / 8;
}

void FlightRecorder::windowClosed(const WindowSpan& span, const TraceDaemon&) {
  if (!open_) return;
  open_->finish();
  open_.reset();
  openSegment_.end = span.end;
  openSegment_.bytes = fileBytes(openSegment_.path);
  std::lock_guard<std::mutex> guard(lock_);
  segments_.push_back(openSegment_);
  if (span.reason == transport::WindowEndReason::ProgramEnded) programEnded_ = true;
  keepWithinBounds(span.end);
}

// Deletes the segments wholly older than the kept span, then the oldest while the rest, with room for the
// segment being written, pass the budget: the tmpfs total stays under it while the next segment grows. The
// newest always stays. The caller holds the lock.
void FlightRecorder::keepWithinBounds(int64_t now) {
  auto drop = [&] {
    std::error_code error;
    fs::remove(segments_.front().path, error);
    segments_.pop_front();
  };
  while (segments_.size() > 1 && segments_[1].begin <= now - options_.keepNs) drop();
  auto total = [&] {
    int64_t bytes = 0;
    for (const Segment& segment : segments_) bytes += segment.bytes;
    return bytes;
  };
  auto largest = [&] {
    int64_t bytes = 0;
    for (const Segment& segment : segments_) bytes = std::max(bytes, segment.bytes);
    return bytes;
  };
  // Twice the largest: the segment under way grows to about its size, and finishing it (its indexes, their
  // journal) takes as much again for a moment.
  while (segments_.size() > 1 && total() + 2 * largest() > options_.memoryBytes) {
    drop();
    ++droppedForMemory_;
  }
  peakBytes_ = std::max(peakBytes_, total());
}

void FlightRecorder::rangeEnded(std::string_view text, int64_t start, int64_t end) {
  if (!watch_) return;
  std::optional<SlowRange> slow = watch_->observe(text, start, end);
  if (!slow) return;
  std::lock_guard<std::mutex> guard(lock_);
  if (!pendingTrigger_) pendingTrigger_ = std::move(slow);
}

std::optional<SlowRange> FlightRecorder::takeTrigger() {
  std::lock_guard<std::mutex> guard(lock_);
  return std::exchange(pendingTrigger_, std::nullopt);
}

std::string FlightRecorder::nextDumpPath() {
  for (;; ++nextDump_) {
    std::string candidate = numberedPath(naming_.path, nextDump_);
    std::error_code error;
    if (naming_.forceOverwrite || !fs::exists(candidate, error)) return numberedPath(naming_.path, nextDump_++);
  }
}

std::string FlightRecorder::dump(TraceDaemon& daemon, const std::string& why, const std::optional<SlowRange>& trigger) {
  std::lock_guard<std::mutex> one(dumping_);
  bool ended = false;
  {
    std::lock_guard<std::mutex> guard(lock_);
    ended = programEnded_;
  }
  if (!ended) {
    // The segment under way goes to disk first.
    uint64_t before = daemon.segmentsClosed();
    daemon.requestRotation();
    auto deadline = std::chrono::steady_clock::now() + kRotationWait;
    // The lock only around the look: the daemon's thread takes it to keep the segment it is closing.
    auto programEnded = [&] {
      std::lock_guard<std::mutex> guard(lock_);
      return programEnded_;
    };
    while (daemon.segmentsClosed() == before && std::chrono::steady_clock::now() < deadline && !programEnded())
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  // The chosen segments are pinned by a second name (a hard link) while they are copied: the daemon may drop
  // them meanwhile to stay within the budget, and the copy still reads them whole.
  std::vector<Segment> chosen;
  int64_t now = transport::sessionClockNs();
  {
    std::lock_guard<std::mutex> guard(lock_);
    for (Segment segment : segments_) {
      if (segment.end < now - options_.keepNs) continue;
      std::string pinned = segment.path + ".dumping";
      if (link(segment.path.c_str(), pinned.c_str()) != 0) continue;
      segment.path = pinned;
      chosen.push_back(segment);
    }
  }
  struct Unpin {
    const std::vector<Segment>& segments;
    ~Unpin() {
      for (const Segment& segment : segments) unlink(segment.path.c_str());
    }
  } unpin{chosen};
  if (chosen.empty()) throw TraceError("the flight recorder holds no events yet to write");
  int64_t origin = chosen.front().origin;
  std::vector<TraceSegment> parts;
  for (const Segment& segment : chosen) parts.push_back({segment.path, segment.origin - origin});
  SegmentConcatFile file;
  file.writer = facts_.writer;
  int64_t nowUtc =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  file.sessionStartUtcNs = nowUtc - (now - origin);
  file.meta = {{"record_options", facts_.recordOptions},
               {"clock_origin_ns", std::to_string(origin)},
               {"capture_trigger", "flight-recorder"},
               {"flight_dump", why},
               {"flight_span_ns", std::to_string(now - origin)},
               {"flight_segments", std::to_string(chosen.size())},
               {"flight_segments_dropped_for_memory", std::to_string(segmentsDroppedForMemory())}};
  if (!facts_.kernelNameDemangler.empty()) file.meta.emplace_back("kernel_name_demangler", facts_.kernelNameDemangler);
  if (trigger) {
    char text[256];
    std::snprintf(text, sizeof text, "'%s' took %.3f ms, %.1fx the running median %.3f ms of its name",
                  trigger->text.c_str(), static_cast<double>(trigger->end - trigger->start) / 1e6, trigger->ratio,
                  static_cast<double>(trigger->medianNs) / 1e6);
    file.meta.emplace_back("flight_trigger", text);
    file.meta.emplace_back("flight_trigger_start_ns", std::to_string(trigger->start - origin));
    file.meta.emplace_back("flight_trigger_end_ns", std::to_string(trigger->end - origin));
  }
  std::string path = nextDumpPath();
  concatenateSegments(parts, path, file);
  std::lock_guard<std::mutex> guard(lock_);
  written_.push_back(path);
  return path;
}

std::vector<std::string> FlightRecorder::written() const {
  std::lock_guard<std::mutex> guard(lock_);
  return written_;
}

int64_t FlightRecorder::segmentBytes() const {
  std::lock_guard<std::mutex> guard(lock_);
  int64_t bytes = 0;
  for (const Segment& segment : segments_) bytes += segment.bytes;
  return bytes;
}

int64_t FlightRecorder::peakSegmentBytes() const {
  std::lock_guard<std::mutex> guard(lock_);
  return peakBytes_;
}

uint64_t FlightRecorder::segmentsDroppedForMemory() const {
  std::lock_guard<std::mutex> guard(lock_);
  return droppedForMemory_;
}

}  // namespace gpuscope
