#!/usr/bin/env python3
"""Opens and closes a launched session's windows from another process (run.sh, launch mode).

    windows.py GPUSCOPE SESSION TIMES_FILE OUT_JSON [--pid PID] [--windows 3] [--open 0.5] [--gap 1.5]
               [--min-lines 200] [--wait 180]

Waits until TIMES_FILE (loop2000.py's) holds MIN_LINES lines (the loop has begun), then WINDOWS times:
`GPUSCOPE start --session SESSION`, sleep OPEN, `GPUSCOPE stop --session SESSION`, sleep GAP. Each gpuscope
call runs under a timeout (start 30 s, stop 90 s). Writes OUT_JSON: for each window the CLOCK_MONOTONIC ns
before and after the start and stop calls, their exit codes and output, and the file stop named ("gpuscope:
session NAME wrote FILE"); also `gpuscope sessions` as seen during the first window. Exit 1 when a call
failed or the file was not named.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time


def call(args, limit):
    t0 = time.monotonic_ns()
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=limit)
        rc, text = done.returncode, (done.stdout + done.stderr).strip()
    except subprocess.TimeoutExpired as error:
        rc, text = 124, f"timed out after {limit} s: {error}"
    return t0, time.monotonic_ns(), rc, text


def lines(path):
    try:
        with open(path) as f:
            return sum(1 for _ in f)
    except OSError:
        return 0


def alive(pid):
    if not pid:
        return True
    try:
        os.kill(pid, 0)
        return True
    except OSError:
        return False


def main():
    p = argparse.ArgumentParser()
    p.add_argument("gpuscope")
    p.add_argument("session")
    p.add_argument("times")
    p.add_argument("out")
    p.add_argument("--pid", type=int, default=0)
    p.add_argument("--windows", type=int, default=3)
    p.add_argument("--open", type=float, default=0.5)
    p.add_argument("--gap", type=float, default=1.5)
    p.add_argument("--min-lines", type=int, default=200)
    p.add_argument("--wait", type=float, default=180)
    a = p.parse_args()

    result = {"session": a.session, "windows": [], "error": None}
    deadline = time.monotonic() + a.wait
    while lines(a.times) < a.min_lines:
        if time.monotonic() > deadline or not alive(a.pid):
            result["error"] = (f"the loop did not reach {a.min_lines} steps "
                               f"({'gave up after %.0f s' % a.wait if alive(a.pid) else 'the program ended'})")
            break
        time.sleep(0.02)
    result["lines_before_first_start"] = lines(a.times)
    ok = result["error"] is None
    for n in range(a.windows if ok else 0):
        w = {"number": n + 1}
        w["start_call"] = call([a.gpuscope, "start", "--session", a.session], 30)
        w["lines_at_start"] = lines(a.times)
        if n == 0:
            w["sessions"] = call([a.gpuscope, "sessions"], 15)[3]
        time.sleep(a.open)
        w["stop_call"] = call([a.gpuscope, "stop", "--session", a.session], 90)
        w["lines_at_stop"] = lines(a.times)
        found = re.search(r"wrote (\S+)", w["stop_call"][3])
        w["file"] = found.group(1) if found else None
        ok &= w["start_call"][2] == 0 and w["stop_call"][2] == 0 and w["file"] is not None
        result["windows"].append(w)
        print(f"window {n + 1}: start rc {w['start_call'][2]} ({(w['start_call'][1] - w['start_call'][0]) / 1e6:.0f} ms)"
              f" stop rc {w['stop_call'][2]} ({(w['stop_call'][1] - w['stop_call'][0]) / 1e6:.0f} ms)"
              f" steps {w['lines_at_start']}..{w['lines_at_stop']} file {w['file']}\n"
              f"  start: {w['start_call'][3]}\n  stop: {w['stop_call'][3]}", flush=True)
        if n == 0:
            print("  sessions:\n    " + w["sessions"].replace("\n", "\n    "), flush=True)
        time.sleep(a.gap)
    result["program_alive_after_last_window"] = alive(a.pid)
    with open(a.out, "w") as f:
        json.dump(result, f, indent=1)
    if result["error"]:
        print("windows.py:", result["error"])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
