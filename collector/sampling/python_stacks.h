#pragma once
// PythonStacks: the Python call stack of a sampled thread, read from the interpreter's own memory while the
// program runs (process_vm_readv, without stopping it), as py-spy does: from _PyRuntime to the thread's
// state, its current frame and each caller, with each frame's function, file and current line.
//
// The layouts of CPython's structures differ between versions; the offsets of each supported version are
// in python_layout.cpp. Versions without them (and CPython 3.12+'s perf trampoline) are named by
// the perf map instead, without lines.
#include <sys/types.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace gpuscope::sampling {

struct PythonLayout;

struct PythonFrame {
  uint32_t function = 0;  // index into PythonStacks::functions()
  int line = 0;           // the line executing (the call, in a caller), 0 when unknown
};

struct PythonFunction {
  std::string name;  // the qualified name: "Model.forward"
  std::string file;
};

class PythonStacks {
 public:
  // A mapping of PID's file PATH: when it is a CPython interpreter of a supported version, its _PyRuntime
  // (at RUNTIME_ADDRESS in the process) is where that process's stacks are read from.
  void addInterpreter(pid_t pid, const std::string& path, uint64_t runtimeAddress);
  bool knowsProcess(pid_t pid) const { return processes_.count(pid) != 0; }
  // CHILD, forked from PARENT, runs the same interpreter at the same addresses.
  void inherit(pid_t parent, pid_t child);

  // TID's Python frames, innermost first; empty when the thread runs no Python code (yet) or cannot be read.
  std::vector<PythonFrame> read(pid_t pid, pid_t tid);

  const std::vector<PythonFunction>& functions() const { return functions_; }
  uint64_t failedReads() const { return failedReads_; }

 private:
  struct CodeInfo {
    uint64_t name = 0, file = 0, linetable = 0;  // the object addresses the cached texts were read from
    uint32_t function = 0;
    int firstLine = 0;
    std::string lines;  // co_linetable's bytes
  };
  struct Process {
    const PythonLayout* layout = nullptr;
    uint64_t runtime = 0;
    std::unordered_map<pid_t, uint64_t> threadStates;  // by native thread id
    std::unordered_map<uint64_t, CodeInfo> code;       // by code object address
  };
  std::optional<uint64_t> threadState(Process& process, pid_t pid, pid_t tid);
  const CodeInfo* codeInfo(Process& process, pid_t pid, uint64_t address);
  // Each frame's code object and its line, innermost first, from the thread's current frame FRAME.
  void readInterpreterFrames(Process& process, pid_t pid, uint64_t frame, std::vector<PythonFrame>& frames);
  void readFrameObjects(Process& process, pid_t pid, uint64_t frame, std::vector<PythonFrame>& frames);
  uint32_t functionId(const std::string& name, const std::string& file);

  std::unordered_map<pid_t, Process> processes_;
  std::vector<PythonFunction> functions_;
  std::map<std::pair<std::string, std::string>, uint32_t> functionIds_;
  uint64_t failedReads_ = 0;
};

// The "3.11" of an interpreter file name (python3.11, libpython3.11.so.1.0), or "" when PATH is none.
std::string pythonVersionOf(const std::string& path);
// Whether gpuscope knows the structure layout of CPython VERSION ("3.11").
bool pythonLayoutKnown(const std::string& version);

// The line of a code unit OFFSET in a CPython 3.11+ location table (co_linetable), starting at FIRST_LINE;
// 0 when the table does not reach it.
int lineOfCodeUnit(const std::string& table, int firstLine, int offset);
// The line of the instruction INSTRUCTION (f_lasti) in a CPython 3.10 line table: (bytes, line delta) pairs,
// a delta of -128 for code of no line. 0 when the table does not reach it or the code has no line.
int lineOfInstruction310(const std::string& table, int firstLine, int instruction);

}  // namespace gpuscope::sampling
