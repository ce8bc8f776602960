#include "collector/inject/process_recorder.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "collector/inject/recorder_internal.h"
#include "collector/inject/tick_clock.h"
#include "collector/transport/ring_writer.h"
#include "collector/transport/session_clock.h"
#include "core/ranks/rank_variables.h"

namespace gpuscope::inject {

using transport::RecordType;
using transport::RingFileWriter;

__thread ThreadState t_threadState __attribute__((tls_model("initial-exec")));
std::atomic<bool> g_recording{false};
RecorderConfig g_config;

namespace {

// A definition kept for forked children: the record as it was written.
struct Definition {
  RecordType type;
  std::vector<uint8_t> body;
  std::string text;
};

// Everything below is created once and never destroyed: threads may still record while the
// process exits, after static destructors ran.
struct RecorderState {
  std::atomic<RingFileWriter*> file{nullptr};
  std::atomic<uint64_t> generation{0};
  std::atomic<uint64_t> ids{0};
  uint32_t pid = 0;
  char sessionDir[2048] = {};
  transport::RingFileConfig ringConfig;
  // `record --when-full drop`: a full ring drops (counted) instead of making the thread wait.
  bool dropWhenFull = false;
  std::mutex* definitionsLock = nullptr;
  std::vector<Definition>* definitions = nullptr;
  pthread_key_t threadKey{};
  std::atomic<int> forkHandlerCount{0};
  ForkChildHandler forkHandlers[8] = {};
  std::atomic<AbruptExitHandler> abruptExitHandler{nullptr};
  std::vector<std::string>* followEnvironment = nullptr;
  std::vector<const char*>* followEnvironmentPointers = nullptr;
};

constinit RecorderState g_state;

RecorderState& state() { return g_state; }

ProcessRecorder g_facade;

// Reads a small /proc file with raw system calls (open and read are interposed).
size_t readProcFile(const char* path, char* out, size_t capacity) {
  int fd = static_cast<int>(syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC));
  if (fd < 0) return 0;
  size_t total = 0;
  while (total + 1 < capacity) {
    long n = syscall(SYS_read, fd, out + total, capacity - 1 - total);
    if (n <= 0) break;
    total += static_cast<size_t>(n);
  }
  syscall(SYS_close, fd);
  out[total] = '\0';
  return total;
}

// Field 22 of /proc/self/stat (start time in clock ticks): with the pid it names a process uniquely.
uint64_t processStartTicks() {
  char text[1024];
  if (readProcFile("/proc/self/stat", text, sizeof text) == 0) return 0;
  const char* field = std::strrchr(text, ')');
  if (!field) return 0;
  // After ")" come field 3 (state) onwards; field 22 is the 20th after it.
  int index = 2;
  for (const char* p = field + 1; *p; ++p) {
    if (*p == ' ') {
      ++index;
      if (index == 22) return std::strtoull(p + 1, nullptr, 10);
    }
  }
  return 0;
}

void writeStderr(const char* text) { syscall(SYS_write, 2, text, std::strlen(text)); }

uint32_t osThreadId() { return static_cast<uint32_t>(syscall(SYS_gettid)); }

void emitProcessRecord(RingFileWriter& file, uint32_t pid, uint32_t ppid) {
  char name[64] = {};
  size_t length = readProcFile("/proc/self/comm", name, sizeof name);
  while (length > 0 && (name[length - 1] == '\n' || name[length - 1] == '\0')) --length;
  transport::ProcessBody body{pid, ppid, static_cast<uint32_t>(length), 0};
  std::string_view text(name, length);
  file.write(0, RecordType::Process, 0, pid, &body, sizeof body, &text, 1, 50'000'000);
}

// The first of NAMES set to a whole number >= 0, and its index in WHICH; -1 when none is. Only getenv and
// strtoll: this runs in a fork child too.
template <size_t N>
int64_t rankVariable(const char* const (&names)[N], uint32_t* which = nullptr) {
  for (size_t i = 0; i < N; ++i) {
    const char* text = std::getenv(names[i]);
    if (!text || !*text) continue;
    char* end = nullptr;
    long long value = std::strtoll(text, &end, 10);
    if (*end || value < 0) continue;
    if (which) *which = static_cast<uint32_t>(i);
    return value;
  }
  return -1;
}

// The launcher's rank variables (RANK, OMPI_COMM_WORLD_RANK, ...) and the host, when the process has a rank.
void emitRankRecord(RingFileWriter& file, uint32_t pid) {
  int savedErrno = errno;
  transport::RankBody body{};
  body.rank = rankVariable(rank_variables::kRank, &body.rankVariable);
  body.localRank = rankVariable(rank_variables::kLocalRank);
  body.worldSize = rankVariable(rank_variables::kWorldSize);
  errno = savedErrno;
  if (body.rank < 0) return;
  struct utsname names {};
  if (uname(&names) != 0) names.nodename[0] = '\0';
  std::string_view host(names.nodename, strnlen(names.nodename, sizeof names.nodename));
  body.hostLength = static_cast<uint32_t>(host.size());
  file.write(0, RecordType::Rank, 0, pid, &body, sizeof body, &host, 1, 50'000'000);
}

bool openRingFile(uint32_t ppid) {
  RecorderState& s = state();
  uint32_t pid = static_cast<uint32_t>(getpid());
  RingFileWriter* file =
      RingFileWriter::create(s.sessionDir, s.ringConfig, pid, ppid, processStartTicks(), transport::sessionClockNs());
  if (!file) {
    char message[2400];
    std::snprintf(message, sizeof message,
                  "gpuscope: process %u is not recorded: cannot create its trace ring in %s (%s)\n", pid, s.sessionDir,
                  std::strerror(errno));
    writeStderr(message);
    return false;
  }
  s.pid = pid;
  emitProcessRecord(*file, pid, ppid);
  emitRankRecord(*file, pid);
  s.file.store(file, std::memory_order_release);
  s.generation.fetch_add(1, std::memory_order_acq_rel);
  return true;
}

void releaseThreadRing(void*) {
  ThreadState& thread = t_threadState;
  RecorderState& s = state();
  RingFileWriter* file = s.file.load(std::memory_order_acquire);
  if (file && thread.generation == s.generation.load(std::memory_order_acquire)) file->releaseRing(thread.ring);
  thread.generation = 0;
  thread.ring = 0;
}

// Binds the calling thread to a ring of the current file and names it.
void attachThread(ThreadState& thread, RingFileWriter& file, uint64_t generation) {
  RecorderState& s = state();
  thread.tid = osThreadId();
  thread.ring = file.claimRing(thread.tid);
  thread.generation = generation;
  pthread_setspecific(s.threadKey, reinterpret_cast<void*>(uintptr_t{1}));
  char name[17] = {};
  prctl(PR_GET_NAME, name, 0, 0, 0);
  std::string_view text(name, strnlen(name, 16));
  transport::ThreadNameBody body{static_cast<uint32_t>(transport::ThreadNameSource::Os),
                                 static_cast<uint32_t>(text.size())};
  file.write(thread.ring, RecordType::ThreadName, 0, thread.tid, &body, sizeof body, &text, 1);
}

void beforeFork() {
  if (state().definitionsLock) state().definitionsLock->lock();
}

void afterForkInParent() {
  if (state().definitionsLock) state().definitionsLock->unlock();
}

void afterForkInChild() {
  RecorderState& s = state();
  if (!s.definitionsLock) return;
  // The lock was taken in beforeFork by this very thread; the parent's file is not ours any more.
  uint32_t parentPid = s.pid;
  RingFileWriter* parentFile = s.file.exchange(nullptr, std::memory_order_acq_rel);
  delete parentFile;  // unmaps our copy; the parent keeps writing into its own
  g_recording.store(false, std::memory_order_release);
  t_threadState = ThreadState{};
  if (openRingFile(parentPid)) {
    RingFileWriter* file = s.file.load(std::memory_order_acquire);
    for (const Definition& definition : *s.definitions) {
      std::string_view text(definition.text);
      file->write(0, definition.type, 0, s.pid, definition.body.data(), static_cast<uint32_t>(definition.body.size()),
                  &text, 1, 50'000'000);
    }
    g_recording.store(true, std::memory_order_release);
  }
  // Until it executes a program, a fork child's OS-runtime calls are left out (nsys's default).
  if (!g_config.osrtInForkChildren) g_config.traceOsrt = false;
  int handlers = s.forkHandlerCount.load(std::memory_order_acquire);
  for (int i = 0; i < handlers; ++i) s.forkHandlers[i]();
  s.definitionsLock->unlock();
}

bool parseBool(const char* list, const char* item) {
  if (!list) return false;
  size_t length = std::strlen(item);
  for (const char* p = list; *p;) {
    const char* end = std::strchr(p, ',');
    size_t n = end ? static_cast<size_t>(end - p) : std::strlen(p);
    if (n == length && std::strncmp(p, item, n) == 0) return true;
    if (!end) break;
    p = end + 1;
  }
  return false;
}

void keepForFollowing(std::vector<std::string>& entries, const char* name) {
  const char* value = std::getenv(name);
  if (value) entries.push_back(std::string(name) + "=" + value);
}

// The variables every program the target executes must inherit to be recorded too.
// clang-format off
constexpr const char* kFollowedVariables[] = {
    "LD_PRELOAD", "CUDA_INJECTION64_PATH", "NVTX_INJECTION64_PATH", "GPUSCOPE_SESSION_DIR", "GPUSCOPE_TRACE",
    "GPUSCOPE_OSRT_THRESHOLD_NS", "GPUSCOPE_RING_KB", "GPUSCOPE_RING_COUNT", "GPUSCOPE_METRICS",
    "GPUSCOPE_KERNEL_REGEX", "GPUSCOPE_KERNEL_COUNT", "GPUSCOPE_RECORDER_PID", "GPUSCOPE_WHEN_FULL",
    "GPUSCOPE_OSRT_FORK_CHILDREN", "GPUSCOPE_CUDA_SYNC", "GPUSCOPE_CUPTI_CLOCK", "GPUSCOPE_CUPTI_FLUSH_MS",
    "GPUSCOPE_CUPTI_SUBSCRIBE", "GPUSCOPE_OSRT_BACKTRACE_THRESHOLD_NS", "GPUSCOPE_OSRT_BACKTRACE_DEPTH", "GPUSCOPE_FLIGHT_SIGNAL"};
// clang-format on

__attribute__((constructor)) void startRecording() {
  const char* dir = std::getenv("GPUSCOPE_SESSION_DIR");
  if (!dir || !*dir) return;
  RecorderState& s = state();
  if (std::strlen(dir) >= sizeof s.sessionDir) return;
  std::strcpy(s.sessionDir, dir);
  TickClock::initialize();
  const char* traces = std::getenv("GPUSCOPE_TRACE");
  g_config.traceOsrt = parseBool(traces, "osrt");
  g_config.traceNvtx = parseBool(traces, "nvtx");
  g_config.traceCuda = parseBool(traces, "cuda");
  if (const char* threshold = std::getenv("GPUSCOPE_OSRT_THRESHOLD_NS")) {
    g_config.osrtThresholdNs = std::strtoll(threshold, nullptr, 10);
  }
  if (const char* threshold = std::getenv("GPUSCOPE_OSRT_BACKTRACE_THRESHOLD_NS"))
    g_config.osrtBacktraceThresholdNs = std::strtoll(threshold, nullptr, 10);
  if (const char* depth = std::getenv("GPUSCOPE_OSRT_BACKTRACE_DEPTH")) {
    long value = std::strtol(depth, nullptr, 10);
    g_config.osrtBacktraceDepth =
        static_cast<int>(std::clamp<long>(value, 0, static_cast<long>(transport::kMaxOsrtBacktraceFrames) - 1));
  }
  if (const char* forkChildren = std::getenv("GPUSCOPE_OSRT_FORK_CHILDREN")) {
    g_config.osrtInForkChildren = std::strcmp(forkChildren, "1") == 0;
  }
  if (const char* sync = std::getenv("GPUSCOPE_CUDA_SYNC")) g_config.traceCudaSync = std::strcmp(sync, "1") == 0;
  if (const char* kib = std::getenv("GPUSCOPE_RING_KB")) {
    uint64_t value = std::strtoull(kib, nullptr, 10);
    if (value >= 4) s.ringConfig.ringBytes = value * 1024;
  }
  if (const char* count = std::getenv("GPUSCOPE_RING_COUNT")) {
    uint64_t value = std::strtoull(count, nullptr, 10);
    if (value >= 1 && value <= 1024) s.ringConfig.ringCount = static_cast<uint32_t>(value);
  }
  if (const char* recorder = std::getenv("GPUSCOPE_RECORDER_PID")) {
    uint64_t value = std::strtoull(recorder, nullptr, 10);
    if (value > 0 && value < (uint64_t{1} << 31)) s.ringConfig.consumerPid = static_cast<uint32_t>(value);
  }
  if (const char* whenFull = std::getenv("GPUSCOPE_WHEN_FULL")) s.dropWhenFull = std::strcmp(whenFull, "drop") == 0;
  s.definitionsLock = new std::mutex();
  s.definitions = new std::vector<Definition>();
  s.followEnvironment = new std::vector<std::string>();
  for (const char* name : kFollowedVariables) {
    keepForFollowing(*s.followEnvironment, name);
  }
  s.followEnvironmentPointers = new std::vector<const char*>();
  for (const std::string& entry : *s.followEnvironment) s.followEnvironmentPointers->push_back(entry.c_str());
  s.followEnvironmentPointers->push_back(nullptr);
  if (pthread_key_create(&s.threadKey, releaseThreadRing) != 0) return;
  pthread_atfork(beforeFork, afterForkInParent, afterForkInChild);
  if (!openRingFile(static_cast<uint32_t>(getppid()))) return;
  mapCaptureGate(s.sessionDir);
  // glibc's backtrace() loads libgcc's unwinder on its first call: done here, before any call is timed,
  // rather than inside a wrapper, where the program may hold locks.
  if (g_config.traceOsrt && g_config.osrtBacktraceDepth > 0) {
    void* frames[2];
    backtrace(frames, 2);
  }
  g_recording.store(true, std::memory_order_release);
}

__attribute__((destructor)) void finishRecording() {
  RingFileWriter* file = state().file.load(std::memory_order_acquire);
  if (file) {
    file->header().state.store(static_cast<uint32_t>(transport::ProcessState::Exited), std::memory_order_release);
  }
}

}  // namespace

