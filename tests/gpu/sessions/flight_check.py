#!/usr/bin/env python3
"""Reads a flight recorder's dump (flight.sh): which step its trigger names, the steps and kernels it holds,
and whether the slow step the loop chose (TIMES_FILE's first line) is the one it names.

    python flight_check.py DUMP.sqlite TIMES_FILE
"""
import sqlite3
import sys

db = sqlite3.connect(sys.argv[1])
meta = dict(db.execute("SELECT name, value FROM GPUSCOPE_META"))
steps = [int(t[5:]) for (t,) in db.execute("SELECT text FROM NVTX_EVENTS WHERE text LIKE 'step %' ORDER BY start")]
kernels = db.execute("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchone()[0]
with open(sys.argv[2]) as times:
    slow = int(times.readline().split()[1])
trigger = meta.get("flight_trigger", "")
named = trigger.split("'")[1] if "'" in trigger else ""
print(f"dump: {meta.get('flight_dump')}; trigger: {trigger or '-'}")
print(f"steps {steps[0] if steps else '-'}..{steps[-1] if steps else '-'} ({len(steps)}), kernels {kernels}, "
      f"span {int(meta.get('flight_span_ns', 0)) / 1e9:.1f} s in {meta.get('flight_segments')} segments, "
      f"dropped for memory {meta.get('flight_segments_dropped_for_memory')}")
holds = slow in steps
print(f"the loop's slow step: {slow}; the file names: {named or '-'}; holds it: {holds}; "
      f"{'MATCH' if named == f'step {slow}' and holds else 'DIFFER'}")
