// The CPython facts the sampler relies on: its structure offsets (against the installed headers) and its
// reading of line numbers from a code object's location table.
#include "collector/sampling/python_stacks.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "collector/sampling/python_layout.h"

#ifdef GPUSCOPE_PYTHON_HEADERS_VERSION
extern "C" {
extern const size_t gpuscope_python_offsets[];
extern const size_t gpuscope_python_offset_count;
}
#endif

namespace gpuscope::sampling {
namespace {

// co_linetable and firstlineno of, as CPython 3.11.7 compiled it (dumped with code.co_linetable):
//   def f(n):                 # line 1
//       total = 0
//       for i in range(n):
//           if i % 3:
//               total += i
//       return total
const std::vector<int> kTableBytes = {128, 0,   216, 12,  13,  128, 69, 221, 13,  18, 144, 49,  137, 88,
                                      140, 88,  240, 0,   2,   5,   23, 240, 0,   2,  5,   23,  136, 1,
                                      216, 11,  12,  136, 113, 137, 53, 240, 0,   1,  9,   23,  216, 12,
                                      17,  144, 81,  137, 74,  136, 69, 248, 216, 11, 16,  128, 76};
// The line of each code unit, from code.co_lines() (0 where it gives None).
const std::vector<int> kLinePerUnit = {1, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
                                       3, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 0, 6, 6};

TEST(PythonStacks, EveryCodeUnitGetsTheLineCPythonGivesIt) {
  std::string table;
  for (int byte : kTableBytes) table += static_cast<char>(byte);
  for (size_t unit = 0; unit < kLinePerUnit.size(); ++unit)
    EXPECT_EQ(lineOfCodeUnit(table, 1, static_cast<int>(unit)), kLinePerUnit[unit]) << "code unit " << unit;
  EXPECT_EQ(lineOfCodeUnit(table, 1, static_cast<int>(kLinePerUnit.size()) + 5), 0) << "past the table";
}

// The same function as CPython 3.10.13 compiled it: its co_linetable ((bytes, line delta) pairs, -128 for
// no line) and the line of each instruction from co_lines().
const std::vector<int> kTable310Bytes = {4, 1, 12, 1, 8, 1, 8, 1, 2, 128, 4, 1};
const std::vector<int> kLinePerInstruction310 = {2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0, 6, 6};

TEST(PythonStacks, Every310InstructionGetsTheLineCPythonGivesIt) {
  std::string table;
  for (int byte : kTable310Bytes) table += static_cast<char>(byte);
  for (size_t instruction = 0; instruction < kLinePerInstruction310.size(); ++instruction)
    EXPECT_EQ(lineOfInstruction310(table, 1, static_cast<int>(instruction)), kLinePerInstruction310[instruction])
        << "instruction " << instruction;
  EXPECT_EQ(lineOfInstruction310(table, 1, 40), 0) << "past the table";
}

TEST(PythonStacks, InterpreterFilesAreRecognisedByName) {
  EXPECT_EQ(pythonVersionOf("/usr/bin/python3.11"), "3.11");
  EXPECT_EQ(pythonVersionOf("/root/.pyenv/versions/3.11.7/lib/libpython3.11.so.1.0"), "3.11");
  EXPECT_EQ(pythonVersionOf("/usr/lib/x86_64-linux-gnu/libpython3.12.so.1.0"), "3.12");
  EXPECT_EQ(pythonVersionOf("/usr/bin/python3.12d"), "3.12");
  EXPECT_EQ(pythonVersionOf("/usr/lib/python3.11/lib-dynload/_json.cpython-311-x86_64-linux-gnu.so"), "");
  EXPECT_EQ(pythonVersionOf("/usr/bin/python3"), "");
  EXPECT_TRUE(pythonLayoutKnown("3.11"));
  EXPECT_TRUE(pythonLayoutKnown("3.12"));
  EXPECT_TRUE(pythonLayoutKnown("3.10"));
  EXPECT_TRUE(pythonLayoutKnown("3.13"));
  EXPECT_FALSE(pythonLayoutKnown("3.9"));
  EXPECT_FALSE(pythonLayoutKnown("3.14"));
}

#ifdef GPUSCOPE_PYTHON_HEADERS_VERSION
TEST(PythonStacks, TheLayoutEqualsTheInstalledHeaders) {
  const PythonLayout* layout = pythonLayout(GPUSCOPE_PYTHON_HEADERS_VERSION);
  if (!layout || gpuscope_python_offset_count == 0)
    GTEST_SKIP() << "gpuscope has no layout of the installed headers' CPython " << GPUSCOPE_PYTHON_HEADERS_VERSION;
  const std::vector<std::pair<const char*, uint64_t>> ours = {
      {"_PyRuntimeState.interpreters.head", layout->runtimeInterpreters},
      {"PyInterpreterState.next", layout->interpNext},
      {"PyInterpreterState.threads.head", layout->interpThreads},
      {"PyThreadState.next", layout->threadNext},
      {"PyThreadState.native_thread_id", layout->threadNativeId},
      {"PyThreadState.cframe", layout->threadCFrame},
      {"_PyCFrame.current_frame", layout->cframeCurrentFrame},
      {"_PyInterpreterFrame.f_code", layout->frameCode},
      {"_PyInterpreterFrame.previous", layout->framePrevious},
      {"_PyInterpreterFrame.prev_instr", layout->framePrevInstr},
      {"_PyInterpreterFrame.owner", layout->frameOwner},
      {"PyCodeObject.co_firstlineno", layout->codeFirstLine},
      {"PyCodeObject.co_filename", layout->codeFilename},
      {"PyCodeObject.co_qualname", layout->codeQualname},
      {"PyCodeObject.co_linetable", layout->codeLinetable},
      {"PyCodeObject.co_code_adaptive", layout->codeUnits},
      {"PyVarObject.ob_size", layout->bytesSize},
      {"PyBytesObject.ob_sval", layout->bytesData},
      {"PyASCIIObject.length", layout->unicodeLength},
      {"PyASCIIObject.state", layout->unicodeState},
      {"sizeof(PyASCIIObject)", layout->asciiData},
      {"sizeof(PyCompactUnicodeObject)", layout->compactData},
  };
  ASSERT_EQ(ours.size(), gpuscope_python_offset_count);
  for (size_t i = 0; i < ours.size(); ++i) EXPECT_EQ(ours[i].second, gpuscope_python_offsets[i]) << ours[i].first;
}
#endif

}  // namespace
}  // namespace gpuscope::sampling
