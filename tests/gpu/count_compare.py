#!/usr/bin/env python3
"""Per-name counts of a gpuscope recording against an nsys export of the same program (issue 10).

  count_compare.py OURS.sqlite NSYS.sqlite NAME [--details]

Counts, per name: kernels (by mangled name, which both tools take from CUPTI unchanged), memcpys (by copy
kind and size), memsets, NVTX push/pop and start/end ranges (by text), CUDA API calls (cuda_api_sum's
rows) and OS-runtime calls (osrt_sum's rows). Prints one line per category: names equal / names in
either, and the first differing names with both counts when --details is given.
"""
import sqlite3
import sys
from collections import Counter

QUERIES = {
    "kernels": "SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.mangledName",
    "memcpy": "SELECT copyKind || ':' || bytes FROM CUPTI_ACTIVITY_KIND_MEMCPY",
    "memset": "SELECT bytes FROM CUPTI_ACTIVITY_KIND_MEMSET",
    "nvtx": ("SELECT coalesce(n.text, s.value) FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId "
             "WHERE n.eventType IN (59, 60)"),
    "cuda_api": "SELECT s.value FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId",
    "osrt": "SELECT s.value FROM OSRT_API o JOIN StringIds s ON s.id = o.nameId",
}


def counts(path, sql):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return Counter(row[0] for row in db.execute(sql))
    except sqlite3.OperationalError:  # a table the program never filled is absent
        return Counter()


def main():
    ours_path, nsys_path, name = sys.argv[1:4]
    details = "--details" in sys.argv[4:]
    for category, sql in QUERIES.items():
        ours, theirs = counts(ours_path, sql), counts(nsys_path, sql)
        names = sorted(set(ours) | set(theirs))
        equal = [n for n in names if ours[n] == theirs[n]]
        status = "EQUAL" if len(equal) == len(names) else "DIFFERENT"
        print(f"{name:10} {category:9} names equal {len(equal):4} of {len(names):4}  "
              f"total {sum(ours.values()):8} vs nsys {sum(theirs.values()):8}  {status}")
        if details:
            for n in [n for n in names if ours[n] != theirs[n]][:12]:
                print(f"    {ours[n]:8} {theirs[n]:8}  {str(n)[:110]}")


if __name__ == "__main__":
    main()
