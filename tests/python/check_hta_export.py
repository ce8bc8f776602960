"""Loads a gpuscope Chrome export with Holistic Trace Analysis and checks that HTA finds every kernel of
the input trace, each linked to the CUDA call that launched it, and that an analysis runs on it."""
import sys

from hta.trace_analysis import TraceAnalysis

from expected_counts import kernel_count


def main(trace_dir: str, source: str) -> int:
    analysis = TraceAnalysis(trace_dir=trace_dir)
    ranks = list(analysis.t.traces.keys())
    df = analysis.t.get_trace(ranks[0])
    kernel_id = analysis.t.symbol_table.sym_index.get("kernel")
    kernels = df[df["cat"] == kernel_id]
    linked = int((kernels["index_correlation"] > 0).sum())
    breakdown = analysis.get_temporal_breakdown(visualize=False)
    expected = kernel_count(source)
    print(f"HTA: ranks {ranks}, {len(df)} events, {len(kernels)} kernels ({linked} linked to their launch), "
          f"input has {expected}; compute time {breakdown['compute_time(us)'].iloc[0]} us")
    problems = []
    if ranks != [0]:
        problems.append(f"ranks {ranks}, expected [0]")
    if len(kernels) != expected:
        problems.append(f"HTA found {len(kernels)} kernels, the input has {expected}")
    if linked != len(kernels):
        problems.append(f"{len(kernels) - linked} kernels not linked to a CUDA call")
    for problem in problems:
        print("FAILED:", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
