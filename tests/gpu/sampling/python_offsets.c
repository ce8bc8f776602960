// Prints the CPython structure offsets gpuscope's stack reader needs (collector/sampling/python_layout.h),
// from the headers of the Python it is compiled against: for adding a version's layout.
//   cc -I/usr/include/python3.X python_offsets.c -o python_offsets && ./python_offsets
#define Py_BUILD_CORE 1
#include <Python.h>
#include <internal/pycore_frame.h>
#include <internal/pycore_interp.h>
#include <internal/pycore_runtime.h>
#include <stddef.h>
#include <stdio.h>

#define SHOW(type, field) printf("%-45s %zu\n", #type "." #field, offsetof(type, field))

int main(void) {
  printf("CPython %d.%d headers\n", PY_MAJOR_VERSION, PY_MINOR_VERSION);
  SHOW(_PyRuntimeState, interpreters.head);
  SHOW(PyInterpreterState, next);
  SHOW(PyInterpreterState, threads.head);
  SHOW(PyThreadState, next);
  SHOW(PyThreadState, native_thread_id);
  SHOW(PyThreadState, cframe);
  SHOW(_PyCFrame, current_frame);
  SHOW(_PyInterpreterFrame, f_code);
  SHOW(_PyInterpreterFrame, previous);
  SHOW(_PyInterpreterFrame, prev_instr);
  SHOW(_PyInterpreterFrame, owner);
  SHOW(PyCodeObject, co_firstlineno);
  SHOW(PyCodeObject, co_filename);
  SHOW(PyCodeObject, co_qualname);
  SHOW(PyCodeObject, co_linetable);
  SHOW(PyCodeObject, co_code_adaptive);
  SHOW(PyVarObject, ob_size);
  SHOW(PyBytesObject, ob_sval);
  SHOW(PyASCIIObject, length);
  SHOW(PyASCIIObject, state);
  printf("%-45s %zu\n%-45s %zu\n", "sizeof(PyASCIIObject)", sizeof(PyASCIIObject), "sizeof(PyCompactUnicodeObject)",
         sizeof(PyCompactUnicodeObject));
  return 0;
}
