#!/usr/bin/env python3
"""Holistic Trace Analysis's parser on one PyTorch profiler trace: wall time and peak RSS, printed like
bench/kineto_load_bench. Run it in a test-only venv: pip install holistictraceanalysis.
Usage: hta_load_bench.py TRACE.json[.gz]
"""
import os
import resource
import shutil
import sys
import tempfile
import time


def main():
    path = os.path.abspath(sys.argv[1])
    from hta.trace_analysis import TraceAnalysis  # imported before timing: not part of the parse

    # HTA reads a folder of rank traces; a link keeps the file where it is.
    folder = tempfile.mkdtemp(prefix="hta-bench-")
    os.symlink(path, os.path.join(folder, "rank0_" + os.path.basename(path)))
    start = time.monotonic()
    analysis = TraceAnalysis(trace_dir=folder)
    seconds = time.monotonic() - start
    frame = analysis.t.get_trace(0)
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"file: {path} ({os.path.getsize(path) / 1e9:.2f} GB)")
    print(f"events: {len(frame)}")
    print(f"load time: {seconds:.2f} s")
    print(f"peak RSS: {peak_kib / 1024:.1f} MiB")
    shutil.rmtree(folder)


if __name__ == "__main__":
    main()
