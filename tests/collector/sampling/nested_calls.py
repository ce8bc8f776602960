# Pure Python, no packages: outer -> middle -> leaf, where leaf spins for the seconds given (default 1),
# for reading the Python frames of any CPython version gpuscope knows.
import sys
import time


def leaf(seconds):
    end = time.perf_counter() + seconds
    total = 0
    while time.perf_counter() < end:
        total += sum(range(200))  # LEAF_LINE
    return total


def middle(seconds):
    return leaf(seconds)


def outer(seconds):
    return middle(seconds)


outer(float(sys.argv[1]) if len(sys.argv) > 1 else 1.0)
