"""A known split of a Python thread's time: about 60% in busy() (pure Python) and 40% in numpy.sort,
each timed by the program itself (time.thread_time), printed as "busy SECONDS sort SECONDS" at the end.
Argument: total seconds."""
import sys
import time

import numpy


def busy(seconds):
    end = time.thread_time() + seconds
    x = 0
    while time.thread_time() < end:
        # The clock is read each 2,000 iterations (about 0.1 ms): time.thread_time() is a system call,
        # which CPU sampling of user code does not see and py-spy, sampling the stack, does.
        for i in range(2000):
            x += i * i
    return x


def sort_for(seconds, data):
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        numpy.sort(data)


def main():
    total = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    data = numpy.random.default_rng(1).random(200_000)
    spent_busy = spent_sort = 0.0
    for _ in range(int(total / 0.05)):
        start = time.thread_time()
        busy(0.030)
        middle = time.thread_time()
        sort_for(0.020, data)
        spent_busy += middle - start
        spent_sort += time.thread_time() - middle
    print(f"busy {spent_busy:.6f} sort {spent_sort:.6f}")


main()
