#pragma once
// FlightRecorder: `gpuscope launch --flight-recorder 60s --flight-memory 512M [--trigger slow:NAME:2x]`. The
// session records all along, in segments of a few seconds (the daemon cuts its window, DaemonOptions::
// segmentNs), each a complete trace file on tmpfs. Segments older than the kept span are deleted, and so are
// the oldest once the segments together pass the memory budget, so what is kept stays bounded. A dump
// (`gpuscope dump`, SIGUSR1 to the program, a crash of it, a slow range) ends the segment under way and writes
// the segments of the last span into one file (core/ranks/segment_concat.h), numbered as windows are, saying
// what triggered it; a trigger's range becomes the file's judged window (GPUSCOPE_META flight_trigger_*).
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "collector/daemon/trace_daemon.h"
#include "collector/launch/slow_range_trigger.h"
#include "collector/launch/window_files.h"

namespace gpuscope {

struct FlightOptions {
  int64_t keepNs = 60'000'000'000;
  int64_t memoryBytes = 512ll << 20;
  std::optional<SlowRangeRule> trigger;
};

// "60s", "2m", "500ms", "90" (seconds) as nanoseconds; "512M", "1G", "800K", "1000000" (bytes) as bytes.
// Throw TraceError with one sentence for anything else.
int64_t parseFlightDuration(const std::string& text);
int64_t parseFlightMemory(const std::string& text);

// How long a flight recorder's segments are: a twelfth of the kept span, 1 to 10 s; a segment that grows past an
// eighth of the memory budget ends sooner.
int64_t flightSegmentNs(int64_t keepNs);
// How often a flight recorder's daemon commits: the open segment's size on tmpfs then follows what it holds.
inline constexpr int kFlightCommitMs = 100;

class FlightRecorder : public WindowSink {
 public:
  // Segments go to SEGMENTDIR (created); dumps are named by NAMING (numbered) and say FACTS.
  FlightRecorder(FlightOptions options, std::string segmentDir, WindowNaming naming, WindowFileFacts facts);
  ~FlightRecorder() override;

  TraceWriter& windowOpened(const WindowSpan& span, CaptureWindow& window) override;
  void windowClosed(const WindowSpan& span, const TraceDaemon& daemon) override;
  // The segment under way (its file, journal and GPU lane) passed an eighth of the budget.
  bool segmentFull() override;

  // The daemon's hook: an NVTX range ended (its text, session-clock times).
  void rangeEnded(std::string_view text, int64_t start, int64_t end);
  // A slow range seen and not written yet (taken once).
  std::optional<SlowRange> takeTrigger();

  // Writes the last kept span into the next numbered file and returns its path. WHY says what asked for it
  // (GPUSCOPE_META flight_dump); TRIGGER, when given, is the range to judge. Ends the segment under way first
  // (DAEMON's thread does, this one waits). Throws TraceError with one sentence when nothing can be written.
  std::string dump(TraceDaemon& daemon, const std::string& why, const std::optional<SlowRange>& trigger);

  std::vector<std::string> written() const;
  // What the segments take on tmpfs now, and the most they took together.
  int64_t segmentBytes() const;
  int64_t peakSegmentBytes() const;
  uint64_t segmentsDroppedForMemory() const;

 private:
  struct Segment {
    std::string path;
    int64_t origin = 0, begin = 0, end = 0;  // session clock
    int64_t bytes = 0;
  };
  void keepWithinBounds(int64_t now);
  std::string nextDumpPath();

  FlightOptions options_;
  std::string segmentDir_;
  WindowNaming naming_;
  WindowFileFacts facts_;
  std::unique_ptr<TraceWriter> open_;  // the daemon thread's only
  Segment openSegment_;
  uint64_t nextSegment_ = 1;
  std::optional<SlowRangeWatch> watch_;  // the daemon thread's only
  mutable std::mutex lock_;              // guards the fields below
  std::deque<Segment> segments_;
  bool programEnded_ = false;
  std::optional<SlowRange> pendingTrigger_;
  std::vector<std::string> written_;
  int nextDump_ = 1;
  int64_t peakBytes_ = 0;
  uint64_t droppedForMemory_ = 0;
  std::mutex dumping_;  // one dump at a time
};

}  // namespace gpuscope
