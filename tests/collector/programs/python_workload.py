# A Python program for the recorder tests: sleeps, a contended lock, file I/O, and a pool of two
# forked worker processes (as a PyTorch DataLoader starts them). Logs what it did, timed with the
# recorder's clock: LABEL TID START_NS END_NS, and "worker PID" per worker process.
import multiprocessing as mp
import os
import sys
import threading
import time


def work(i):
    time.sleep(0.02)
    return os.getpid()


def main(log_path):
    lines = []
    start = time.monotonic_ns()
    time.sleep(0.03)
    lines.append(f"sleep {threading.get_native_id()} {start} {time.monotonic_ns()}")

    lock = threading.Lock()
    lock.acquire()

    def holder():
        time.sleep(0.04)
        lock.release()

    thread = threading.Thread(target=holder, name="holder")
    thread.start()
    start = time.monotonic_ns()
    lock.acquire()
    lines.append(f"lock {threading.get_native_id()} {start} {time.monotonic_ns()}")
    thread.join()

    data_path = log_path + ".data"
    with open(data_path, "wb") as data:
        data.write(b"p" * (4 << 20))
    with open(data_path, "rb") as data:
        assert len(data.read()) == 4 << 20
    os.unlink(data_path)

    with mp.get_context("fork").Pool(2) as pool:
        pids = set(pool.map(work, range(8), chunksize=1))
    lines.extend(f"worker {pid}" for pid in sorted(pids))
    with open(log_path, "w") as log:
        log.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
