#include "collector/sampling/python_layout.h"

namespace gpuscope::sampling {
namespace {

// CPython 3.10, from pyenv's 3.10.13 headers (tests/collector/sampling/python310_offsets.c).
constexpr PythonLayout kPython310{
    .version = "3.10",
    .frameObjects = true,
    .runtimeInterpreters = 32,
    .interpNext = 0,
    .interpThreads = 8,
    .threadNext = 8,
    .threadNativeId = 176,
    .threadCFrame = kNoCFrame,
    .cframeCurrentFrame = 24,
    .frameCode = 32,
    .framePrevious = 24,
    .framePrevInstr = 96,
    .frameOwner = 0,
    .frameOwnedByCStack = -1,
    .codeFirstLine = 40,
    .codeFilename = 104,
    .codeQualname = 112,
    .codeLinetable = 120,
    .codeUnits = 128,
    .bytesSize = 16,
    .bytesData = 32,
    .unicodeLength = 16,
    .unicodeState = 32,
    .asciiData = 48,
    .compactData = 72,
};

// CPython 3.11, from its headers (Include/internal/pycore_runtime.h, pycore_interp.h, pycore_frame.h,
// Include/cpython/code.h, pystate.h, unicodeobject.h) with Py_BUILD_CORE: offsetof on x86-64.
// tests/collector/python_layout_test.cpp compares them with the headers installed where it is built.
constexpr PythonLayout kPython311{
    .version = "3.11",
    .runtimeInterpreters = 40,
    .interpNext = 0,
    .interpThreads = 16,
    .threadNext = 8,
    .threadNativeId = 160,
    .threadCFrame = 56,
    .cframeCurrentFrame = 8,
    .frameCode = 32,
    .framePrevious = 48,
    .framePrevInstr = 56,
    .frameOwner = 69,
    .frameOwnedByCStack = -1,
    .codeFirstLine = 72,
    .codeFilename = 112,
    .codeQualname = 128,
    .codeLinetable = 136,
    .codeUnits = 184,
    .bytesSize = 16,
    .bytesData = 32,
    .unicodeLength = 16,
    .unicodeState = 32,
    .asciiData = 48,
    .compactData = 72,
};

// CPython 3.12, from Ubuntu's 3.12.3 headers on the GPU machine (tests/gpu/sampling/python_offsets.c, its
// output in tests/gpu/sampling/python312_offsets.txt). 3.12 adds shim frames owned by the C stack
// (FRAME_OWNED_BY_CSTACK), which run no Python code.
constexpr PythonLayout kPython312{
    .version = "3.12",
    .runtimeInterpreters = 40,
    .interpNext = 0,
    .interpThreads = 72,
    .threadNext = 8,
    .threadNativeId = 144,
    .threadCFrame = 56,
    .cframeCurrentFrame = 0,
    .frameCode = 0,
    .framePrevious = 8,
    .framePrevInstr = 56,
    .frameOwner = 70,
    .frameOwnedByCStack = 3,
    .codeFirstLine = 68,
    .codeFilename = 112,
    .codeQualname = 128,
    .codeLinetable = 136,
    .codeUnits = 192,
    .bytesSize = 16,
    .bytesData = 32,
    .unicodeLength = 16,
    .unicodeState = 32,
    .asciiData = 40,
    .compactData = 56,
};

// CPython 3.13, from pyenv's 3.13.0 headers (compiled against them as python_layout_probe.c is). 3.13
// keeps the current frame in the thread state itself (no _PyCFrame) and renames f_code to f_executable,
// prev_instr to instr_ptr, at the same offsets as 3.12.
constexpr PythonLayout kPython313{
    .version = "3.13",
    .runtimeInterpreters = 632,
    .interpNext = 7264,
    .interpThreads = 7344,
    .threadNext = 8,
    .threadNativeId = 160,
    .threadCFrame = kNoCFrame,
    .cframeCurrentFrame = 72,
    .frameCode = 0,
    .framePrevious = 8,
    .framePrevInstr = 56,
    .frameOwner = 70,
    .frameOwnedByCStack = 3,
    .codeFirstLine = 68,
    .codeFilename = 112,
    .codeQualname = 128,
    .codeLinetable = 136,
    .codeUnits = 200,
    .bytesSize = 16,
    .bytesData = 32,
    .unicodeLength = 16,
    .unicodeState = 32,
    .asciiData = 40,
    .compactData = 56,
};

}  // namespace

const PythonLayout* pythonLayout(std::string_view version) {
  for (const PythonLayout* layout : {&kPython310, &kPython311, &kPython312, &kPython313})
    if (version == layout->version) return layout;
  return nullptr;
}

}  // namespace gpuscope::sampling
