#!/usr/bin/env python3
"""Compares two capture-range recordings (nsys-shaped SQLite, e.g. gpuscope's and nsys's of caprange.py).

    counts.py A.sqlite[.gz] B.sqlite[.gz]

Prints, for A beside B:
  - kernel counts per shortName (CUPTI_ACTIVITY_KIND_KERNEL.shortName -> StringIds), MATCH/DIFFER per name;
  - NVTX range counts per text (NVTX_EVENTS rows with an end; text, or textId -> StringIds), MATCH/DIFFER;
  - for each file, 'no event outside the range': every row of CUPTI_ACTIVITY_KIND_* and NVTX_EVENTS must start
    inside [first 'step N' range's start, last 'step N' range's end] of that file. The API and synchronization
    rows of the profiler start/stop calls themselves are allowed (runtime rows named *ProfilerStart/Stop*, and
    runtime/synchronization rows starting within SLACK_MS, default 1 ms, of the span's ends: nsys's cap_api file
    has cuProfilerStart 0.12 ms before step 8 and the stop's device synchronization just after step 11); they
    are listed. Kernel and NVTX rows get no slack.
Last line: 'counts: kernels MATCH|DIFFER, nvtx MATCH|DIFFER, outside A=N B=M'. Exit 0 when all match and
nothing is outside, 1 otherwise, 2 when a file cannot be read.
"""
import gzip
import os
import re
import shutil
import sqlite3
import sys
import tempfile

SLACK_NS = int(float(os.environ.get("SLACK_MS", "1")) * 1e6)
STEP = re.compile(r"^step \d+$")


def open_db(path):
    if path.endswith(".gz"):
        tmp = tempfile.NamedTemporaryFile(suffix=".sqlite", delete=False)
        with gzip.open(path, "rb") as src:
            shutil.copyfileobj(src, tmp)
        tmp.close()
        return sqlite3.connect(tmp.name), tmp.name
    if not os.path.exists(path):
        raise FileNotFoundError(path)
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True), None


def tables(db):
    return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def columns(db, table):
    return {r[1] for r in db.execute(f"PRAGMA table_info({table})")}


def kernel_counts(db):
    if "CUPTI_ACTIVITY_KIND_KERNEL" not in tables(db):
        return {}
    rows = db.execute("SELECT COALESCE(s.value, '#' || k.shortName), count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                      "LEFT JOIN StringIds s ON s.id = k.shortName GROUP BY 1")
    return dict(rows)


def nvtx_ranges(db):
    """(text, start, end) of every NVTX range (rows with an end)."""
    if "NVTX_EVENTS" not in tables(db):
        return []
    has_ids = "textId" in columns(db, "NVTX_EVENTS") and "StringIds" in tables(db)
    text = "COALESCE(n.text, s.value)" if has_ids else "n.text"
    join = "LEFT JOIN StringIds s ON s.id = n.textId" if has_ids else ""
    return list(db.execute(f"SELECT {text}, n.start, n.end FROM NVTX_EVENTS n {join} WHERE n.end IS NOT NULL"))


def nvtx_counts(db):
    counts = {}
    for text, _, _ in nvtx_ranges(db):
        counts[text] = counts.get(text, 0) + 1
    return counts


def outside(db):
    """(span, {table: rows outside}, allowed rows [(table, name, offset_ms)])."""
    steps = [(s, e) for t, s, e in nvtx_ranges(db) if t and STEP.match(t)]
    if not steps:
        return None, {}, []
    lo, hi = min(s for s, _ in steps), max(e for _, e in steps)
    names = "StringIds" in tables(db)
    bad, allowed = {}, []
    for table in sorted(tables(db)):
        if not (table.startswith("CUPTI_ACTIVITY_KIND_") or table == "NVTX_EVENTS"):
            continue
        cols = columns(db, table)
        if "start" not in cols:
            continue
        name = "s.value" if (names and "nameId" in cols) else "NULL"
        join = "LEFT JOIN StringIds s ON s.id = t.nameId" if name != "NULL" else ""
        for start, label in db.execute(f"SELECT t.start, {name} FROM {table} t {join} WHERE t.start < ? OR t.start > ?",
                                       (lo, hi)):
            api = table in ("CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION")
            near = lo - SLACK_NS <= start <= hi + SLACK_NS
            if api and (near or (label and re.search(r"Profiler(Start|Stop)", label))):
                offset = (start - lo) if start < lo else (start - hi)
                allowed.append((table, label or "-", offset / 1e6))
            else:
                bad[table] = bad.get(table, 0) + 1
    return (lo, hi), bad, allowed


def compare(title, a, b):
    same = True
    for key in sorted(set(a) | set(b), key=str):
        verdict = "MATCH" if a.get(key, 0) == b.get(key, 0) else "DIFFER"
        same &= verdict == "MATCH"
        print(f"{title}\t{key}\t{a.get(key, 0)}\t{b.get(key, 0)}\t{verdict}")
    if not a and not b:
        print(f"{title}\t(none in either file)")
    return same


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    dbs, temps = [], []
    try:
        for path in sys.argv[1:]:
            db, tmp = open_db(path)
            dbs.append(db)
            temps.append(tmp)
        print(f"A = {sys.argv[1]}\nB = {sys.argv[2]}")
        print("what\tname\tA\tB\tverdict")
        kernels_same = compare("kernel", kernel_counts(dbs[0]), kernel_counts(dbs[1]))
        nvtx_same = compare("nvtx", nvtx_counts(dbs[0]), nvtx_counts(dbs[1]))
        totals = []
        for label, db in zip("AB", dbs):
            span, bad, allowed = outside(db)
            if span is None:
                print(f"outside {label}: no 'step N' NVTX range in the file, no span to check")
                totals.append("?")
                continue
            n = sum(bad.values())
            totals.append(str(n))
            detail = ", ".join(f"{t.replace('CUPTI_ACTIVITY_KIND_', '')} {c}" for t, c in sorted(bad.items()))
            print(f"outside {label}: {n} rows outside [{span[0]}, {span[1]}] ns ({(span[1] - span[0]) / 1e6:.2f} ms)"
                  + (f": {detail}" if detail else ""))
            for table, name, offset in allowed:
                print(f"  allowed {label}: {table.replace('CUPTI_ACTIVITY_KIND_', '')} {name} "
                      f"{offset:+.3f} ms from the span's {'start' if offset < 0 else 'end'}")
        ok = kernels_same and nvtx_same and totals == ["0", "0"]
        print(f"counts: kernels {'MATCH' if kernels_same else 'DIFFER'}, nvtx {'MATCH' if nvtx_same else 'DIFFER'}, "
              f"outside A={totals[0]} B={totals[1]}")
        return 0 if ok else 1
    except (sqlite3.Error, OSError) as error:
        print(f"counts: cannot read: {error}")
        return 2
    finally:
        for tmp in temps:
            if tmp:
                os.unlink(tmp)


if __name__ == "__main__":
    sys.exit(main())
