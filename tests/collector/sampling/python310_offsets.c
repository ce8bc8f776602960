// Prints the offsets of CPython 3.10's structures that collector/sampling/python_layout.cpp's kPython310
// holds: gcc -I<prefix>/include/python3.10 python310_offsets.c && ./a.out (pyenv's 3.10.13 gave
// python310_offsets.txt).
#define Py_BUILD_CORE 1
#include <Python.h>
#include <frameobject.h>
#include <internal/pycore_interp.h>
#include <internal/pycore_runtime.h>
#include <stddef.h>
#include <stdio.h>
int main(void) {
#define P(x) printf("%s %zu\n", #x, (size_t)(x));
  P(offsetof(_PyRuntimeState, interpreters.head))
  P(offsetof(PyInterpreterState, next))
  P(offsetof(PyInterpreterState, tstate_head))
  P(offsetof(PyThreadState, next))
  P(offsetof(PyThreadState, frame))
  P(offsetof(PyThreadState, thread_id))
  P(offsetof(PyFrameObject, f_back))
  P(offsetof(PyFrameObject, f_code))
  P(offsetof(PyFrameObject, f_lasti))
  P(offsetof(PyCodeObject, co_firstlineno))
  P(offsetof(PyCodeObject, co_filename))
  P(offsetof(PyCodeObject, co_name))
  P(offsetof(PyCodeObject, co_linetable))
  P(offsetof(PyVarObject, ob_size))
  P(offsetof(PyBytesObject, ob_sval))
  P(offsetof(PyASCIIObject, length))
  P(offsetof(PyASCIIObject, state))
  P(sizeof(PyASCIIObject))
  P(sizeof(PyCompactUnicodeObject))
  return 0;
}