ProcessRecorder* ProcessRecorder::get() { return g_recording.load(std::memory_order_acquire) ? &g_facade : nullptr; }

const RecorderConfig& ProcessRecorder::config() const { return g_config; }

uint32_t ProcessRecorder::pid() const { return state().pid; }

uint32_t ProcessRecorder::currentTid() {
  ThreadState& thread = t_threadState;
  return thread.generation != 0 ? thread.tid : osThreadId();
}

bool ProcessRecorder::emit(RecordType type, uint16_t aux, const void* body, uint32_t bodyBytes,
                           std::initializer_list<std::string_view> texts, uint32_t tid, int64_t waitNs) {
  ThreadState& thread = t_threadState;
  RecorderState& s = state();
  RingFileWriter* file = s.file.load(std::memory_order_acquire);
  if (!file) return false;
  if (thread.busy) {
    file->countLost();
    return false;
  }
  thread.busy = 1;
  uint64_t generation = s.generation.load(std::memory_order_acquire);
  if (thread.generation != generation) attachThread(thread, *file, generation);
  int64_t wait = s.dropWhenFull ? waitNs : transport::kWaitWhileConsumerLives;
  bool written =
      file->write(thread.ring, type, aux, tid ? tid : thread.tid, body, bodyBytes, texts.begin(), texts.size(), wait);
  thread.busy = 0;
  return written;
}

