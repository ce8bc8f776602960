# A loop of short sleeps, each just past --osrt-backtrace-threshold (80 us), for bench/osrt_backtrace_cost.sh:
# the calls whose backtraces cost the most relative to their length. Prints "loop SECONDS".
import sys
import time

calls = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
start = time.perf_counter()
for _ in range(calls):
    time.sleep(0.0001)
print("loop %.4f" % (time.perf_counter() - start))
