"""The kernel count of an input trace, read without gpuscope: SQL on an nsys/gpuscope file, or the
kernel events of a PyTorch profiler (Kineto) JSON trace."""
import gzip
import json
import sqlite3


def kernel_count(path: str) -> int:
    with open(path, "rb") as f:
        head = f.read(16)
    if head.startswith(b"SQLite format 3"):
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        return db.execute("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchone()[0]
    opener = gzip.open if head[:2] == b"\x1f\x8b" else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as f:
        trace = json.load(f)
    return sum(1 for e in trace["traceEvents"] if e.get("ph") == "X" and e.get("cat") == "kernel")