bool ProcessRecorder::define(RecordType type, const void* body, uint32_t bodyBytes, std::string_view text) {
  RecorderState& s = state();
  ThreadState& thread = t_threadState;
  std::lock_guard<std::mutex> lock(*s.definitionsLock);
  RingFileWriter* file = s.file.load(std::memory_order_acquire);
  if (!file) return false;
  const auto* bytes = static_cast<const uint8_t*>(body);
  s.definitions->push_back({type, std::vector<uint8_t>(bytes, bytes + bodyBytes), std::string(text)});
  uint32_t saved = thread.busy;
  thread.busy = 1;
  int64_t wait = s.dropWhenFull ? 50'000'000 : transport::kWaitWhileConsumerLives;
  bool written = file->write(0, type, 0, currentTid(), body, bodyBytes, &text, 1, wait);
  thread.busy = saved;
  return written;
}

uint64_t ProcessRecorder::nextId() { return state().ids.fetch_add(1, std::memory_order_relaxed) + 1; }

void ProcessRecorder::setCudaState(uint32_t cudaState) {
  RingFileWriter* file = state().file.load(std::memory_order_acquire);
  if (file) file->header().cudaState.store(cudaState, std::memory_order_release);
}

void ProcessRecorder::acknowledgeGate(uint64_t generation) {
  RingFileWriter* file = state().file.load(std::memory_order_acquire);
  if (file) file->header().gateAck.store(generation, std::memory_order_release);
}

