#!/usr/bin/env python3
"""Step times and window checks for run.sh's sessions part (loop2000.py's times files, windows.py's JSON).

    steps.py median TIMES --mode MODE --round R --tsv FILE
        median step time of all steps (bare, record); appends "MODE<TAB>R<TAB>median_ms" to FILE.
    steps.py windows TIMES WINDOWS_JSON --round R --tsv FILE [--pad-ms 50]
        per window file (launch): kernels, NVTX 'step' ranges, steps inside per the times file, rows outside
        the window; then the median step time of the steps overlapping no window (window = the file's
        [trace time 0, max end] on CLOCK_MONOTONIC via GPUSCOPE_META clock_origin_ns, padded by PAD_MS each
        side) and of those inside; appends launch_out, launch_in, launch_all lines to FILE.
    steps.py summary TSV
        per mode and round the medians, the min over rounds of each mode, the median over rounds of the paired
        ratios launch_out/bare and record/bare (same round).

Window checks, per file (times in the file are ns from trace time 0 = the window's opening):
  kernels            rows of CUPTI_ACTIVITY_KIND_KERNEL; their span [first start, last end] on CLOCK_MONOTONIC
  nvtx steps         NVTX ranges named 'step N' (count, first..last N)
  steps in k-span    steps of the times file overlapping the kernel span (first..last index), and how many lie
                     wholly inside it
  outside            rows of every table with a start column (CUPTI_ACTIVITY_KIND_*, NVTX_EVENTS, OSRT_API, ...)
                     starting before trace time 0 or after the window's close; close = max end of the file's rows
                     (the brief's definition), and, stricter, the return of `gpuscope stop` (windows.py's clock)
                     -- rows starting after that return cannot belong to the window. 'end>stop' counts rows ending
                     after the stop call returned (NVTX pops of kept pushes may).
  open               where the file's time 0 (clock_origin_ns) lies against the `gpuscope start` call: it must be
                     between the call's start (+) and its return.
"""
import argparse
import json
import sqlite3
import statistics
import sys


def read_times(path):
    steps, loop = [], None
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[0].isdigit():
                steps.append((int(parts[0]), int(parts[1]), int(parts[2])))
            elif len(parts) == 2 and parts[0] == "loop_seconds":
                loop = float(parts[1])
    return steps, loop


def median_ms(steps):
    return statistics.median((e - s) / 1e6 for _, s, e in steps) if steps else float("nan")


def tsv(path, mode, rnd, value):
    with open(path, "a") as f:
        f.write(f"{mode}\t{rnd}\t{value:.5f}\n")


def cmd_median(a):
    try:
        steps, loop = read_times(a.times)
    except OSError as error:
        print(f"round {a.round} {a.mode}: no times file ({error})")
        return 1
    m = median_ms(steps)
    print(f"round {a.round} {a.mode}: {len(steps)} steps, median step {m:.4f} ms, loop_seconds {loop}")
    if steps:
        tsv(a.tsv, a.mode, a.round, m)
    return 0 if len(steps) else 1


def event_tables(db):
    out = []
    for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'"):
        cols = {r[1] for r in db.execute(f"PRAGMA table_info({table})")}
        if "start" in cols:
            out.append((table, "end" in cols))
    return out


