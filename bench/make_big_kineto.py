#!/usr/bin/env python3
"""Writes a large PyTorch profiler trace by repeating a real one end to end, for bench/kineto_load_bench.

Each copy's timestamps are shifted past the previous copy and its correlation, flow and External ids are
offset, so the result is one long, consistent run. Usage: make_big_kineto.py IN.json[.gz] OUT.json MIN_BYTES
"""
import gzip
import json
import sys


def main():
    source, target, min_bytes = sys.argv[1], sys.argv[2], int(float(sys.argv[3]))
    opener = gzip.open if open(source, "rb").read(2) == b"\x1f\x8b" else open
    with opener(source, "rt") as f:
        doc = json.load(f)
    events = doc.pop("traceEvents")
    timed = [e for e in events if isinstance(e.get("ts"), (int, float)) and isinstance(e.get("pid"), int)]
    span = max(e["ts"] + e.get("dur", 0) for e in timed) - min(e["ts"] for e in timed) + 1000.0
    max_id = max([e.get("args", {}).get("correlation", 0) for e in events] + [e.get("id", 0) for e in events
                  if isinstance(e.get("id"), int)] + [e.get("args", {}).get("External id", 0) for e in events]) + 1
    written = 0
    with open(target, "w") as out:
        header = json.dumps(doc)[:-1]
        out.write(header + ', "traceEvents": [\n')
        copy = 0
        first = True
        while written < min_bytes:
            for e in events:
                if copy and (e.get("ph") == "M" or not isinstance(e.get("pid"), int)):
                    continue
                e2 = dict(e)
                if "ts" in e2 and isinstance(e2["ts"], (int, float)):
                    e2["ts"] = round(e2["ts"] + copy * span, 3)
                if isinstance(e2.get("id"), int):
                    e2["id"] = e2["id"] + copy * max_id
                if "args" in e2:
                    args = dict(e2["args"])
                    for key in ("correlation", "External id"):
                        if isinstance(args.get(key), int):
                            args[key] = args[key] + copy * max_id
                    e2["args"] = args
                text = ("" if first else ",\n") + json.dumps(e2)
                first = False
                out.write(text)
                written += len(text)
            copy += 1
        out.write("\n]}\n")
    print(f"{target}: {copy} copies, {written / 1e9:.2f} GB of events")


if __name__ == "__main__":
    main()
