#pragma once
// GroupSignalWitness: tells a signal sent to `record`'s whole process group from one sent to
// `record` alone, so that the program, which shares the group, gets each signal exactly once.
//
// A terminal's Ctrl-C, or `kill -INT -PGID`, reaches every process of the group: the program has it
// already, and passing it on would deliver it twice (a Python program would raise KeyboardInterrupt
// twice). `kill -INT PID` reaches `record` only, and must be passed on. The signal's own siginfo
// cannot tell `kill(pid)` from `kill(-pgid)`, so a witness does: a child that stays in the group
// with the handled signals blocked and does nothing, so a group signal stays pending in it, where
// /proc/PID/status (ShdPnd) shows it.
#include <signal.h>
#include <sys/types.h>

namespace gpuscope {

class GroupSignalWitness {
 public:
  // Forks the witness with BLOCKED blocked (the signals `record` handles). If fork fails there is
  // no witness, and active() is false.
  explicit GroupSignalWitness(const sigset_t& blocked);
  // Kills and reaps the witness.
  ~GroupSignalWitness();
  GroupSignalWitness(const GroupSignalWitness&) = delete;
  GroupSignalWitness& operator=(const GroupSignalWitness&) = delete;

  bool active() const { return pid_ > 0; }
  // Whether SIGNAL, just received by `record`, was sent to the whole process group. When it was,
  // a fresh witness takes over (a pending signal cannot be seen twice), so the next signal is
  // judged on its own.
  bool sentToGroup(int signal);

 private:
  static pid_t start(const sigset_t& blocked);
  static void stop(pid_t pid);

  sigset_t blocked_{};
  pid_t pid_ = -1;
};

// Whether the signal `record` received as INFO must be passed on to PROGRAM: not when it reached
// the program already, sent to a process group they share. Without a witness, a signal the kernel
// sent (si_code > 0: the terminal's Ctrl-C) is taken to have reached the program.
bool mustPassOn(GroupSignalWitness& witness, const siginfo_t& info, pid_t program);

}  // namespace gpuscope
