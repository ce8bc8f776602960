#pragma once
// The session gate: one page, <session dir>/gate, that the recorder and every recorded process map shared.
// It says whether events are recorded now. Closed, a process keeps no NVTX mark, no OS-runtime call and no
// CUDA activity (its CUPTI kinds are disabled), so a program launched under the collector pays next to
// nothing between recordings. Opened and closed by:
//   - the recorder: `record` (open from the start), `gpuscope start` / `stop` / `cancel` on a session;
//   - a recorded process, for a capture range (`record --capture-range cudaProfilerApi|nvtx`): the thread that
//     calls cudaProfilerStart or pushes the named NVTX range opens it, the matching stop or pop closes it.
// Whoever opens it writes openedAt before the release store of open, and closedAt before closing it, so
// the daemon, which reads the gate before each pass over the rings, knows each window's times before it
// reads any record of it. generation counts the changes: a CUDA worker that disabled its kinds and flushed
// CUPTI after a close stores the generation it flushed for in its ring file header (gateAck), and the daemon
// waits for that before it ends the window's file.
#include <atomic>
#include <cstdint>
#include <string>

namespace gpuscope::transport {

inline constexpr uint64_t kSessionGateMagic = 0x3145544147'5047ull;  // "GPGATE1", little-endian
inline constexpr uint32_t kSessionGateVersion = 1;

// Who opens and closes the gate.
enum class CaptureTrigger : uint32_t {
  Recorder = 0,         // the recorder only (record, launch/start/stop)
  CudaProfilerApi = 1,  // cudaProfilerStart / cudaProfilerStop (and cuProfilerStart / cuProfilerStop)
  Nvtx = 2,             // the NVTX range named in nvtxName@nvtxDomain
};

// What happens when a capture range ends (nsys's --capture-range-end).
enum class CaptureRangeEnd : uint32_t {
  Stop = 0,          // the file is written; later ranges are ignored; the program runs on
  StopShutdown = 1,  // the file is written and the program is ended
  Repeat = 2,        // each range writes its own file, rangesLeft of them (-1: no limit)
  None = 3,          // the range's end is ignored: the recording goes on to the program's end
};

// Why a window closed, for the file and the summary.
enum class WindowEndReason : uint32_t {
  Stopped = 0,
  Cancelled = 1,
  ProgramEnded = 2,
  Rotated = 3,  // a flight recorder's segment ended; the next one goes on (the gate stays open)
};

struct SessionGate {
  uint64_t magic;
  uint32_t version;
  uint32_t trigger;                    // CaptureTrigger
  std::atomic<uint32_t> open;          // 1 while events are recorded
  std::atomic<uint32_t> endReason;     // WindowEndReason of the last close
  std::atomic<uint64_t> generation;    // +1 at every open and every close: odd while open
  std::atomic<int64_t> openedAt;       // session clock of the last open
  std::atomic<int64_t> closedAt;       // session clock of the last close
  std::atomic<int32_t> rangesLeft;     // capture ranges still to honour (-1: no limit)
  uint32_t rangeEnd;                   // CaptureRangeEnd
  std::atomic<uint32_t> openerPid;     // the process that opened the gate for a capture range
  std::atomic<uint32_t> rangesTaken;   // capture ranges begun so far
  std::atomic<uint32_t> changing;      // 1 while one opener or closer writes the fields above
  std::atomic<uint64_t> finished;      // the daemon: the close generation whose window's file is done
  std::atomic<uint64_t> dumpRequests;  // a flight recorder's program got SIGUSR1 this many times
  char nvtxName[512];                  // Nvtx: the range's message, NUL-terminated
  char nvtxDomain[256];                // Nvtx: its domain ("" the default domain, "*" any)
  char reserved[4096 - 856];
};
static_assert(sizeof(SessionGate) == 4096);
static_assert(std::atomic<int64_t>::is_always_lock_free, "the gate is shared between processes");

// <session dir>/gate.
std::string gatePath(const std::string& sessionDir);

}  // namespace gpuscope::transport

namespace gpuscope::transport {

// The recorder's side: creates <session dir>/gate, closed, for TRIGGER. Throws TraceError when it cannot.
class SessionGateFile {
 public:
  SessionGateFile(const std::string& sessionDir, CaptureTrigger trigger, CaptureRangeEnd rangeEnd, int32_t ranges,
                  const std::string& nvtxName, const std::string& nvtxDomain);
  ~SessionGateFile();
  SessionGateFile(const SessionGateFile&) = delete;
  SessionGateFile& operator=(const SessionGateFile&) = delete;
  SessionGate& gate() { return *gate_; }
  const SessionGate& gate() const { return *gate_; }

 private:
  SessionGate* gate_ = nullptr;
};

// A recorded process's side: maps the gate of SESSIONDIR read-write; nullptr when there is none (a recorder
// from before gates, or a file that is not one).
SessionGate* mapSessionGate(const char* sessionDir);

// Opens GATE at NOW (false when it was open already). Openers and closers take turns through `changing`, so
// a reader that sees an odd generation (acquire) sees that window's openedAt.
bool openGate(SessionGate& gate, int64_t now);
// Waits, up to TIMEOUTNS, until the daemon has finished the file of the window GATE's last close ended, so a
// window opened right after another (repeated capture ranges a step apart) gets a file of its own. True when
// it did (or there was none); false after the timeout, when the new window opens anyway.
bool waitForPreviousWindow(const SessionGate& gate, int64_t timeoutNs);
// True while GATE is open, by its generation (the daemon's view).
inline bool gateIsOpen(uint64_t generation) { return generation % 2 == 1; }
// Closes GATE at NOW for REASON (false when it was closed already).
bool closeGate(SessionGate& gate, int64_t now, WindowEndReason reason);

}  // namespace gpuscope::transport
