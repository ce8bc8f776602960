"""Per-rank table of nsys / gpuscope recordings of ddp_loop.py (python3 stdlib only).

  summary.py LABEL FILE [FILE...]   one row per process that ran kernels: kernels, NCCL kernels, their
                                    total and median time, the median of the NVTX "step" ranges.
  --align                           also lines up the k-th NCCL kernel of each process by its end, on the
                                    clock of each file's TARGET_INFO_SESSION_START_TIME.utcEpochNs (where
                                    the file has it) and prints the median and largest gap.
  --require-nccl                    exits 1 when a process has no NCCL kernel.
Files may be .sqlite or .sqlite.gz.
"""
import gzip
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile


def open_db(path):
    if path.endswith(".gz"):
        tmp = tempfile.NamedTemporaryFile(suffix=".sqlite", delete=False)
        with gzip.open(path, "rb") as src:
            shutil.copyfileobj(src, tmp)
        tmp.close()
        return sqlite3.connect(tmp.name), tmp.name
    return sqlite3.connect(path), None


def has_table(db, name):
    return db.execute("SELECT count(*) FROM sqlite_master WHERE name=?", (name,)).fetchone()[0] > 0


def session_start(db):
    if has_table(db, "TARGET_INFO_SESSION_START_TIME"):
        row = db.execute("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME").fetchone()
        if row and row[0]:
            return int(row[0])
    return None


def rows_for(path):
    db, tmp = open_db(path)
    try:
        kernels = db.execute(
            "SELECT k.globalPid >> 24 & 16777215, k.deviceId, k.start, k.end, s.value LIKE '%nccl%' "
            "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName ORDER BY k.start").fetchall()
        steps = []
        if has_table(db, "NVTX_EVENTS"):
            steps = db.execute(
                "SELECT e.globalTid >> 24 & 16777215, e.end - e.start FROM NVTX_EVENTS e "
                "LEFT JOIN StringIds s ON s.id = e.textId WHERE COALESCE(e.text, s.value) = 'step' "
                "AND e.end IS NOT NULL").fetchall()
        origin = session_start(db)
    finally:
        db.close()
        if tmp:
            os.unlink(tmp)
    procs = {}
    for pid, device, start, end, nccl in kernels:
        p = procs.setdefault(pid, {"devices": set(), "kernels": 0, "nccl": [], "nccl_ends": [], "steps": []})
        p["devices"].add(device)
        p["kernels"] += 1
        if nccl:
            p["nccl"].append(end - start)
            p["nccl_ends"].append(end)
    for pid, duration in steps:
        if pid in procs:
            procs[pid]["steps"].append(duration)
    return procs, origin


def main(argv):
    align = "--align" in argv
    require = "--require-nccl" in argv
    args = [a for a in argv if not a.startswith("--")]
    label, files = args[0], args[1:]
    print(f"{label}:")
    print(f"  {'file':<24} {'pid':>7} {'dev':>3} {'kernels':>7} {'nccl':>5} {'nccl total ms':>13} "
          f"{'nccl median us':>14} {'steps':>5} {'step median ms':>14}")
    ok = True
    ends = []
    for path in files:
        procs, origin = rows_for(path)
        for pid in sorted(procs):
            p = procs[pid]
            # The warm-up steps are in the recording too: the median is over every "step" range.
            step_median = statistics.median(p["steps"]) / 1e6 if p["steps"] else float("nan")
            nccl_median = statistics.median(p["nccl"]) / 1e3 if p["nccl"] else float("nan")
            print(f"  {os.path.basename(path):<24} {pid:>7} {','.join(map(str, sorted(p['devices']))):>3} "
                  f"{p['kernels']:>7} {len(p['nccl']):>5} {sum(p['nccl']) / 1e6:>13.3f} {nccl_median:>14.1f} "
                  f"{len(p['steps']):>5} {step_median:>14.3f}")
            if not p["nccl"]:
                ok = False
                print(f"  FAILED: {path} pid {pid} has no NCCL kernel")
            ends.append((path, pid, origin, p["nccl_ends"]))
    if align and len(ends) >= 2:
        (pa, ida, oa, ea), (pb, idb, ob, eb) = ends[0], ends[1]
        if not ea or not eb:
            print("  align: no NCCL kernels to line up")
        elif len(ea) != len(eb):
            print(f"  align: NCCL kernel counts differ ({len(ea)} against {len(eb)}), not lined up")
        else:
            shift = (ob - oa) if (oa is not None and ob is not None and pa != pb) else 0
            gaps = [abs((b + shift) - a) / 1e3 for a, b in zip(ea, eb)]
            print(f"  align: {len(gaps)} NCCL kernel pairs, k-th end against k-th end"
                  f"{', by utcEpochNs (second file ' + format(shift / 1e6, '+.3f') + ' ms)' if shift else ''}: "
                  f"median gap {statistics.median(gaps):.1f} us, largest {max(gaps):.1f} us")
    return 1 if (require and not ok) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
