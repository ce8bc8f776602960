// Prints the offsets of CPython 3.13's structures that collector/sampling/python_layout.cpp's kPython313
// holds: gcc -I<prefix>/include/python3.13 python313_offsets.c && ./a.out (pyenv's 3.13.0 gave
// python313_offsets.txt).
#define Py_BUILD_CORE 1
#include <Python.h>
#include <internal/pycore_frame.h>
#include <internal/pycore_interp.h>
#include <internal/pycore_runtime.h>
#include <stddef.h>
#include <stdio.h>
int main(void) {
#define P(x) printf("%s %zu\n", #x, (size_t)(x));
  P(offsetof(_PyRuntimeState, interpreters.head))
  P(offsetof(PyInterpreterState, next))
  P(offsetof(PyInterpreterState, threads.head))
  P(offsetof(PyThreadState, next))
  P(offsetof(PyThreadState, native_thread_id))
  P(offsetof(PyThreadState, current_frame))
  P(offsetof(_PyInterpreterFrame, f_executable))
  P(offsetof(_PyInterpreterFrame, previous))
  P(offsetof(_PyInterpreterFrame, instr_ptr))
  P(offsetof(_PyInterpreterFrame, owner))
  P(FRAME_OWNED_BY_CSTACK)
  P(offsetof(PyCodeObject, co_firstlineno))
  P(offsetof(PyCodeObject, co_filename))
  P(offsetof(PyCodeObject, co_qualname))
  P(offsetof(PyCodeObject, co_linetable))
  P(offsetof(PyCodeObject, co_code_adaptive))
  P(offsetof(PyVarObject, ob_size))
  P(offsetof(PyBytesObject, ob_sval))
  P(offsetof(PyASCIIObject, length))
  P(offsetof(PyASCIIObject, state))
  P(sizeof(PyASCIIObject))
  P(sizeof(PyCompactUnicodeObject))
  return 0;
}