def check_window(w, steps, pad_ns):
    """One window: prints its line, returns (span_lo, span_hi) on CLOCK_MONOTONIC or None, and ok."""
    label = f"window {w['number']}"
    path = w.get("file")
    if not path:
        print(f"  {label}: no file (start rc {w['start_call'][2]}, stop rc {w['stop_call'][2]})")
        return None, False
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        meta = dict(db.execute("SELECT name, value FROM GPUSCOPE_META"))
        origin = int(meta["clock_origin_ns"])
        kn, kmin, kmax = db.execute("SELECT count(*), min(start), max(end) FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchone()
        tables = event_tables(db)
        max_end = max((db.execute(f"SELECT max(\"end\") FROM {t}").fetchone()[0] or 0) for t, has_end in tables
                      if has_end)
        stop_ret = w["stop_call"][1] - origin  # the stop call's return, in trace time
        before = after_end = after_stop = end_after_stop = 0
        for t, has_end in tables:
            before += db.execute(f"SELECT count(*) FROM {t} WHERE start < 0").fetchone()[0]
            after_end += db.execute(f"SELECT count(*) FROM {t} WHERE start > ?", (max_end,)).fetchone()[0]
            after_stop += db.execute(f"SELECT count(*) FROM {t} WHERE start > ?", (stop_ret,)).fetchone()[0]
            if has_end:
                end_after_stop += db.execute(f"SELECT count(*) FROM {t} WHERE \"end\" > ?", (stop_ret,)).fetchone()[0]
        nvtx = [r[0] for r in db.execute(
            "SELECT COALESCE(n.text, s.value) FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId "
            "WHERE n.end IS NOT NULL")] if any(t == "NVTX_EVENTS" for t, _ in tables) else []
    except (sqlite3.Error, KeyError, OSError, TypeError, ValueError) as error:
        print(f"  {label}: {path}: cannot read ({error})")
        return None, False
    step_ids = sorted(int(t.split()[1]) for t in nvtx if t and t.startswith("step ") and t.split()[1].isdigit())
    if kn:
        k_lo, k_hi = origin + kmin, origin + kmax
        overlap = [i for i, s, e in steps if s < k_hi and e > k_lo]
        inside = [i for i, s, e in steps if s >= k_lo and e <= k_hi]
    else:
        overlap, inside = [], []
    rng = lambda ids: f"{ids[0]}..{ids[-1]}" if ids else "-"
    open_after_call = (origin - w["start_call"][0]) / 1e6
    open_before_return = (w["start_call"][1] - origin) / 1e6
    outside = before + after_end
    ok = kn > 0 and outside == 0 and after_stop == 0 and open_after_call >= 0 and open_before_return >= 0
    print(f"  {label}: {path.split('/')[-1]} kernels {kn}, nvtx steps {len(step_ids)} [{rng(step_ids)}], "
          f"steps in k-span {len(overlap)} [{rng(overlap)}] ({len(inside)} wholly), "
          f"outside [0, max end {max_end / 1e6:.1f} ms] {outside} (before 0: {before}), "
          f"after stop return ({stop_ret / 1e6:.1f} ms) {after_stop}, end>stop {end_after_stop}; "
          f"open {open_after_call:+.1f} ms after start call, {open_before_return:.1f} ms before its return"
          f"{'' if ok else '  <-- CHECK'}")
    # The window's span on CLOCK_MONOTONIC from the file; a file without rows has none: the stop call's return then.
    hi = max_end if max_end > 0 else stop_ret
    return (origin - pad_ns, origin + hi + pad_ns), ok


def cmd_windows(a):
    try:
        steps, loop = read_times(a.times)
        with open(a.json) as f:
            info = json.load(f)
    except (OSError, ValueError) as error:
        print(f"round {a.round} launch: cannot read ({error})")
        return 1
    print(f"round {a.round} launch: {len(steps)} steps, loop_seconds {loop}, session {info.get('session')}, "
          f"{len(info.get('windows', []))} windows" + (f", error: {info['error']}" if info.get("error") else ""))
    spans, all_ok = [], not info.get("error")
    for w in info.get("windows", []):
        span, ok = check_window(w, steps, int(a.pad_ms * 1e6))
        all_ok &= ok
        if span:
            spans.append(span)
    hit = lambda s, e: any(s < hi and e > lo for lo, hi in spans)
    out = [x for x in steps if not hit(x[1], x[2])]
    inn = [x for x in steps if hit(x[1], x[2])]
    m_all, m_out, m_in = median_ms(steps), median_ms(out), median_ms(inn)
    print(f"  round {a.round} step medians: all {m_all:.4f} ms ({len(steps)}), outside windows (pad {a.pad_ms:g} ms) {m_out:.4f} ms "
          f"({len(out)}), inside {m_in:.4f} ms ({len(inn)})")
    if out:
        tsv(a.tsv, "launch_out", a.round, m_out)
    if inn:
        tsv(a.tsv, "launch_in", a.round, m_in)
    if steps:
        tsv(a.tsv, "launch_all", a.round, m_all)
    print(f"  windows check: {'OK' if all_ok and len(spans) == len(info.get('windows', [])) else 'CHECK'}")
    return 0 if all_ok else 1


def cmd_summary(a):
    data = {}
    try:
        with open(a.tsv) as f:
            for line in f:
                mode, rnd, value = line.split("\t")
                data.setdefault(mode, {})[int(rnd)] = float(value)
    except OSError:
        print("no step medians")
        return 1
    modes = [m for m in ("bare", "record", "launch_out", "launch_in", "launch_all") if m in data]
    rounds = sorted({r for m in modes for r in data[m]})
    print("median step ms per round: round\t" + "\t".join(modes))
    for r in rounds:
        print(f"  {r}\t" + "\t".join(f"{data[m][r]:.4f}" if r in data[m] else "-" for m in modes))
    print("min over rounds:\t" + "\t".join(f"{m} {min(data[m].values()):.4f}" for m in modes))
    for num in ("launch_out", "record", "launch_in"):
        pairs = [data[num][r] / data["bare"][r] for r in rounds if r in data.get(num, {}) and r in data.get("bare", {})]
        if pairs:
            print(f"paired {num}/bare: median {statistics.median(pairs):.4f} over {len(pairs)} rounds "
                  f"({', '.join(f'{p:.4f}' for p in pairs)})")
    return 0


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("median")
    m.add_argument("times")
    m.add_argument("--mode", required=True)
    m.add_argument("--round", type=int, required=True)
    m.add_argument("--tsv", required=True)
    w = sub.add_parser("windows")
    w.add_argument("times")
    w.add_argument("json")
    w.add_argument("--round", type=int, required=True)
    w.add_argument("--tsv", required=True)
    w.add_argument("--pad-ms", type=float, default=50.0)
    s = sub.add_parser("summary")
    s.add_argument("tsv")
    a = p.parse_args()
    return {"median": cmd_median, "windows": cmd_windows, "summary": cmd_summary}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
