"""Holistic Trace Analysis's own figures on the per-rank Kineto traces of ddp_loop.py (issue 29).

  hta_reference.py TRACE_DIR_OR_FILES... -o OUT.json

Copies the traces (rank*.json or rank*.json.gz) into a temporary folder, loads them with
hta.trace_analysis.TraceAnalysis(trace_dir=...) (the rank comes from each trace's distributedInfo) and
writes, per rank, get_temporal_breakdown() (idle, compute, non-compute and kernel time in us, and the
percentages) and get_comm_comp_overlap() (comp_comm_overlap_pctg), exactly as HTA returns them, with
the versions of HTA, pandas and numpy. Run in the venv of tests/python/make-venv (HolisticTraceAnalysis
0.5.0, pandas<3).
"""
import argparse
import glob
import json
import math
import os
import shutil
import sys
import tempfile
from importlib.metadata import version


def plain(value):
    """numpy scalars to Python numbers, NaN to None."""
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("inputs", nargs="+", help="a folder of rank*.json[.gz] traces, or the trace files")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args(argv)
    files = []
    for item in args.inputs:
        if os.path.isdir(item):
            files += sorted(glob.glob(os.path.join(item, "rank*.json")) + glob.glob(os.path.join(item, "rank*.json.gz")))
        else:
            files.append(item)
    from hta.trace_analysis import TraceAnalysis

    with tempfile.TemporaryDirectory() as trace_dir:
        for path in files:
            shutil.copy(path, trace_dir)
        analysis = TraceAnalysis(trace_dir=trace_dir)
        breakdown = analysis.get_temporal_breakdown(visualize=False)
        overlap = analysis.get_comm_comp_overlap(visualize=False)
        ranks = {}
        for rank in sorted(analysis.t.traces.keys()):
            df = analysis.t.get_trace(rank)
            kernel_id = analysis.t.symbol_table.sym_index.get("kernel")
            ranks[rank] = {"events": int(len(df)), "kernels": int((df["cat"] == kernel_id).sum())}
        for _, row in breakdown.iterrows():
            ranks[int(row["rank"])]["temporal_breakdown"] = {k: plain(v) for k, v in row.items() if k != "rank"}
        for _, row in overlap.iterrows():
            ranks[int(row["rank"])]["comm_comp_overlap"] = {k: plain(v) for k, v in row.items() if k != "rank"}
    result = {
        "tool": f"HolisticTraceAnalysis {version('HolisticTraceAnalysis')}",
        "pandas": version("pandas"),
        "numpy": version("numpy"),
        "calls": ["TraceAnalysis(trace_dir=DIR).get_temporal_breakdown(visualize=False)",
                  "TraceAnalysis(trace_dir=DIR).get_comm_comp_overlap(visualize=False)"],
        "traces": [os.path.basename(p) for p in files],
        "ranks": {str(k): v for k, v in ranks.items()},
    }
    with open(args.output, "w") as out:
        json.dump(result, out, indent=2)
        out.write("\n")
    for rank, figures in result["ranks"].items():
        print(f"rank {rank}: {json.dumps(figures)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
