// The offsets gpuscope's CPython layout must equal, taken from the Python headers installed here (internal
// ones included, as the interpreter itself is built), for python_stacks_test.cpp.
#define Py_BUILD_CORE 1
#include <Python.h>
#include <internal/pycore_frame.h>
#include <internal/pycore_interp.h>
#include <internal/pycore_runtime.h>
#include <stddef.h>

#if PY_MAJOR_VERSION == 3 && PY_MINOR_VERSION == 11
const size_t gpuscope_python_offsets[] = {
    offsetof(_PyRuntimeState, interpreters.head),
    offsetof(PyInterpreterState, next),
    offsetof(PyInterpreterState, threads.head),
    offsetof(PyThreadState, next),
    offsetof(PyThreadState, native_thread_id),
    offsetof(PyThreadState, cframe),
    offsetof(_PyCFrame, current_frame),
    offsetof(_PyInterpreterFrame, f_code),
    offsetof(_PyInterpreterFrame, previous),
    offsetof(_PyInterpreterFrame, prev_instr),
    offsetof(_PyInterpreterFrame, owner),
    offsetof(PyCodeObject, co_firstlineno),
    offsetof(PyCodeObject, co_filename),
    offsetof(PyCodeObject, co_qualname),
    offsetof(PyCodeObject, co_linetable),
    offsetof(PyCodeObject, co_code_adaptive),
    offsetof(PyVarObject, ob_size),
    offsetof(PyBytesObject, ob_sval),
    offsetof(PyASCIIObject, length),
    offsetof(PyASCIIObject, state),
    sizeof(PyASCIIObject),
    sizeof(PyCompactUnicodeObject),
};
const size_t gpuscope_python_offset_count = sizeof(gpuscope_python_offsets) / sizeof(gpuscope_python_offsets[0]);
#else
const size_t gpuscope_python_offsets[1] = {0};
const size_t gpuscope_python_offset_count = 0;
#endif