void ProcessRecorder::countLost() {
  RingFileWriter* file = state().file.load(std::memory_order_acquire);
  if (file) file->countLost();
}

void registerForkChildHandler(ForkChildHandler handler) {
  RecorderState& s = state();
  int index = s.forkHandlerCount.load(std::memory_order_acquire);
  if (index >= static_cast<int>(sizeof s.forkHandlers / sizeof s.forkHandlers[0])) return;
  s.forkHandlers[index] = handler;
  s.forkHandlerCount.store(index + 1, std::memory_order_release);
}

void registerAbruptExitHandler(AbruptExitHandler handler) {
  state().abruptExitHandler.store(handler, std::memory_order_release);
}

void runAbruptExitHandler(const char* how) {
  AbruptExitHandler handler = state().abruptExitHandler.load(std::memory_order_acquire);
  if (handler) handler(how);
}

void markToolThread() { t_threadState.toolThread = 1; }

int64_t sessionTickNs() { return TickClock::now(); }

bool setOwnWork(bool on) {
  bool was = t_threadState.toolThread != 0;
  t_threadState.toolThread = on ? 1 : 0;
  return was;
}

namespace {
struct CodeRange {
  std::atomic<uintptr_t> begin{0};
  std::atomic<uintptr_t> end{0};
};
constexpr int kMaxOwnCode = 16;
CodeRange g_ownCode[kMaxOwnCode];
std::atomic<int> g_ownCodeCount{0};
}  // namespace

void addOwnCode(uintptr_t begin, uintptr_t end) {
  int index = g_ownCodeCount.load(std::memory_order_acquire);
  if (index >= kMaxOwnCode || begin >= end) return;
  g_ownCode[index].begin.store(begin, std::memory_order_relaxed);
  g_ownCode[index].end.store(end, std::memory_order_relaxed);
  g_ownCodeCount.store(index + 1, std::memory_order_release);
}

bool isOwnCode(const void* address) {
  auto at = reinterpret_cast<uintptr_t>(address);
  int count = g_ownCodeCount.load(std::memory_order_acquire);
  for (int i = 0; i < count; ++i) {
    if (at >= g_ownCode[i].begin.load(std::memory_order_relaxed) &&
        at < g_ownCode[i].end.load(std::memory_order_relaxed))
      return true;
  }
  return false;
}

const char* const* followEnvironment() {
  static const char* const kEmpty[] = {nullptr};
  RecorderState& s = state();
  return s.followEnvironmentPointers ? s.followEnvironmentPointers->data() : kEmpty;
}

}  // namespace gpuscope::inject
