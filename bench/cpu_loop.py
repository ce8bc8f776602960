"""A CPU-bound Python loop that times itself: prints "loop SECONDS" (time.perf_counter around the loop).
Argument: iterations in millions (default 20)."""
import sys
import time


def work(n):
    total = 0
    for i in range(n):
        total += i * i % 7
    return total


n = int(float(sys.argv[1]) * 1e6) if len(sys.argv) > 1 else 20_000_000
start = time.perf_counter()
work(n)
print(f"loop {time.perf_counter() - start:.6f}")
