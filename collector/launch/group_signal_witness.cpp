#include "collector/launch/group_signal_witness.h"

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <string>

namespace gpuscope {
namespace {

// The signals pending for the whole of process PID (ShdPnd in /proc/PID/status), bit N-1 for
// signal N; 0 when it cannot be read.
uint64_t sharedPendingSignals(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("ShdPnd:", 0) == 0) return std::stoull(line.substr(7), nullptr, 16);
  }
  return 0;
}

}  // namespace

GroupSignalWitness::GroupSignalWitness(const sigset_t& blocked) : blocked_(blocked), pid_(start(blocked)) {}

GroupSignalWitness::~GroupSignalWitness() { stop(pid_); }

pid_t GroupSignalWitness::start(const sigset_t& blocked) {
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid != 0) return pid;
  // Only async-signal-safe calls: the recorder's other threads may hold locks we inherited. The
  // witness holds no file open (a pipe reader waiting for `record`'s stderr to close must not
  // wait for it), and dies with the recorder, even one killed with SIGKILL.
  sigprocmask(SIG_SETMASK, &blocked, nullptr);
  close_range(0, ~0U, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(0);
  for (;;) pause();
}

void GroupSignalWitness::stop(pid_t pid) {
  if (pid <= 0) return;
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
}

bool GroupSignalWitness::sentToGroup(int signal) {
  if (!active() || signal <= 0 || signal > 64) return false;
  if ((sharedPendingSignals(pid_) & (uint64_t{1} << (signal - 1))) == 0) return false;
  // The new witness first, so that no group signal falls between the two.
  pid_t fresh = start(blocked_);
  stop(pid_);
  pid_ = fresh;
  return true;
}

bool mustPassOn(GroupSignalWitness& witness, const siginfo_t& info, pid_t program) {
  if (!witness.active()) return info.si_code <= 0;
  bool sameGroup = getpgid(program) == getpgrp();
  return !(witness.sentToGroup(info.si_signo) && sameGroup);
}

}  // namespace gpuscope
