#pragma once
// Where CPython keeps what a stack read needs, per version: byte offsets into its structures on x86-64.
#include <cstdint>
#include <string_view>

namespace gpuscope::sampling {

inline constexpr uint64_t kNoCFrame = UINT64_MAX;

struct PythonLayout {
  std::string_view version;
  // 3.10 and before: frames are PyFrameObjects (f_back, f_code, f_lasti in instructions) with the 3.10 line
  // table, threads are known by pthread_t only, code objects have no qualified name. The fields below then
  // hold: threadNativeId PyThreadState.thread_id, threadCFrame kNoCFrame, cframeCurrentFrame
  // PyThreadState.frame, frameCode f_code, framePrevious f_back, framePrevInstr f_lasti, codeQualname co_name,
  // codeUnits the bytes of the code object read.
  bool frameObjects = false;
  uint64_t runtimeInterpreters;  // _PyRuntimeState.interpreters.head
  uint64_t interpNext;           // PyInterpreterState.next
  uint64_t interpThreads;        // PyInterpreterState.threads.head
  uint64_t threadNext;           // PyThreadState.next
  uint64_t threadNativeId;       // PyThreadState.native_thread_id
  uint64_t threadCFrame;         // PyThreadState.cframe; kNoCFrame from 3.13, which has no _PyCFrame
  uint64_t cframeCurrentFrame;   // _PyCFrame.current_frame; from 3.13, PyThreadState.current_frame
  uint64_t frameCode;            // _PyInterpreterFrame.f_code (3.13: f_executable)
  uint64_t framePrevious;        // _PyInterpreterFrame.previous
  uint64_t framePrevInstr;       // _PyInterpreterFrame.prev_instr (3.13: instr_ptr; both the instruction running)
  uint64_t frameOwner;           // _PyInterpreterFrame.owner
  int frameOwnedByCStack;        // the owner value of a C-stack shim frame, -1 where there is none
  uint64_t codeFirstLine;        // PyCodeObject.co_firstlineno
  uint64_t codeFilename;         // PyCodeObject.co_filename
  uint64_t codeQualname;         // PyCodeObject.co_qualname
  uint64_t codeLinetable;        // PyCodeObject.co_linetable
  uint64_t codeUnits;            // PyCodeObject.co_code_adaptive
  uint64_t bytesSize;            // PyVarObject.ob_size
  uint64_t bytesData;            // PyBytesObject.ob_sval
  uint64_t unicodeLength;        // PyASCIIObject.length
  uint64_t unicodeState;         // PyASCIIObject.state
  uint64_t asciiData;            // sizeof(PyASCIIObject)
  uint64_t compactData;          // sizeof(PyCompactUnicodeObject)
};

// The layout of VERSION ("3.11"), or nullptr when gpuscope has none.
const PythonLayout* pythonLayout(std::string_view version);

}  // namespace gpuscope::sampling
