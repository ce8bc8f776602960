#!/usr/bin/env python3
"""Seed corpora for the fuzz targets, cut from the real fixtures.

Traces: each fixture's tables that gpuscope reads, their first ROWS rows and the strings those rows name,
in 512-byte pages without indexes: a few KB, so a fuzz run loads thousands of them a second. ncu CSV: the
real reports whole and cut after a few kernels.

usage: make_seeds.py OUT_DIR FIXTURE_DIR...
"""
import gzip
import json
import os
import shutil
import sqlite3
import sys
import tempfile

ROWS = 8
# Tables gpuscope reads: the event tables, the strings, process and device descriptions, and its own.
KEPT_PREFIXES = ("CUPTI_ACTIVITY_KIND_", "NVTX_EVENTS", "OSRT_API", "TARGET_INFO_GPU", "TARGET_INFO_CUDA_DEVICE",
                 "PROCESSES", "ThreadNames", "ENUM_CUDA_MEMCPY_OPER", "GPUSCOPE_")
STRING_COLUMNS = {"nameId", "shortName", "demangledName", "mangledName", "textId", "domainId"}


def cut_trace(source, target):
    if os.path.exists(target):
        os.remove(target)
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    dst = sqlite3.connect(target)
    dst.execute("PRAGMA page_size=512")
    tables = src.execute("SELECT name, sql FROM sqlite_schema WHERE type='table' AND sql IS NOT NULL").fetchall()
    strings = set()
    for name, sql in tables:
        if not name.startswith(KEPT_PREFIXES) or name in ("StringIds", "CUPTI_ACTIVITY_KIND_CUDA_EVENT"):
            continue
        dst.execute(sql)
        cursor = src.execute(f'SELECT * FROM "{name}" LIMIT {ROWS}')
        columns = [d[0] for d in cursor.description]
        rows = cursor.fetchall()
        for row in rows:
            strings.update(v for c, v in zip(columns, row) if c in STRING_COLUMNS and isinstance(v, int))
        if rows:
            marks = ",".join("?" * len(columns))
            dst.executemany(f'INSERT INTO "{name}" VALUES ({marks})', rows)
    string_sql = [sql for name, sql in tables if name == "StringIds"]
    if string_sql:
        dst.execute(string_sql[0])
        for value in sorted(strings):
            row = src.execute("SELECT id, value FROM StringIds WHERE id=?", (value,)).fetchone()
            if row:
                dst.execute("INSERT INTO StringIds VALUES (?, ?)", row)
    dst.commit()
    dst.execute("VACUUM")
    dst.close()


def cut_csv(source, target, kernels):
    lines, seen = [], set()
    with open(source, encoding="utf-8", errors="replace") as text:
        for line in text:
            key = line.split(",", 1)[0]
            if key.strip('"').isdigit():
                seen.add(key)
                if len(seen) > kernels:
                    break
            lines.append(line)
    with open(target, "w", encoding="utf-8") as out:
        out.writelines(lines)


def cut_kineto(source, target, per_category):
    """A few events of each category with the API calls and flows their correlation ids name, the
    metadata events and the header: a trace every part of the Kineto reader sees, in a few KB."""
    with gzip.open(source, "rt", encoding="utf-8") as text:
        trace = json.load(text)
    events = trace["traceEvents"]
    kept, taken, correlations = [], {}, set()
    for event in events:
        category = event.get("cat")
        if category in (None, "Trace") or event.get("ph") == "M":
            kept.append(event)
        elif category not in ("ac2g", "cuda_runtime", "cuda_driver") and taken.get(category, 0) < per_category:
            taken[category] = taken.get(category, 0) + 1
            kept.append(event)
            correlation = event.get("args", {}).get("correlation")
            if correlation is not None:
                correlations.add(correlation)
    for event in events:
        linked = event.get("args", {}).get("correlation") if event.get("cat") != "ac2g" else event.get("id")
        if event.get("cat") in ("ac2g", "cuda_runtime", "cuda_driver") and linked in correlations:
            kept.append(event)
    trace["traceEvents"] = kept
    body = json.dumps(trace).encode("utf-8")
    with open(target, "wb") as out:
        out.write(body)
    with gzip.open(target + ".gz", "wb") as out:
        out.write(body)


def main():
    out, fixtures = sys.argv[1], sys.argv[2:]
    for kind in ("trace", "ncu", "kineto"):
        os.makedirs(os.path.join(out, kind), exist_ok=True)
    for folder in fixtures:
        for root, _, files in os.walk(folder):
            for name in sorted(files):
                path = os.path.join(root, name)
                # classes/fp32/nsys.sqlite -> classes_fp32_nsys: one seed per fixture, none overwritten
                stem = os.path.splitext(os.path.relpath(path, folder))[0].replace(os.sep, "_")
                if name.endswith(".json.gz"):
                    cut_kineto(path, os.path.join(out, "kineto", stem[: -len(".json")] + "_cut.json"), 3)
                elif name.endswith(".sqlite"):
                    cut_trace(path, os.path.join(out, "trace", stem + ".sqlite"))
                elif name.endswith(".sqlite.gz") and "/classes/" in path:
                    # The class fixtures are kept compressed; their seeds are cut from a decompressed copy.
                    with tempfile.TemporaryDirectory() as scratch:
                        copy = os.path.join(scratch, "fixture.sqlite")
                        with gzip.open(path, "rb") as packed, open(copy, "wb") as unpacked:
                            shutil.copyfileobj(packed, unpacked)
                        cut_trace(copy, os.path.join(out, "trace", stem[: -len(".sqlite")] + ".sqlite"))
                elif name.endswith(".csv") and "ncu" in name:
                    cut_csv(path, os.path.join(out, "ncu", stem + "_3.csv"), 3)
                    if os.path.getsize(path) <= 128 * 1024:
                        cut_csv(path, os.path.join(out, "ncu", stem + ".csv"), 1 << 30)


if __name__ == "__main__":
    main()
